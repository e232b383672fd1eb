"""Instant booking: when the policy needs no approval, a booking is approved as it is made and its
slots are held for the checkout hold while its owner pays; unpaid by then, they are free again."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.notices import remind
from bookings.selectors import taken_slots
from bookings.services import SlotTaken, booking_request, policy_update
from bookings.tests.factories import tomorrow
from courts.tests.factories import CourtFactory
from payments.tests.helpers import intent, save
from testing.stripe_stand_in import pay
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def instant():
    policy_update(approval_required=False, checkout_hold_minutes=10)


@pytest.fixture
def court():
    return CourtFactory()


def request(client, court, **fields):
    body = {"courtId": court.pk, "date": tomorrow().isoformat(), "slots": court.slots[:1], **fields}
    return client.post("/api/bookings", body, content_type="application/json")


def test_an_instant_booking_is_approved_at_once_and_held_for_the_checkout_hold(
    people, instant, court, mailbox
):
    before = timezone.now()

    response = request(people["owner"], court)
    run_due_tasks()

    assert response.status_code == 201
    booking = Booking.objects.get()
    assert response.json()["status"] == "approved"
    assert response.json()["payUrl"] == f"/dashboard/payment-page/{booking.pk}"
    assert before + timedelta(minutes=10) <= booking.payment_due_at <= timezone.now() + timedelta(minutes=10)
    assert list(booking.history.values_list("from_status", "to_status")) == [("", "approved")]
    # Nothing waits for an admin, and the person is paying there and then: no e-mail.
    assert mailbox.messages() == []


def test_a_request_under_approval_has_no_pay_link(people, court):
    response = request(people["owner"], court)

    assert response.json()["status"] == "pending"
    assert response.json()["payUrl"] is None
    assert response.json()["paymentDueAt"] is None


def test_the_hold_ends_at_the_checkout_hold_and_the_slots_are_free_again(instant, court):
    ada = User.objects.create_user("ada@example.com")
    bob = User.objects.create_user("bob@example.com")
    held = booking_request(user=ada, court=court, date=tomorrow(), slots=court.slots[:1])

    with pytest.raises(SlotTaken):
        booking_request(user=bob, court=court, date=tomorrow(), slots=court.slots[:1])
    Booking.objects.filter(pk=held.pk).update(payment_due_at=timezone.now() + timedelta(seconds=1))
    assert taken_slots(court_id=court.pk, date=tomorrow()) == court.slots[:1]
    Booking.objects.filter(pk=held.pk).update(payment_due_at=timezone.now() - timedelta(microseconds=1))
    assert taken_slots(court_id=court.pk, date=tomorrow()) == []

    taken = booking_request(user=bob, court=court, date=tomorrow(), slots=court.slots[:1])

    assert taken.status == Booking.Status.APPROVED
    assert Booking.objects.get(pk=held.pk).status == Booking.Status.EXPIRED


def test_an_instant_booking_gets_no_payment_reminder(instant, court, mailbox):
    booking_request(
        user=User.objects.create_user("ada@example.com"), court=court, date=tomorrow(), slots=court.slots[:1]
    )

    assert remind() == 0


def test_an_instant_booking_is_paid_in_the_same_visit(people, instant, court, localstripe):
    booking_id = request(people["owner"], court).json()["id"]
    booking = Booking.objects.get(pk=booking_id)

    secret = intent(people["owner"], booking).json()["clientSecret"]
    pay(secret)

    assert save(people["owner"], secret).status_code == 200
    assert Booking.objects.get(pk=booking_id).status == Booking.Status.CONFIRMED
