"""A paid booking cancelled before it starts gives back what the policy says at that moment (in
full when an admin cancels it): a refund row, made at Stripe by the worker once the cancellation
has committed, shown in the payment history and the receipt, and e-mailed."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from audit.models import AuditEntry
from bookings.models import Booking
from bookings.services import booking_cancel, policy_update, refund_percent
from bookings.tests.factories import make_booking
from club.models import PeriodicRun
from club.schedule import queue_due_tasks
from courts.tests.factories import CourtFactory
from payments import gateway
from payments.models import Payment, Refund
from payments.services import refund_send, refunds_send_stalled
from payments.tests.helpers import intent, retries_made_due, save, stripe_refunds
from testing import stripe_stand_in
from testing.concurrency import at_once
from testing.stripe_stand_in import pay
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid(people, localstripe, mailbox):
    """Ada's booking of a $20 court, tomorrow, paid by card, under a policy refunding it in full
    until an hour before it starts."""
    policy_update(cancel_cutoff_hours=1, refund_percent=100, late_refund_percent=0)
    ada = User.objects.get(email="ada@example.com")
    booking = make_booking(
        user=ada, court=CourtFactory(price=Decimal("20.00")), status=Booking.Status.APPROVED
    )
    secret = intent(people["owner"], booking).json()["clientSecret"]
    pay(secret)
    assert save(people["owner"], secret).status_code == 200
    return Payment.objects.get(booking=booking)


def hours_to_start(booking: Booking) -> float:
    return (booking.starts_at - timezone.now()).total_seconds() / 3600


def cancel(client, booking: Booking):
    response = client.delete(f"/api/bookings/{booking.pk}")
    run_due_tasks()
    return response


def stripe_amounts(payment: Payment) -> list[int]:
    return [refund.amount for refund in stripe_refunds(payment.payment_intent_id)]


@pytest.mark.parametrize(
    ("to_cutoff", "percent"),
    [(timedelta(microseconds=-1), 100), (timedelta(0), 50), (timedelta(hours=1), 50)],
    ids=["just-before-the-cutoff", "at-the-cutoff", "after-the-cutoff"],
)
def test_the_owners_refund_share_changes_at_the_cutoff(paid, to_cutoff, percent):
    policy_update(cancel_cutoff_hours=5, refund_percent=100, late_refund_percent=50)
    cutoff = paid.booking.starts_at - timedelta(hours=5)

    assert refund_percent(booking=paid.booking, by=paid.user, now=cutoff + to_cutoff) == percent
    admin = User.objects.get(email="ann@example.com")
    assert refund_percent(booking=paid.booking, by=admin, now=cutoff + to_cutoff) == 100


def test_a_paid_booking_is_never_cancelled_without_its_refund_recorded(paid, monkeypatch):
    """The bookings call the service the payments app named as it started (payments.apps): were it
    not named, the cancellation is refused whole, not made without a refund."""
    monkeypatch.setattr("bookings.services._refund_for_ended_booking", None)

    with pytest.raises(ImproperlyConfigured):
        booking_cancel(booking=paid.booking, by=paid.user)

    paid.booking.refresh_from_db()
    assert paid.booking.status == Booking.Status.CONFIRMED
    assert not Refund.objects.exists()


def test_the_owner_cancelling_before_the_cutoff_gets_the_full_refund_in_history_receipt_and_mail(
    people, paid, mailbox
):
    response = cancel(people["owner"], paid.booking)

    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    refund = Refund.objects.get()
    assert (refund.amount, refund.status) == (Decimal("20.00"), Refund.Status.SUCCEEDED)
    assert stripe_amounts(paid) == [2000]
    history = people["owner"].get("/dashboard/payment-history").content.decode()
    assert "Refunded $20.00" in history
    receipt = people["owner"].get(f"/dashboard/payments/{paid.pk}/receipt").content.decode()
    assert "Refunds" in receipt
    assert "Booking cancelled by you (100% refund)." in receipt
    [mail] = [m for m in mailbox.messages(to="ada@example.com") if m.subject.startswith("Refund")]
    assert mail.subject.startswith("Refund of $20.00")
    assert "ending in 4242" in mail.text


def test_the_owner_cancelling_after_the_cutoff_gets_the_late_share(people, paid):
    policy_update(
        cancel_cutoff_hours=int(hours_to_start(paid.booking)) + 1, refund_percent=100, late_refund_percent=50
    )

    cancel(people["owner"], paid.booking)

    assert Refund.objects.get().amount == Decimal("10.00")
    assert stripe_amounts(paid) == [1000]


def test_no_refund_after_the_cutoff_when_the_policy_gives_none(people, paid, mailbox):
    policy_update(cancel_cutoff_hours=int(hours_to_start(paid.booking)) + 1, late_refund_percent=0)

    response = cancel(people["owner"], paid.booking)

    assert response.json()["status"] == "cancelled"
    assert not Refund.objects.exists()
    assert stripe_amounts(paid) == []


def test_an_admin_cancelling_a_paid_booking_refunds_it_in_full_after_the_cutoff_too(people, paid, mailbox):
    policy_update(cancel_cutoff_hours=int(hours_to_start(paid.booking)) + 1, late_refund_percent=0)

    response = cancel(people["admin"], paid.booking)

    assert response.status_code == 200
    assert Refund.objects.get().amount == Decimal("20.00")
    assert stripe_amounts(paid) == [2000]
    subjects = [m.subject for m in mailbox.messages(to="ada@example.com")]
    assert any(subject.startswith("Refund of $20.00") for subject in subjects)
    assert any("cancelled" in subject.lower() for subject in subjects)


@pytest.mark.parametrize(("kind", "status_code"), [("anonymous", 401), ("other", 404), ("member", 404)])
def test_nobody_else_cancels_a_paid_booking(people, paid, kind, status_code):
    response = cancel(people[kind], paid.booking)

    assert response.status_code == status_code
    assert Booking.objects.get(pk=paid.booking_id).status == Booking.Status.CONFIRMED
    assert not Refund.objects.exists()


def test_a_booking_that_has_started_can_no_longer_be_cancelled(people, paid):
    Booking.objects.filter(pk=paid.booking_id).update(starts_at=timezone.now() - timedelta(minutes=1))

    response = cancel(people["owner"], paid.booking)

    assert response.status_code == 409
    assert "already started" in response.json()["detail"]
    assert Booking.objects.get(pk=paid.booking_id).status == Booking.Status.CONFIRMED
    assert not Refund.objects.exists()


def cancelled_while_stripe_refuses(client, paid: Payment) -> Refund:
    """The refund of `paid`'s booking cancelled by `client` while Stripe refuses it: the payment's
    intent is one Stripe does not know (as when it was made with other keys), until it is set right."""
    intent_id = paid.payment_intent_id
    Payment.objects.filter(pk=paid.pk).update(payment_intent_id="pi_unknown_to_stripe")
    cancel(client, paid.booking)
    Payment.objects.filter(pk=paid.pk).update(payment_intent_id=intent_id)
    return Refund.objects.get()


def test_a_refund_stripe_does_not_answer_is_tried_again_by_the_worker_until_it_is_made(
    people, paid, mailbox, settings
):
    with stripe_stand_in.unreachable():
        cancel(people["owner"], paid.booking)
        first = Refund.objects.get()
        retries_made_due()
        second = Refund.objects.get()

    wait = timedelta(seconds=settings.REFUND_RETRY_SECONDS)
    assert (first.status, first.attempts) == (Refund.Status.PENDING, 1)
    assert "Connection refused" in first.error or "connect" in first.error.lower()
    assert first.created_at + wait <= first.next_attempt_at <= timezone.now() + wait
    assert (second.status, second.attempts) == (Refund.Status.PENDING, 2)
    assert second.next_attempt_at >= timezone.now() + wait * 2 - timedelta(seconds=5)
    assert "Refund of $20.00 delayed" in people["owner"].get("/dashboard/payment-history").content.decode()
    assert stripe_amounts(paid) == []

    retries_made_due()

    made = Refund.objects.get()
    assert (made.status, made.attempts) == (Refund.Status.SUCCEEDED, 3)
    assert stripe_amounts(paid) == [2000]
    assert [m.subject for m in mailbox.messages(to="ada@example.com") if m.subject.startswith("Refund")]


def test_a_refund_stripe_refuses_stays_visible_until_an_admin_retries_it(people, paid, mailbox):
    refund = cancelled_while_stripe_refuses(people["owner"], paid)

    assert (refund.status, refund.error, refund.attempts) == (Refund.Status.FAILED, "Not Found", 1)
    assert not DBTaskResult.objects.filter(status=TaskResultStatus.READY).exists()  # no try by itself
    assert stripe_amounts(paid) == []
    history = people["owner"].get("/dashboard/payment-history").content.decode()
    assert "Refund of $20.00 delayed" in history

    for kind, refused in (("anonymous", 401), ("owner", 403), ("other", 403), ("member", 403)):
        assert people[kind].post(f"/api/refunds/{refund.pk}/retry").status_code == refused
    retried = people["admin"].post(f"/api/refunds/{refund.pk}/retry")

    assert retried.status_code == 200
    assert retried.json()["status"] == "succeeded"
    assert stripe_amounts(paid) == [2000]
    assert people["admin"].post(f"/api/refunds/{refund.pk}/retry").status_code == 409


def test_a_refund_sent_again_is_not_made_twice(people, paid, stripe_writes):
    cancel(people["owner"], paid.booking)
    refund = Refund.objects.get()
    Refund.objects.filter(pk=refund.pk).update(status=Refund.Status.FAILED)  # its success unrecorded

    people["admin"].post(f"/api/refunds/{refund.pk}/retry")

    assert stripe_amounts(paid) == [2000]
    assert Refund.objects.get().status == Refund.Status.SUCCEEDED
    assert ("/v1/refunds", f"refund-{paid.pk}-{refund.pk}") in stripe_writes


def test_a_refund_is_recorded_in_the_cancellations_transaction(people, paid):
    """Until the worker runs, the refund waits as a row: nothing was asked of Stripe inside the
    cancellation."""
    response = people["owner"].delete(f"/api/bookings/{paid.booking_id}")

    assert response.status_code == 200
    assert Refund.objects.get().status == Refund.Status.PENDING
    assert stripe_amounts(paid) == []


def test_a_refund_whose_task_was_lost_is_made_by_the_scheduler_once_it_has_waited_too_long(
    people, paid, mailbox, settings
):
    sweep = "payments.services.send_stalled_refunds"
    settings.PERIODIC_TASKS = {sweep: settings.PERIODIC_TASKS[sweep]}  # the one declared, alone
    people["owner"].delete(f"/api/bookings/{paid.booking_id}")
    # The worker stopped in the middle of the refund's task: its task stays taken, never finished.
    DBTaskResult.objects.update(status=TaskResultStatus.RUNNING, worker_ids=["stopped"])
    stall = timedelta(seconds=settings.REFUND_STALL_SECONDS)

    def swept(due_ago: timedelta) -> str:
        Refund.objects.update(next_attempt_at=timezone.now() - due_ago)
        PeriodicRun.objects.update(due_at=timezone.now())
        queue_due_tasks()
        run_due_tasks()
        return Refund.objects.get().status

    assert swept(stall - timedelta(minutes=1)) == Refund.Status.PENDING
    assert swept(stall + timedelta(minutes=1)) == Refund.Status.SUCCEEDED
    assert stripe_amounts(paid) == [2000]
    assert [m.subject for m in mailbox.messages(to="ada@example.com") if m.subject.startswith("Refund")]


def test_a_refund_made_meanwhile_or_failed_is_not_queued_again(people, paid, monkeypatch):
    made = people["owner"].delete(f"/api/bookings/{paid.booking_id}")
    run_due_tasks()
    later = timezone.now() + timedelta(seconds=settings.REFUND_STALL_SECONDS + 1)
    assert made.status_code == 200

    assert refunds_send_stalled(now=later) == 0  # made: nothing is owed
    Refund.objects.update(status=Refund.Status.FAILED)
    assert refunds_send_stalled(now=later) == 0  # failed: it waits for an admin's retry


def test_a_refund_waiting_behind_a_long_queue_is_queued_again_once_per_stall_period(people, paid):
    people["owner"].delete(f"/api/bookings/{paid.booking_id}")  # its task waits, the worker busy
    stall = timedelta(seconds=settings.REFUND_STALL_SECONDS)
    later = timezone.now() + stall + timedelta(seconds=1)

    assert refunds_send_stalled(now=later) == 1
    assert refunds_send_stalled(now=later + stall - timedelta(seconds=1)) == 0
    assert refunds_send_stalled(now=later + stall + timedelta(seconds=1)) == 1
    run_due_tasks()
    assert stripe_amounts(paid) == [2000]


def test_the_cancel_buttons_say_what_each_side_gets_back(people, paid):
    policy_update(cancel_cutoff_hours=int(hours_to_start(paid.booking)) + 1, late_refund_percent=50)

    owners = people["owner"].get("/dashboard/confirmed-bookings").content.decode()
    admins = people["admin"].get("/dashboard/manage-bookings").content.decode()

    assert "50% of the $20.00 paid is refunded to the card." in owners
    assert "100% of the $20.00 paid is refunded to the card." in admins
    cancelled = people["admin"].get("/dashboard/manage-bookings?status=cancelled").content.decode()
    assert "cancel-confirmed" not in cancelled


def test_a_refund_whose_sender_stopped_after_stripe_made_it_is_found_by_the_scheduler_not_made_twice(
    people, paid, mailbox
):
    people["owner"].delete(f"/api/bookings/{paid.booking_id}")
    refund = Refund.objects.get()
    stall = timedelta(seconds=settings.REFUND_STALL_SECONDS)
    # The worker claimed the refund, Stripe made it, and the worker stopped before recording it.
    gateway.refund(
        paid.payment_intent_id,
        amount_cents=refund.amount_cents,
        refund_id=refund.pk,
        idempotency_key=f"refund-{paid.pk}-{refund.pk}",
    )
    Refund.objects.update(status=Refund.Status.SENDING, claimed_at=timezone.now() - stall / 2)

    assert refund_send(refund_id=refund.pk).status == Refund.Status.SUCCEEDED  # another caller finds it
    Refund.objects.update(status=Refund.Status.SENDING, claimed_at=timezone.now() - stall - timedelta(1))
    assert refunds_send_stalled() == 1
    run_due_tasks()

    assert Refund.objects.get().status == Refund.Status.SUCCEEDED
    assert stripe_amounts(paid) == [2000]


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_sends_of_one_refund_make_it_once(people, paid):
    """The worker and an admin's retry at the same moment, say: one claims the refund and asks
    Stripe for it; the others find it made, or being sent."""
    people["owner"].delete(f"/api/bookings/{paid.booking_id}")
    refund = Refund.objects.get()

    answers = at_once([lambda: refund_send(refund_id=refund.pk).status] * 4)

    assert Refund.Status.SUCCEEDED in answers
    assert set(answers) <= {Refund.Status.SUCCEEDED, Refund.Status.SENDING}
    assert Refund.objects.get().status == Refund.Status.SUCCEEDED
    assert stripe_amounts(paid) == [2000]


def test_an_admin_cancelling_a_paid_booking_from_django_admin_refunds_it_in_full(people, paid, mailbox):
    response = people["admin"].post(
        "/admin/bookings/booking/", {"action": "cancel", "_selected_action": [paid.booking.pk]}, follow=True
    )
    run_due_tasks()

    assert f"Booking #{paid.booking.pk} cancelled." in response.content.decode()
    refund = Refund.objects.get()
    assert (refund.amount, refund.status, refund.requested_by.email) == (
        Decimal("20.00"),
        Refund.Status.SUCCEEDED,
        "ann@example.com",
    )
    assert stripe_amounts(paid) == [2000]
    [entry] = AuditEntry.objects.all()
    assert (entry.actor_email, entry.action) == ("ann@example.com", "booking.cancelled")
    shown = people["admin"].get(f"/admin/payments/refund/{refund.pk}/change/").content.decode()
    assert refund.stripe_refund_id in shown


def test_an_admin_retries_a_failed_refund_from_django_admin(people, paid):
    refund = cancelled_while_stripe_refuses(people["owner"], paid)
    listed = people["admin"].get("/admin/payments/refund/?status__exact=failed").content.decode()
    assert "Retry the selected failed refunds" in listed

    response = people["admin"].post(
        "/admin/payments/refund/", {"action": "retry", "_selected_action": [refund.pk]}, follow=True
    )

    assert response.status_code == 200
    assert Refund.objects.get().status == Refund.Status.SUCCEEDED
    assert stripe_amounts(paid) == [2000]
    assert AuditEntry.objects.filter(action="refund.retry", target_id=str(refund.pk)).exists()
