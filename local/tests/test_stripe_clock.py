"""Local mode: Stripe's clock (/local/stripe-clock) ends a membership's period at localstripe now,
renewing it with the card on file or a declined one, and the membership shows it at once;
production never routes it."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from club.tests.test_settings import served_in_production
from kernel.days import when
from memberships.models import Membership
from memberships.services import membership_end
from memberships.tests.factories import make_membership, make_plan
from notifications.models import Notification
from payments import gateway, membership_payments
from payments.models import Payment
from payments.tests.test_membership_payments import join

pytestmark = pytest.mark.django_db
Status = Membership.Status


@pytest.fixture
def monthly():
    return make_plan(name="Club", price=Decimal("30.00"), period="monthly", renews_automatically=True)


@pytest.fixture
def ada(localstripe):
    return User.objects.create_user("ada@example.com", name="Ada Lovelace")


def renew(client, membership: Membership, *, fail: bool = False):
    return client.post(f"/local/stripe-clock/{membership.pk}/renew", {"fail": str(fail).lower()}, follow=True)


def said(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_clock_lists_the_begun_memberships_that_renew_at_stripe(client, ada, monthly):
    renewing = join(ada, monthly)
    one_off = make_membership(user=User.objects.create_user("bea@example.com"), plan=monthly)
    ended = join(User.objects.create_user("cy@example.com"), monthly)
    membership_end(membership_id=ended.pk, reason="Ended.")
    # Bought, not paid yet: no period of it can end.
    membership_payments.membership_checkout(user=User.objects.create_user("di@example.com"), plan=monthly)

    page = client.get("/local/stripe-clock")

    assert list(page.context["memberships"]) == [renewing]
    html = page.content.decode()
    assert "Ada Lovelace" in html
    assert "Club, $30.00 for a month" in html
    assert "ada@example.com" in html
    assert f"Active, paid until {when(renewing.period_end)}" in html
    assert f'action="/local/stripe-clock/{renewing.pk}/renew"' in html
    assert 'name="fail" value="false"' in html
    assert 'name="fail" value="true"' in html
    for other in ["bea@example.com", "cy@example.com", "di@example.com"]:
        assert other not in html
    assert one_off.stripe_subscription_id is None


def test_the_clock_reads_the_same_queries_however_many_memberships_renew(client, ada, monthly):
    def queries() -> int:
        with CaptureQueriesContext(connection) as run:
            assert client.get("/local/stripe-clock").status_code == 200
        return len(run.captured_queries)

    join(ada, monthly)
    one = queries()
    for email in ["bea@example.com", "cy@example.com"]:
        join(User.objects.create_user(email), monthly)

    assert queries() == one


def test_renew_now_renews_at_localstripe_and_records_the_period_at_once(client, ada, monthly):
    membership = join(ada, monthly)

    response = renew(client, membership)

    renewed = Membership.objects.get(pk=membership.pk)
    assert response.redirect_chain == [("/local/stripe-clock", 302)]
    assert (renewed.status, renewed.period_start) == (Status.ACTIVE, membership.period_end)
    assert renewed.period_end > membership.period_end + timedelta(days=27)
    assert Payment.objects.filter(membership=membership, status="succeeded").count() == 2
    assert said(response) == [
        f"The Club membership of Ada Lovelace is renewed: paid until {when(renewed.period_end)}."
    ]


def test_renewing_with_a_declined_card_makes_the_membership_past_due_and_tells_its_holder(
    client, ada, monthly
):
    membership = join(ada, monthly)

    response = renew(client, membership, fail=True)

    membership.refresh_from_db()
    assert membership.status == Status.PAST_DUE
    assert timedelta(days=6) < membership.grace_until - timezone.now() <= timedelta(days=7)
    assert said(response) == [
        "The Club membership of Ada Lovelace could not be renewed: past due, its benefits kept until "
        f"{when(membership.grace_until)}."
    ]
    assert Notification.objects.filter(recipient=ada, event="renewal_failed").count() == 1
    assert "Past due" in response.content.decode()


def test_the_period_end_ends_a_membership_its_holder_cancelled(client, ada, monthly):
    membership = join(ada, monthly)
    membership_payments.membership_cancel(user=ada)

    response = renew(client, membership)

    membership.refresh_from_db()
    assert membership.status == Status.CANCELLED
    assert said(response) == ["The Club membership of Ada Lovelace has ended (cancelled)."]
    assert list(response.context["memberships"]) == []


def test_localstripes_refusal_is_said_and_nothing_changes(client, ada, monthly):
    membership = join(ada, monthly)
    # Ended at Stripe, which the site has not heard of yet.
    gateway.cancel_subscription(membership.stripe_subscription_id, idempotency_key="test")

    response = renew(client, membership)

    assert said(response) == [
        f"localstripe refused to renew {membership.stripe_subscription_id}: This subscription has ended."
    ]
    assert Membership.objects.get(pk=membership.pk).status == Status.ACTIVE


def test_a_subscription_localstripe_does_not_know_is_said_and_nothing_changes(client, ada, monthly):
    membership = make_membership(user=ada, plan=monthly)
    Membership.objects.filter(pk=membership.pk).update(stripe_subscription_id="sub_unknown")

    response = renew(client, membership)

    assert said(response) == [
        "localstripe refused to renew sub_unknown: it knows no such subscription (its data was cleared "
        "since the membership was bought)"
    ]
    assert Membership.objects.get(pk=membership.pk).period_end == membership.period_end


def test_only_a_begun_membership_with_a_subscription_is_renewed_here(client, ada, monthly):
    one_off = make_membership(user=ada, plan=monthly)
    ended = join(User.objects.create_user("cy@example.com"), monthly)
    membership_end(membership_id=ended.pk, reason="Ended.")
    di = User.objects.create_user("di@example.com")
    membership_payments.membership_checkout(user=di, plan=monthly)
    unpaid = Membership.objects.get(user=di)

    for membership in [one_off, ended, unpaid]:
        assert client.post(f"/local/stripe-clock/{membership.pk}/renew").status_code == 404
    assert client.get(f"/local/stripe-clock/{ended.pk}/renew").status_code == 405


def test_the_clock_says_when_nothing_renews_at_localstripe(client):
    assert "No membership renews at localstripe yet." in client.get("/local/stripe-clock").content.decode()


@pytest.mark.integration  # starts the site's own processes
def test_production_never_routes_stripes_clock():
    assert served_in_production("/local/stripe-clock", "/local/stripe-clock/1/renew") == []
