"""The e-mails of a booking's life, as they arrive at a real SMTP server: request received (and the
admins' batched notice), approved with the pay link and deadline, rejected with the reason, expired,
cancelled by the club. Each has a text and an HTML part, the club's name and address, and its link."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from bookings.blocks import CANCEL, block_create
from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.services import (
    booking_approve,
    booking_cancel,
    booking_reject,
    booking_request,
    bookings_expire,
)
from bookings.tests.factories import tomorrow
from courts.tests.factories import CourtFactory
from kernel.days import when
from notifications.models import Notification
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db

ADDRESS = "123 Victory Lane, Green Park, Springfield"


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com", name="Ada Lovelace")


@pytest.fixture
def ann():
    return User.objects.create_user("ann@example.com", role=User.Role.ADMIN)


@pytest.fixture
def court():
    return CourtFactory(
        name="Hall B", type="Badminton", price=Decimal("15.00"), slots=["08:00-09:00", "09:00-10:00"]
    )


def request(user, court, slot="08:00-09:00", date=None):
    return booking_request(user=user, court=court, date=date or tomorrow(), slots=[slot])


def test_a_bookings_slots_read_as_one_range_in_its_e_mails_and_never_break_inside_it(mailbox, ada, court):
    booking_request(user=ada, court=court, date=tomorrow(), slots=["08:00-09:00", "09:00-10:00"])

    run_due_tasks()

    [mail] = mailbox.messages(to="ada@example.com")
    assert "Slots: 08:00–10:00\n" in mail.text
    assert '<td><span style="white-space:nowrap">08:00–10:00</span></td>' in mail.html


def test_a_request_tells_its_owner_it_arrived(mailbox, ada, court):
    booking = request(ada, court)

    run_due_tasks()

    [mail] = mailbox.messages(to="ada@example.com")
    assert mail.subject == "Your request for Hall B is waiting for approval"
    assert mail.sender == "Sports Club <club@localhost>"
    for part in (mail.text, mail.html):
        assert "Hello Ada Lovelace" in part
        assert "08:00–09:00" in part
        assert "Sports Club" in part
        assert ADDRESS in part
        assert f"http://127.0.0.1:8000/dashboard/bookings/{booking.pk}" in part


def test_the_admins_hear_of_the_first_request_at_once_and_of_the_next_ones_together(mailbox, ada, ann, court):
    other_admin = User.objects.create_user("abe@example.com", role=User.Role.ADMIN)
    request(ada, court, "08:00-09:00")
    run_due_tasks()
    request(ada, court, "09:00-10:00")
    request(ada, court, "08:00-09:00", date=tomorrow() + timedelta(days=1))
    run_due_tasks()

    for admin in (ann, other_admin):
        [first] = mailbox.messages(to=admin.email)
        assert first.subject == "1 booking request waiting for approval"
        assert "http://127.0.0.1:8000/dashboard/manage-bookings-approval" in first.text
        # The next notice waits for the end of the window, then tells of all three.
        first_sent, waiting = Notification.objects.filter(recipient=admin, event="requests_waiting").order_by(
            "pk"
        )
        assert waiting.send_after == first_sent.send_after + timedelta(minutes=15)
        assert waiting.subject == "3 booking requests waiting for approval"

    # The window ends.
    Notification.objects.filter(status=Notification.Status.PENDING).update(send_after=timezone.now())
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    run_due_tasks()

    [_, second] = mailbox.messages(to="ann@example.com")
    assert second.subject == "3 booking requests waiting for approval"
    assert second.text.count("ada@example.com") == 3


def test_an_approval_gives_the_pay_link_and_the_deadline(mailbox, ada, ann, court):
    booking = booking_approve(booking=request(ada, court), by=ann)

    run_due_tasks()

    [mail] = [mail for mail in mailbox.messages(to="ada@example.com") if mail.subject.startswith("Approved")]
    deadline = when(booking.payment_deadline)
    assert mail.subject == f"Approved: pay for Hall B by {deadline}"
    for part in (mail.text, mail.html):
        assert f"http://127.0.0.1:8000/dashboard/payment-page/{booking.pk}" in part
        assert f"Pay by {deadline}" in part


def test_a_rejection_gives_the_admins_reason(mailbox, ada, ann, court):
    booking_reject(
        booking=request(ada, court), by=ann, reason="The hall is closed for a tournament & a fair."
    )

    run_due_tasks()

    [mail] = [mail for mail in mailbox.messages(to="ada@example.com") if "not approved" in mail.subject]
    assert "The club's reason: The hall is closed for a tournament & a fair." in mail.text
    assert "The hall is closed for a tournament &amp; a fair." in mail.html


def test_an_unpaid_approval_that_expires_is_told(mailbox, ada, ann, court, settings):
    booking = booking_approve(booking=request(ada, court), by=ann)

    bookings_expire(now=timezone.now() + timedelta(hours=policy_get().payment_window_hours, minutes=1))
    run_due_tasks()

    [mail] = [mail for mail in mailbox.messages(to="ada@example.com") if "expired" in mail.subject]
    assert "was not paid in time" in mail.text
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.EXPIRED


def test_a_cancellation_by_the_club_is_told_and_ones_own_is_not(mailbox, ada, ann, court):
    booking_cancel(booking=request(ada, court, "08:00-09:00"), by=ann)
    booking_cancel(booking=request(ada, court, "09:00-10:00"), by=ada)

    run_due_tasks()

    cancelled = [mail for mail in mailbox.messages(to="ada@example.com") if "cancelled" in mail.subject]
    assert [mail.subject for mail in cancelled] == ["Your booking of Hall B was cancelled by the club"]


def cancellation_mail(mailbox):
    [mail] = [mail for mail in mailbox.messages(to="ada@example.com") if "cancelled" in mail.subject]
    return mail


def test_a_cancellation_by_the_club_gives_its_reason_as_a_sentence_and_frees_the_slots(
    mailbox, ada, ann, court
):
    booking_cancel(booking=request(ada, court), by=ann, reason="The referee is ill")

    run_due_tasks()

    mail = cancellation_mail(mailbox)
    for part in (mail.text, mail.html):
        assert "The club has cancelled your booking: The referee is ill. Its slots are free again." in part


def test_a_reason_that_ends_a_sentence_already_gets_no_second_stop(mailbox, ada, ann, court):
    booking_cancel(booking=request(ada, court), by=ann, reason="The referee is ill!")

    run_due_tasks()

    assert (
        "The club has cancelled your booking: The referee is ill! Its slots"
        in cancellation_mail(mailbox).text
    )


def test_a_cancellation_by_a_block_says_the_slots_are_blocked_not_free(mailbox, ada, ann, court):
    booking = request(ada, court)

    block_create(
        by=ann,
        court=court,
        date=booking.date,
        slots=["08:00-09:00"],
        reason="Floor repairs",
        conflicts=CANCEL,
    )
    run_due_tasks()

    mail = cancellation_mail(mailbox)
    for part in (mail.text, mail.html):
        assert "The club has cancelled your booking: The court is closed: Floor repairs." in part
        assert "Its slots are blocked: nobody can book them." in part
        assert "free again" not in part


def test_a_message_whose_change_rolls_back_is_never_sent(mailbox, ada, court):
    def request_then_fail():
        with transaction.atomic():
            request(ada, court)
            raise RuntimeError("the request fails after the message was recorded")

    with pytest.raises(RuntimeError):
        request_then_fail()

    assert run_due_tasks() == 0
    assert mailbox.messages() == []
    assert not Notification.objects.exists()


def test_a_request_made_while_the_admins_notice_is_being_sent_gets_a_notice_of_its_own(
    mailbox, ada, ann, court
):
    request(ada, court, "08:00-09:00")
    # A worker has taken the waiting notice (it is being sent) when the next request comes.
    Notification.objects.filter(recipient=ann).update(status=Notification.Status.SENDING)

    request(ada, court, "09:00-10:00")

    first, second = Notification.objects.filter(recipient=ann).order_by("pk")
    assert first.subject == "1 booking request waiting for approval"
    assert second.subject == "2 booking requests waiting for approval"
    assert second.send_after == first.send_after + timedelta(minutes=15)
