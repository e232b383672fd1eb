"""No database transaction is open while Stripe is asked anything: a Stripe that answers slowly
holds no row lock (the booking's, a refund's), and a transaction that fails after Stripe did its
part cannot take back the record that it was asked."""

from decimal import Decimal

import pytest

from accounts.models import User
from bookings.models import Booking
from bookings.services import policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from payments.models import Coupon, Payment, Refund
from payments.services import payment_cancel, refund_send
from payments.tests.helpers import intent, save
from testing.stripe_stand_in import pay
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def booking(people, localstripe):
    ada = User.objects.get(email="ada@example.com")
    return make_booking(user=ada, court=CourtFactory(price=Decimal("20.00")), status=Booking.Status.APPROVED)


def in_transaction(requests: list) -> list:
    assert requests, "Stripe was asked nothing"
    return [(method, path) for method, path, open_then in requests if open_then]


def test_making_an_intent_asks_stripe_outside_any_transaction(people, booking, stripe_requests):
    assert intent(people["owner"], booking).status_code == 200

    assert in_transaction(stripe_requests) == []


def test_replacing_an_intent_for_another_coupon_asks_stripe_outside_any_transaction(
    people, booking, stripe_requests
):
    Coupon.objects.create(code="SPRING25", discount=25)
    intent(people["owner"], booking)

    assert intent(people["owner"], booking, couponCode="SPRING25").status_code == 200

    assert in_transaction(stripe_requests) == []
    assert Payment.objects.filter(status=Payment.Status.CANCELLED).count() == 1


def test_cancelling_a_payment_asks_stripe_outside_any_transaction(people, booking, stripe_requests):
    intent(people["owner"], booking)

    payment_cancel(payment_id=Payment.objects.get().pk)

    assert in_transaction(stripe_requests) == []
    assert Payment.objects.get().status == Payment.Status.CANCELLED


def test_sending_a_refund_asks_stripe_outside_any_transaction(people, booking, mailbox, stripe_requests):
    policy_update(cancel_cutoff_hours=1, refund_percent=100, late_refund_percent=0)
    secret = intent(people["owner"], booking).json()["clientSecret"]
    pay(secret)
    save(people["owner"], secret)
    people["owner"].delete(f"/api/bookings/{booking.pk}")
    stripe_requests.clear()

    run_due_tasks()

    assert Refund.objects.get().status == Refund.Status.SUCCEEDED
    assert in_transaction(stripe_requests) == []


def test_refunding_a_payment_that_cannot_be_kept_asks_stripe_outside_any_transaction(
    people, booking, mailbox, stripe_requests
):
    Coupon.objects.create(code="SPRING25", discount=25)
    secret = intent(people["owner"], booking, couponCode="SPRING25").json()["clientSecret"]
    pay(secret)
    Coupon.objects.filter(code="SPRING25").update(is_active=False)
    stripe_requests.clear()

    assert save(people["owner"], secret).status_code == 409

    assert Payment.objects.get().status == Payment.Status.REFUNDED
    assert in_transaction(stripe_requests) == []
    assert refund_send(refund_id=Refund.objects.get().pk).status == Refund.Status.SUCCEEDED


def test_buying_renewing_and_ending_a_membership_ask_stripe_outside_any_transaction(
    localstripe, stripe_requests, stripe_writes
):
    from memberships.tests.factories import make_plan
    from payments import membership_payments
    from payments.services import payment_confirm
    from testing import stripe_stand_in

    ada = User.objects.create_user("ada@example.com")
    plan = make_plan(name="Club", price=Decimal("30"), period="monthly", renews_automatically=True)
    secret = membership_payments.membership_checkout(user=ada, plan=plan)
    pay(secret)
    payment_confirm(payment_intent_id=secret.split("_secret_")[0])
    subscription_id = Payment.objects.get().membership.stripe_subscription_id
    stripe_stand_in.renew(subscription_id, fail=True)
    membership_payments.subscription_sync(subscription_id=subscription_id)
    pay(membership_payments.renewal_checkout(user=ada), "5555555555554444")
    membership_payments.subscription_sync(subscription_id=subscription_id)
    membership_payments.membership_cancel(user=ada)

    assert in_transaction(stripe_requests) == []
    # Each write the site sent carries a key made from the membership (the test's card payments,
    # the browser's part, aside).
    membership_id = Payment.objects.first().membership_id
    assert [
        (path.split("/")[2], key)
        for path, key in stripe_writes
        if path.split("/")[2] != "payment_methods" and "/payment_intents/" not in path
    ] == [
        ("plans", f"plan-club-plan-{plan.pk}-3000-month"),
        ("customers", f"membership-customer-{membership_id}"),
        ("subscriptions", f"membership-subscription-{membership_id}"),
        ("subscriptions", f"membership-cancel-{membership_id}"),
    ]
