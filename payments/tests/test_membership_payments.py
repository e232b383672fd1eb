"""Buying, renewing and ending memberships through Stripe (localstripe): the first period paid with
the card form, each renewal Stripe charges recorded once, a declined renewal past due with its
grace period, and the end."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from memberships.models import Membership
from memberships.services import plan_update
from memberships.tests.factories import make_plan
from notifications.models import Notification
from payments import membership_payments
from payments.models import Payment, Refund
from payments.services import payment_confirm
from testing import stripe_stand_in
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db
Status = Membership.Status


@pytest.fixture
def ada(localstripe):
    return User.objects.create_user("ada@example.com", name="Ada")


@pytest.fixture
def monthly():
    return make_plan(name="Club", price=Decimal("30.00"), period="monthly", renews_automatically=True)


def join(user, plan, card="4242424242424242") -> Membership:
    """`user` buys `plan` and pays its first period with `card`, as the card form does."""
    secret = membership_payments.membership_checkout(user=user, plan=plan)
    stripe_stand_in.pay(secret, card)
    payment_confirm(payment_intent_id=secret.split("_secret_")[0], user=user)
    return Membership.objects.get(user=user, plan=plan)


def events(user, kind: str) -> list[str]:
    return list(Notification.objects.filter(recipient=user, event=kind).values_list("subject", flat=True))


def test_a_renewing_plan_is_paid_as_its_subscriptions_first_invoice(ada, monthly):
    before = timezone.now()
    membership = join(ada, monthly)

    assert membership.status == Status.ACTIVE
    assert membership.stripe_subscription_id.startswith("sub_")
    assert timedelta(days=28) < membership.period_end - before <= timedelta(days=31, seconds=1)
    payment = Payment.objects.get(membership=membership)
    assert (payment.status, payment.amount, payment.card_last4) == ("succeeded", Decimal("30.00"), "4242")
    assert payment.stripe_invoice_id.startswith("in_")
    assert (payment.period_start, payment.period_end) == (membership.period_start, membership.period_end)
    ada.refresh_from_db()
    assert ada.role == User.Role.MEMBER
    assert events(ada, "membership_welcome") == ["Welcome to the club: your Club membership"]
    assert len(events(ada, "payment_receipt")) == 1


def test_asking_again_before_paying_gives_the_same_invoice_to_pay(ada, monthly):
    first = membership_payments.membership_checkout(user=ada, plan=monthly)
    second = membership_payments.membership_checkout(user=ada, plan=monthly)

    assert first == second
    assert Payment.objects.filter(status="pending").count() == 1
    assert Membership.objects.get().status == Status.PENDING


def test_a_one_off_plan_is_one_payment_intent_for_its_period(ada):
    plan = make_plan(
        name="Summer month", price=Decimal("25.00"), period="monthly", renews_automatically=False
    )
    membership = join(ada, plan)

    assert membership.status == Status.ACTIVE
    assert membership.stripe_subscription_id is None
    payment = Payment.objects.get(membership=membership)
    assert (payment.stripe_invoice_id, payment.status) == (None, "succeeded")


def test_each_renewal_is_one_payment_however_often_stripe_tells_of_it(ada, monthly):
    membership = join(ada, monthly)
    first_end = membership.period_end

    stripe_stand_in.renew(membership.stripe_subscription_id)
    renewal = membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)
    invoice_id = renewal.payments.latest("pk").stripe_invoice_id
    for _ in range(3):  # the webhook's replays, and the invoice's own events
        membership_payments.invoice_event(invoice_id=invoice_id)
        membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)

    membership.refresh_from_db()
    assert membership.status == Status.ACTIVE
    assert membership.period_start == first_end
    assert membership.period_end > first_end + timedelta(days=27)
    assert Payment.objects.filter(membership=membership, status="succeeded").count() == 2
    assert len(events(ada, "payment_receipt")) == 2
    assert len(events(ada, "membership_welcome")) == 1


def test_a_declined_renewal_is_past_due_with_a_grace_period_and_paid_with_another_card(ada, monthly):
    membership = join(ada, monthly)

    stripe_stand_in.renew(membership.stripe_subscription_id, fail=True)
    for _ in range(2):
        membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)

    membership.refresh_from_db()
    assert membership.status == Status.PAST_DUE
    assert timedelta(days=6) < membership.grace_until - timezone.now() <= timedelta(days=7)
    assert events(ada, "renewal_failed") == [
        "Your Club membership could not be renewed: please update your card"
    ]
    assert Membership.objects.filter(Membership.in_force(timezone.now()), pk=membership.pk).exists()

    secret = membership_payments.renewal_checkout(user=ada)
    stripe_stand_in.pay(secret, "5555555555554444")
    payment_confirm(payment_intent_id=secret.split("_secret_")[0], user=ada)

    membership.refresh_from_db()
    assert (membership.status, membership.grace_until) == (Status.ACTIVE, None)
    renewal = Payment.objects.filter(membership=membership).latest("pk")
    assert (renewal.status, renewal.card_last4) == ("succeeded", "4444")
    # The new card pays the next renewal.
    stripe_stand_in.renew(membership.stripe_subscription_id)
    membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)
    assert Payment.objects.filter(membership=membership, status="succeeded").count() == 3


def test_the_card_form_of_a_later_renewal_replaces_one_left_unpaid(ada, monthly):
    membership = join(ada, monthly)
    stripe_stand_in.renew(membership.stripe_subscription_id, fail=True)
    membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)
    # The holder opens the card form for the declined renewal, and leaves it unpaid.
    left = membership_payments.renewal_checkout(user=ada).split("_secret_")[0]
    # The next period's renewal is declined too: the form now pays that one.
    stripe_stand_in.renew(membership.stripe_subscription_id, fail=True)
    membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)

    secret = membership_payments.renewal_checkout(user=ada)
    stripe_stand_in.pay(secret, "5555555555554444")
    payment_confirm(payment_intent_id=secret.split("_secret_")[0], user=ada)

    membership.refresh_from_db()
    assert membership.status == Status.ACTIVE
    by_intent = dict(Payment.objects.filter(membership=membership).values_list("payment_intent_id", "status"))
    assert by_intent[left] == "cancelled"
    assert list(by_intent.values()).count("succeeded") == 2


def test_past_due_beyond_the_grace_period_ends_the_subscription_and_the_membership(ada, monthly):
    membership = join(ada, monthly)
    stripe_stand_in.renew(membership.stripe_subscription_id, fail=True)
    membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)

    ended = membership_payments.memberships_end_overdue(now=timezone.now() + timedelta(days=8))

    membership.refresh_from_db()
    assert (ended, membership.status) == (1, Status.EXPIRED)
    subscription = membership_payments.gateway.retrieve_subscription(membership.stripe_subscription_id)
    assert subscription.status == "canceled"
    ada.refresh_from_db()
    assert ada.role == User.Role.USER
    assert events(ada, "membership_ended") == ["Your Club membership has ended"]


def test_cancelling_ends_the_membership_at_the_periods_end_instead_of_renewing(ada, monthly):
    membership = join(ada, monthly)

    membership_payments.membership_cancel(user=ada)
    assert Membership.objects.get(pk=membership.pk).status == Status.ACTIVE
    stripe_stand_in.renew(membership.stripe_subscription_id)  # the period ends
    membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)

    membership.refresh_from_db()
    assert membership.status == Status.CANCELLED
    assert Payment.objects.filter(membership=membership).count() == 1
    assert list(membership.history.values_list("to_status", flat=True)) == ["active", "cancelled"]


def test_a_renewal_whose_event_was_lost_is_found_by_the_worker_once(ada, monthly):
    membership = join(ada, monthly)
    stripe_stand_in.renew(membership.stripe_subscription_id)  # Stripe's event lost to an outage of ours
    soon = membership.period_end - timedelta(hours=1)
    late = membership.period_end + timedelta(hours=1)

    compared = [membership_payments.memberships_reconcile(now=soon)] + [
        membership_payments.memberships_reconcile(now=late) for _ in range(2)
    ]

    assert compared == [0, 1, 0]
    assert Payment.objects.filter(membership=membership, status="succeeded").count() == 2


def test_an_admin_ending_a_holders_membership_ends_it_now_with_a_full_refund(people, localstripe, monthly):
    membership = join(User.objects.get(email="ada@example.com"), monthly)

    response = people["admin"].delete(f"/api/members/{membership.user_id}")
    run_due_tasks()

    assert response.status_code == 204
    membership.refresh_from_db()
    assert membership.status == Status.EXPIRED
    assert membership.history.last().reason == "Ended by the club (ann@example.com)."
    subscription = membership_payments.gateway.retrieve_subscription(membership.stripe_subscription_id)
    assert subscription.status == "canceled"
    refund = Refund.objects.get()
    assert (refund.status, refund.amount, refund.reason) == (
        "succeeded",
        Decimal("30.00"),
        "Membership ended by the club (100% refund).",
    )
    assert User.objects.get(pk=membership.user_id).role == User.Role.USER
    assert Notification.objects.get(event="refund").subject == "Refund of $30.00: Club membership"


def test_a_membership_renews_at_the_price_it_was_bought_at_and_new_ones_pay_the_new_price(
    localstripe, monthly
):
    ada = User.objects.create_user("ada@example.com")
    membership = join(ada, monthly)
    plan_update(plan=monthly, price=Decimal("40.00"))

    stripe_stand_in.renew(membership.stripe_subscription_id)
    membership_payments.subscription_sync(subscription_id=membership.stripe_subscription_id)
    bob = join(User.objects.create_user("bob@example.com"), monthly)

    amounts = Payment.objects.filter(status="succeeded").order_by("pk").values_list("amount", flat=True)
    assert list(amounts) == [Decimal("30.00"), Decimal("30.00"), Decimal("40.00")]
    assert (Membership.objects.get(pk=membership.pk).price, bob.price) == (Decimal("30.00"), Decimal("40.00"))
