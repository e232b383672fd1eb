"""The receipt e-mail: sent once a payment confirms its booking, whichever of the browser and
Stripe's webhook comes first and however often the webhook is replayed, with the booking attached
as a calendar event."""

from decimal import Decimal

import pytest
from icalendar import Calendar

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from payments.models import Coupon
from payments.services import payment_confirm, payment_intent_create
from payments.tests.helpers import post_event, save, signed, succeeded_event
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid(localstripe):
    ada = User.objects.create_user("ada@example.com", name="Ada Lovelace")
    court = CourtFactory(name="Hall B", price=Decimal("30.00"), slots=["08:00-09:00"])
    booking = make_booking(user=ada, court=court, status=Booking.Status.APPROVED)
    Coupon.objects.create(code="SPRING20", discount=20)
    secret = payment_intent_create(user=ada, booking=booking, coupon_code="SPRING20")
    localstripe.pay(secret)
    return booking, secret.split("_secret_")[0]


def receipts(mailbox):
    return [mail for mail in mailbox.messages(to="ada@example.com") if mail.subject.startswith("Receipt")]


def test_the_receipt_arrives_once_with_the_amount_the_coupon_and_the_booking_as_an_event(mailbox, paid):
    booking, intent_id = paid
    payload = succeeded_event(intent_id)

    assert post_event(payload, signed(payload)).status_code == 200
    assert post_event(payload, signed(payload)).status_code == 200  # Stripe delivers an event again
    payment_confirm(payment_intent_id=intent_id)  # and the browser's save-payment comes last
    run_due_tasks()

    [mail] = receipts(mailbox)
    payment = booking.payments.get()
    for part in (mail.text, mail.html):
        assert "Hall B" in part
        assert "08:00–09:00" in part
        assert "SPRING20 (20% off)" in part
        assert "$24.00 USD" in part
        assert "ending in 4242" in part
        assert f"http://127.0.0.1:8000/dashboard/payments/{payment.pk}/receipt" in part
    [attachment] = mail.attachments
    assert (attachment.filename, attachment.content_type) == (f"booking-{booking.pk}.ics", "text/calendar")
    [event] = Calendar.from_ical(attachment.content).walk("VEVENT")
    assert str(event["SUMMARY"]).startswith("Hall B")
    assert event["DTSTART"].dt.date() == booking.date


@pytest.fixture
def paid_for_a_court_named_with_a_line_break(localstripe, people):
    """A court named before names refused control characters: the row is written as it was then."""
    ada = User.objects.get(email="ada@example.com")
    court = CourtFactory(name="Atk CRLF\r\nBcc: victim@example.com", price=Decimal("30.00"))
    booking = make_booking(user=ada, court=court, status=Booking.Status.APPROVED)
    secret = payment_intent_create(user=ada, booking=booking)
    localstripe.pay(secret)
    return booking, secret


def test_save_payment_confirms_a_booking_whose_court_name_breaks_lines(
    people, mailbox, paid_for_a_court_named_with_a_line_break
):
    booking, secret = paid_for_a_court_named_with_a_line_break

    response = save(people["owner"], secret)
    run_due_tasks()

    assert response.status_code == 200
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED
    assert booking.payments.get().status == "succeeded"
    [mail] = receipts(mailbox)
    assert mail.subject.startswith("Receipt: Atk CRLF Bcc: victim@example.com on ")
    assert mailbox.messages(to="victim@example.com") == []


def test_the_webhook_confirms_a_booking_whose_court_name_breaks_lines(
    mailbox, paid_for_a_court_named_with_a_line_break
):
    booking, secret = paid_for_a_court_named_with_a_line_break
    payload = succeeded_event(secret.split("_secret_")[0])

    assert post_event(payload, signed(payload)).status_code == 200
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED
