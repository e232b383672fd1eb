"""The admin's dashboard shows the renewals failing now: each membership past due, with its holder,
plan and the end of its grace, the soonest first; or that there are none."""

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from memberships.services import membership_period_paid, membership_renewal_failed
from memberships.tests.factories import make_membership, make_plan

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 11, 18, 15, tzinfo=UTC)


def failing_card(client) -> str:
    """The card's text, as read."""
    html = client.get("/dashboard").content.decode()
    card = re.search(r'data-testid="renewals-failing">(.*?)</div>', html, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", card.replace("<wbr>", "")).split())


@pytest.fixture
def plans(people, monkeypatch, settings):
    settings.TIME_ZONE = "UTC"
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    return {
        "club": make_plan(name="Club", period="monthly", price=Decimal("30.00")),
        "premium": make_plan(name="Premium", price=Decimal("480.00")),
    }


def failed(email: str, plan, *, grace_days: int, name: str = ""):
    """`email`'s membership of `plan`, its renewal refused, its grace ending in `grace_days`."""
    holder = User.objects.filter(email=email).first() or User.objects.create_user(email, name=name)
    membership = make_membership(user=holder, plan=plan)
    return membership_renewal_failed(
        membership_id=membership.pk, grace_until=NOW + timedelta(days=grace_days), reason="Card declined."
    )


def test_the_renewals_failing_are_listed_with_holder_plan_and_grace_the_soonest_first(people, plans):
    failed("zoe@example.com", plans["premium"], grace_days=6, name="Zoe Quinn")
    failed("kim@example.com", plans["club"], grace_days=2)
    make_membership(
        user=User.objects.get(email="ada@example.com"), plan=plans["club"]
    )  # renewed: not failing

    assert failing_card(people["admin"]) == (
        "Renewals failing now 2"
        " kim@example.com Club: grace until November 20, 2026, 3:00 PM"
        " Zoe Quinn zoe@example.com Premium: grace until November 24, 2026, 3:00 PM"
        " Read them in Django admin"
        " A renewal's card was declined: its holder was e-mailed a link to pay with another card, and"
        " keeps the benefits until then. Unpaid by then, the membership ends by itself."
    )


def test_the_card_links_the_memberships_past_due_in_django_admin(people, plans):
    failed("zoe@example.com", plans["club"], grace_days=2)
    link = "/admin/memberships/membership/?status__exact=past_due"

    html = people["admin"].get("/dashboard").content.decode()
    listed = people["admin"].get(link).content.decode()

    assert f'href="{link}"' in html
    assert "zoe@example.com" in listed


def test_without_renewals_failing_the_card_says_none(people, plans):
    make_membership(user=User.objects.get(email="ada@example.com"), plan=plans["club"])

    assert failing_card(people["admin"]) == "Renewals failing now 0 None: every renewal went through."


def test_a_membership_paid_again_leaves_the_list(people, plans):
    membership = failed("kim@example.com", plans["club"], grace_days=2)

    membership_period_paid(
        membership_id=membership.pk, period_start=NOW, period_end=NOW + timedelta(days=30), reason="Paid."
    )

    assert failing_card(people["admin"]).startswith("Renewals failing now 0 None")


def test_the_first_five_are_named_and_all_are_counted(people, plans):
    for index in range(7):
        failed(f"holder{index}@example.com", plans["club"], grace_days=7 - index)

    card = failing_card(people["admin"])

    assert card.startswith("Renewals failing now 7 holder6@example.com Club: grace until November 19, 2026")
    assert card.count("grace until") == 5
    assert "holder1@example.com" not in card
    assert "The 5 whose grace ends soonest, of 7." in card


@pytest.mark.parametrize("kind", ["owner", "other", "member"])
def test_only_admins_see_the_renewals_failing(people, plans, kind):
    failed("zoe@example.com", plans["club"], grace_days=2)

    assert people["anonymous"].get("/dashboard")["Location"] == "/login?next=/dashboard"
    assert 'data-testid="renewals-failing"' not in people[kind].get("/dashboard").content.decode()
    assert "zoe@example.com" in failing_card(people["admin"])


def test_the_dashboard_costs_the_same_queries_however_many_renewals_fail(people, plans):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert people["admin"].get("/dashboard").status_code == 200
        return len(captured)

    failed("zoe@example.com", plans["club"], grace_days=2)
    few = queries()
    for index in range(6):
        failed(f"holder{index}@example.com", plans["premium"], grace_days=index)

    assert queries() == few
