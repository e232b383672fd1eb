"""Stripe's events about memberships' subscriptions, signed as Stripe signs them, each replayed and
out of order: the membership ends where Stripe has it, and no payment is counted twice."""

import pytest

from accounts.models import User
from memberships.models import Membership
from notifications.models import Notification
from payments import gateway
from payments.models import Payment
from payments.tests.helpers import event, post_event, signed
from payments.tests.test_membership_payments import join, monthly  # noqa: F401 - the fixture
from testing import stripe_stand_in

pytestmark = pytest.mark.django_db
Status = Membership.Status


def send(kind: str, object_id: str):
    payload = event(kind, object_id)
    return post_event(payload, signed(payload))


@pytest.fixture
def member(localstripe, monthly):  # noqa: F811 - the fixture imported above
    ada = User.objects.create_user("ada@example.com", name="Ada")
    return join(ada, monthly)


def latest_invoice(membership: Membership) -> str:
    return gateway.retrieve_subscription(membership.stripe_subscription_id).latest_invoice.id


def succeeded_payments(membership: Membership) -> int:
    return Payment.objects.filter(membership=membership, status="succeeded").count()


@pytest.mark.parametrize("kind", ["invoice.paid", "invoice.payment_succeeded"])
def test_a_paid_renewal_is_recorded_once_however_often_it_is_told(member, kind):
    stripe_stand_in.renew(member.stripe_subscription_id)
    invoice_id = latest_invoice(member)

    answers = [send(kind, invoice_id) for _ in range(3)]
    answers.append(send("customer.subscription.updated", member.stripe_subscription_id))

    assert [answer.status_code for answer in answers] == [200] * 4
    assert answers[0].json() == {"detail": "The membership is active."}
    assert succeeded_payments(member) == 2
    assert Notification.objects.filter(event="payment_receipt").count() == 2


def test_a_failed_renewal_told_before_and_after_its_payment_moves_nothing_back(member):
    stripe_stand_in.renew(member.stripe_subscription_id, fail=True)
    failed_invoice = latest_invoice(member)
    assert send("invoice.payment_failed", failed_invoice).json() == {"detail": "The membership is past due."}
    assert send("invoice.payment_failed", failed_invoice).status_code == 200
    assert Notification.objects.filter(event="renewal_failed").count() == 1

    stripe_stand_in.pay(gateway.invoice_client_secret(gateway.retrieve_invoice(failed_invoice)))
    assert send("invoice.paid", failed_invoice).json() == {"detail": "The membership is active."}
    # The failure told again, late: Stripe has the renewal paid.
    assert send("invoice.payment_failed", failed_invoice).json() == {"detail": "The membership is active."}

    member.refresh_from_db()
    assert (member.status, succeeded_payments(member)) == (Status.ACTIVE, 2)
    assert list(member.history.values_list("to_status", flat=True)) == ["active", "past_due", "active"]


def test_the_end_of_a_subscription_ends_the_membership_once(member):
    member_before = member.period_end
    stripe_stand_in.renew(member.stripe_subscription_id)  # paid, but not yet told
    gateway.cancel_subscription(member.stripe_subscription_id, idempotency_key="test-cancel")

    answers = [send("customer.subscription.deleted", member.stripe_subscription_id) for _ in range(2)]
    late = send("invoice.paid", latest_invoice(member))

    assert [answer.json()["detail"] for answer in [*answers, late]] == ["The membership is expired."] * 3
    member.refresh_from_db()
    assert member.status == Status.EXPIRED
    assert member.period_end > member_before  # the renewal paid before the end is recorded…
    assert succeeded_payments(member) == 2  # …once
    assert Notification.objects.filter(event="membership_ended").count() == 1
    assert User.objects.get(pk=member.user_id).role == User.Role.USER


@pytest.mark.parametrize("kind", ["customer.subscription.updated", "customer.subscription.deleted"])
def test_an_event_about_a_subscription_that_is_not_ours_is_acknowledged_and_ignored(member, kind):
    answer = send(kind, "sub_not_ours")

    assert (answer.status_code, answer.json()) == (200, {"detail": "Not one of our memberships: ignored."})
    assert Membership.objects.get().status == Status.ACTIVE
