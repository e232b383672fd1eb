"""A card charged is recorded whatever failed meanwhile: the worker compares each payment left
pending with its PaymentIntent at Stripe (payments.services.payments_reconcile) and finishes it as
save-payment or the webhook would have, and an intent Stripe no longer knows never blocks a booking.

These tests pay at localstripe and leave out save-payment and the webhook, which is what the site
sees when its database is down at that moment (e2e/test_faults.py stops it for real)."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_cancel
from bookings.tests.factories import make_booking
from club.models import PeriodicRun
from club.schedule import queue_due_tasks
from courts.tests.factories import CourtFactory
from kernel.errors import Conflict
from payments import gateway
from payments.models import Payment, Refund
from payments.services import PAYMENT_FORGOTTEN, payment_confirm, payment_intent_create, payments_reconcile
from payments.tests.helpers import stripe_refunds
from testing import stripe_stand_in
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db
RECONCILE_AFTER = timedelta(seconds=settings.PAYMENT_RECONCILE_SECONDS)


@pytest.fixture
def booking(localstripe, mailbox):
    """Ada's approved booking of a $20 court, tomorrow, not paid yet."""
    ada = User.objects.create_user("ada@example.com")
    return make_booking(user=ada, court=CourtFactory(price=Decimal("20.00")), status=Booking.Status.APPROVED)


def started(booking: Booking) -> str:
    """The client secret of the booking's payment, as its payment page gets it."""
    return payment_intent_create(user=booking.user, booking=booking)


def reconciled(booking: Booking, *, started_ago: timedelta, settings) -> tuple[str, str]:
    """Runs the reconciliation as the worker does (the scheduler queues it, the worker runs it) on
    the booking's payment started `started_ago`; answers the payment's and the booking's status."""
    task = "payments.services.reconcile_payments"
    settings.PERIODIC_TASKS = {task: settings.PERIODIC_TASKS[task]}  # the one declared, alone
    Payment.objects.filter(booking=booking).update(created_at=timezone.now() - started_ago)
    PeriodicRun.objects.update(due_at=timezone.now())
    queue_due_tasks()
    run_due_tasks()
    booking.refresh_from_db()
    return booking.payments.get().status, booking.status


def intent_status(payment: Payment) -> str:
    return gateway.retrieve_intent(payment.payment_intent_id).status


def test_a_card_charged_unheard_is_confirmed_once_the_payment_has_waited_a_few_minutes(
    booking, mailbox, settings
):
    pay = stripe_stand_in.pay(started(booking))
    assert pay.status == "succeeded"

    assert reconciled(booking, started_ago=RECONCILE_AFTER - timedelta(minutes=1), settings=settings) == (
        Payment.Status.PENDING,
        Booking.Status.APPROVED,
    )
    assert reconciled(booking, started_ago=RECONCILE_AFTER + timedelta(minutes=1), settings=settings) == (
        Payment.Status.SUCCEEDED,
        Booking.Status.CONFIRMED,
    )
    payment = booking.payments.get()
    assert (payment.card_last4, payment.paid_at is not None) == ("4242", True)
    assert User.objects.get(email="ada@example.com").role == User.Role.MEMBER
    assert [m.subject for m in mailbox.messages(to="ada@example.com") if m.subject.startswith("Receipt")]


def test_a_card_charged_for_a_booking_cancelled_meanwhile_is_refunded_in_full(booking, settings):
    stripe_stand_in.pay(started(booking))
    booking_cancel(booking=booking, by=booking.user)

    assert reconciled(booking, started_ago=RECONCILE_AFTER * 2, settings=settings) == (
        Payment.Status.REFUNDED,
        Booking.Status.CANCELLED,
    )
    payment = booking.payments.get()
    assert [r.amount for r in stripe_refunds(payment.payment_intent_id)] == [2000]
    assert Refund.objects.get().status == Refund.Status.SUCCEEDED


def test_a_payment_whose_intent_was_cancelled_at_stripe_is_released_and_the_booking_paid_anew(
    booking, settings
):
    started(booking)
    payment = booking.payments.get()
    gateway._client().v1.payment_intents.cancel(payment.payment_intent_id)

    assert reconciled(booking, started_ago=RECONCILE_AFTER * 2, settings=settings) == (
        Payment.Status.CANCELLED,
        Booking.Status.APPROVED,
    )
    assert "_secret_" in started(booking)
    assert booking.payments.filter(status=Payment.Status.PENDING).count() == 1


def test_the_open_intent_of_a_booking_no_longer_waiting_for_payment_is_cancelled_at_stripe(booking, settings):
    started(booking)
    Booking.objects.filter(pk=booking.pk).update(status=Booking.Status.EXPIRED)

    assert reconciled(booking, started_ago=RECONCILE_AFTER * 2, settings=settings) == (
        Payment.Status.CANCELLED,
        Booking.Status.EXPIRED,
    )
    assert intent_status(booking.payments.get()) == "canceled"


def test_an_intent_its_owner_can_still_pay_is_left_open_and_compared_again_later(booking):
    stripe_secret = started(booking)
    payment = booking.payments.get()
    first = payment.created_at + RECONCILE_AFTER + timedelta(seconds=1)

    assert payments_reconcile(now=first) == 1
    assert intent_status(payment) == "requires_payment_method"
    stripe_stand_in.pay(stripe_secret)
    # Compared once per PAYMENT_RECONCILE_SECONDS, not at each run of the job.
    assert payments_reconcile(now=first + RECONCILE_AFTER - timedelta(seconds=1)) == 0
    assert payments_reconcile(now=first + RECONCILE_AFTER + timedelta(seconds=1)) == 1
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED


def test_asking_again_to_pay_a_booking_paid_unheard_confirms_it(booking):
    stripe_stand_in.pay(started(booking))

    with pytest.raises(Conflict, match=r"This booking has been paid already: it is confirmed\."):
        started(booking)

    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED
    assert booking.payments.get().status == Payment.Status.SUCCEEDED


def test_an_intent_stripe_no_longer_knows_gives_way_to_a_new_one(booking, localstripe):
    started(booking)
    forgotten = booking.payments.get()
    localstripe.clear()  # as Stripe's test mode after its data is deleted

    with pytest.raises(Conflict, match=re.escape(PAYMENT_FORGOTTEN)):
        payment_confirm(payment_intent_id=forgotten.payment_intent_id, user=booking.user)
    secret = started(booking)

    forgotten.refresh_from_db()
    assert forgotten.status == Payment.Status.CANCELLED
    renewed = booking.payments.get(status=Payment.Status.PENDING)
    assert secret.startswith(renewed.payment_intent_id)
    stripe_stand_in.pay(secret)
    assert payment_confirm(payment_intent_id=renewed.payment_intent_id).status == Payment.Status.SUCCEEDED
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED


def test_a_pending_payment_whose_intent_stripe_no_longer_knows_is_released(booking, localstripe, settings):
    started(booking)
    localstripe.clear()

    assert reconciled(booking, started_ago=RECONCILE_AFTER * 2, settings=settings) == (
        Payment.Status.CANCELLED,
        Booking.Status.APPROVED,
    )


def test_a_payment_stripe_cannot_be_asked_about_waits_for_the_next_comparison(booking):
    stripe_stand_in.pay(started(booking))
    later = booking.payments.get().created_at + RECONCILE_AFTER * 2

    with stripe_stand_in.unreachable():
        assert payments_reconcile(now=later) == 1

    assert booking.payments.get().status == Payment.Status.PENDING
    assert payments_reconcile(now=later + RECONCILE_AFTER * 2) == 1
    assert booking.payments.get().status == Payment.Status.SUCCEEDED
