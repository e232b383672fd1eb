"""/membership: the plans on sale and what each gives, for anyone; the person's own membership, with
what they can do about it; and the pages that pay for one."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from memberships.services import (
    membership_cancel_at_period_end,
    membership_open,
    membership_renewal_failed,
    plan_create,
)
from memberships.tests.factories import make_membership, make_plan
from testing.islands import props_by_island

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return make_plan(
        name="Club",
        description="Play more, pay less",
        price=Decimal("30.00"),
        period="monthly",
        member_price_kind="fixed",
        member_price_value=Decimal("12.00"),
        booking_window_days=None,
        hours_per_week=6,
        peak_hours_per_week=None,
        members_only_hours=False,
    )


def test_anyone_sees_the_plans_on_sale_and_what_each_gives(client, club):
    plan_create(name="Old", price=Decimal("10"), period="yearly", on_sale=False)

    html = client.get("/membership").content.decode()

    assert "Club" in html
    assert "Old" not in html
    assert "$30.00 <span" in html
    assert "for a month, renewed until you cancel" in html
    assert "Member price: $12.00 a slot" in html
    assert "Up to 6 hours of courts a week" in html
    assert f'href="/login?next=/membership/join/{club.pk}"' in html
    assert "Sign in to join" in html


def test_a_club_selling_no_plan_says_so(client):
    html = client.get("/membership").content.decode()

    assert "The club sells no memberships at the moment: paying for a booking makes you a member." in html


def test_a_signed_in_person_joins_a_plan(people, club):
    html = people["owner"].get("/membership").content.decode()

    assert f'href="/membership/join/{club.pk}"' in html
    assert "Join: Club" in html
    assert "Your membership" not in html


def test_a_holder_sees_their_membership_its_renewal_and_may_cancel_it(people, club):
    ada = User.objects.get(email="ada@example.com")
    membership = make_membership(user=ada, plan=club)

    response = people["owner"].get("/membership")
    html = response.content.decode()

    assert "Your membership: Club" in html
    assert 'data-testid="membership-state">Active<' in html
    assert "Renews" in html
    assert "Join: Club" not in html
    props = props_by_island(html)
    assert props["membership-cancel"]["url"] == "/api/memberships/me/cancel"
    assert props["membership-cancel"]["endsOn"]

    membership_cancel_at_period_end(membership_id=membership.pk)
    html = people["owner"].get("/membership").content.decode()
    assert "Ends" in html
    assert "membership-cancel" not in props_by_island(html)


def test_a_past_due_holder_is_asked_to_pay_with_another_card(people, club):
    ada = User.objects.get(email="ada@example.com")
    membership = make_membership(user=ada, plan=club)
    membership_renewal_failed(
        membership_id=membership.pk, grace_until=timezone.now() + timedelta(days=7), reason="Declined."
    )

    html = people["owner"].get("/membership").content.decode()
    renew = people["owner"].get("/membership/renew")

    assert "Your last renewal could not be charged." in html
    assert 'href="/membership/renew"' in html
    assert renew.status_code == 200
    props = props_by_island(renew.content.decode())["payment"]
    assert (props["intentUrl"], props["intentBody"], props["price"]) == (
        "/api/memberships/me/renewal",
        {},
        "30.00",
    )


@pytest.mark.parametrize("kind", ["owner", "member", "admin"])
def test_the_renewal_page_sends_anyone_without_a_renewal_to_pay_to_their_membership(people, kind):
    response = people[kind].get("/membership/renew")

    assert (response.status_code, response["Location"]) == (302, "/membership")


@pytest.mark.parametrize("page", ["/membership/join/{plan}", "/membership/renew"])
def test_paying_for_a_membership_needs_a_sign_in(client, club, page):
    path = page.format(plan=club.pk)

    response = client.get(path)

    assert (response.status_code, response["Location"]) == (302, f"/login?next={path}")


@pytest.mark.parametrize("kind", ["owner", "other", "member", "admin"])
def test_the_join_page_pays_the_plans_first_period_with_the_card_form(people, club, kind):
    response = people[kind].get(f"/membership/join/{club.pk}")

    assert response.status_code == 200
    props = props_by_island(response.content.decode())["payment"]
    assert (props["intentUrl"], props["intentBody"]) == ("/api/memberships", {"planId": club.pk})
    assert (props["price"], props["doneUrl"], props["saveUrl"]) == (
        "30.00",
        "/membership",
        "/api/save-payment",
    )
    assert "quoteUrl" not in props


def test_a_plan_off_sale_cannot_be_joined(people):
    old = make_plan(on_sale=False)

    assert people["owner"].get(f"/membership/join/{old.pk}").status_code == 404


def test_a_membership_awaiting_payment_is_finished_or_another_plan_chosen(people, club):
    premium = make_plan(name="Premium")
    membership_open(user=User.objects.get(email="ada@example.com"), plan=club)

    html = people["owner"].get("/membership").content.decode()

    assert 'data-testid="membership-state">Awaiting payment<' in html
    assert f'href="/membership/join/{club.pk}" class="btn btn-primary">Finish paying' in html
    assert f'href="/membership/join/{premium.pk}" class="btn btn-primary">Join: Premium' in html
