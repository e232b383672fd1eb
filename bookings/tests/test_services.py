from datetime import datetime, time, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.selectors import booking_list, taken_slots
from bookings.services import (
    Conflict,
    SlotTaken,
    _transition,
    booking_cancel,
    booking_request,
    bookings_expire,
    policy_update,
)
from bookings.tests.factories import approved_at, make_booking, tomorrow
from courts.tests.factories import CourtFactory
from kernel.errors import Forbidden

pytestmark = pytest.mark.django_db
Status = Booking.Status


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com")


@pytest.fixture
def court():
    return CourtFactory(
        name="Centre Court", price=Decimal("15.00"), slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"]
    )


def test_a_request_is_pending_priced_by_the_server_and_holds_its_slots_in_court_order(ada, court):
    booking = booking_request(user=ada, court=court, date=tomorrow(), slots=["10:00-11:00", "08:00-09:00"])

    assert booking.status == Status.PENDING
    assert booking.price == Decimal("30.00")
    assert booking.court_name == "Centre Court"
    assert booking.slots == ["08:00-09:00", "10:00-11:00"]
    assert sorted(BookedSlot.objects.values_list("slot", flat=True)) == ["08:00-09:00", "10:00-11:00"]
    assert [(h.from_status, h.to_status, h.by) for h in booking.history.all()] == [("", "pending", ada)]


def test_a_court_without_a_name_is_booked_under_its_type(ada):
    court = CourtFactory(name="", type="Squash")

    assert (
        booking_request(user=ada, court=court, date=tomorrow(), slots=court.slots[:1]).court_name == "Squash"
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"slots": []}, "slots"),
        ({"slots": ["07:00-08:00"]}, "slots"),
        ({"slots": ["08:00-09:00", "08:00-09:00"]}, "slots"),
        ({"date": timezone.localdate() - timedelta(days=1)}, "date"),
        ({"date": timezone.localdate() + timedelta(days=31)}, "date"),
        ({"price": Decimal("1.00")}, "price"),
    ],
)
def test_a_bad_request_is_refused_per_field_and_writes_nothing(ada, court, change, field):
    request = {"user": ada, "court": court, "date": tomorrow(), "slots": ["08:00-09:00"], **change}

    with pytest.raises(ValidationError) as refused:
        booking_request(**request)

    assert field in refused.value.message_dict
    assert Booking.objects.count() == BookedSlot.objects.count() == 0


def test_today_and_the_last_day_of_the_window_can_be_booked(ada, court, monkeypatch):
    # At 07:00, before today's first slot begins.
    early = timezone.make_aware(datetime.combine(timezone.localdate(), time(7)))
    monkeypatch.setattr(timezone, "now", lambda: early)
    booking_request(user=ada, court=court, date=timezone.localdate(), slots=["08:00-09:00"])
    booking_request(
        user=ada, court=court, date=timezone.localdate() + timedelta(days=30), slots=["08:00-09:00"]
    )

    assert Booking.objects.count() == 2


def test_the_right_price_sent_by_the_client_is_accepted(ada, court):
    booking = booking_request(
        user=ada, court=court, date=tomorrow(), slots=["08:00-09:00"], price=Decimal("15")
    )

    assert booking.price == Decimal("15.00")


def test_an_archived_court_cannot_be_booked(ada, court):
    court.is_archived = True
    court.save()

    with pytest.raises(ValidationError, match="no longer open"):
        booking_request(user=ada, court=court, date=tomorrow(), slots=["08:00-09:00"])


def test_a_slot_held_by_another_booking_is_taken(ada, court):
    make_booking(court=court, slots=["09:00-10:00"])

    with pytest.raises(SlotTaken, match=r"That slot is already booked\."):
        booking_request(user=ada, court=court, date=tomorrow(), slots=["08:00-09:00", "09:00-10:00"])

    assert Booking.objects.count() == 1
    assert BookedSlot.objects.count() == 1


def test_the_same_slot_on_another_date_or_court_is_free(ada, court):
    make_booking(court=court, slots=["09:00-10:00"])

    booking_request(user=ada, court=court, date=tomorrow() + timedelta(days=1), slots=["09:00-10:00"])
    other = CourtFactory(slots=["09:00-10:00"])
    booking_request(user=ada, court=other, date=tomorrow(), slots=["09:00-10:00"])

    assert Booking.objects.count() == 3


ALL = list(Status)
ALLOWED = [(source, target) for source, targets in Booking.TRANSITIONS.items() for target in sorted(targets)]
REFUSED = [(source, target) for source in ALL for target in ALL if (source, target) not in ALLOWED]


@pytest.mark.parametrize(("source", "target"), ALLOWED)
def test_every_allowed_transition_happens_and_is_recorded(ada, court, source, target):
    booking = make_booking(court=court, status=source)

    moved = _transition(booking=booking, to=target, by=ada)

    assert moved.status == target
    last = moved.history.last()
    assert (last.from_status, last.to_status, last.by) == (source, target, ada)
    holds = BookedSlot.objects.filter(booking=booking).exists()
    assert holds == (target in Booking.HOLDING)


@pytest.mark.parametrize(("source", "target"), REFUSED)
def test_every_other_transition_is_refused_and_changes_nothing(ada, court, source, target):
    booking = make_booking(court=court, status=source)
    history = booking.history.count()

    with pytest.raises(Conflict):
        _transition(booking=booking, to=target, by=ada)

    booking.refresh_from_db()
    assert booking.status == source
    assert booking.history.count() == history


@pytest.mark.parametrize("released", [Status.REJECTED, Status.CANCELLED])
def test_a_released_slot_can_be_booked_again(ada, court, released):
    booking = make_booking(court=court, slots=["08:00-09:00"])
    _transition(booking=booking, to=released, by=ada)

    booking_request(user=ada, court=court, date=tomorrow(), slots=["08:00-09:00"])

    assert BookedSlot.objects.count() == 1


def test_someone_else_cannot_cancel_a_booking_but_an_admin_can(ada, court):
    booking = make_booking(court=court)
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)

    with pytest.raises(Forbidden):
        booking_cancel(booking=booking, by=ada)
    assert booking_cancel(booking=booking, by=admin).status == Status.CANCELLED


def test_unpaid_approved_bookings_expire_after_the_window_and_release_their_slots(ada, court):
    policy_update(payment_window_hours=24)
    overdue = make_booking(court=court, slots=["08:00-09:00"], status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(**approved_at(timezone.now() - timedelta(hours=25)))
    recent = make_booking(court=court, slots=["09:00-10:00"], status=Status.APPROVED)
    pending = make_booking(court=court, slots=["10:00-11:00"])

    assert bookings_expire() == 1

    statuses = dict(Booking.objects.values_list("pk", "status"))
    assert statuses == {overdue.pk: "expired", recent.pk: "approved", pending.pk: "pending"}
    assert not BookedSlot.objects.filter(booking=overdue).exists()
    assert overdue.history.last().by is None


def test_the_expire_bookings_command_expires_overdue_approvals(ada, court):
    overdue = make_booking(court=court, status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(**approved_at(timezone.now() - timedelta(days=2)))
    out = StringIO()

    call_command("expire_bookings", stdout=out)

    assert out.getvalue().strip() == "Expired 1 booking(s)."
    overdue.refresh_from_db()
    assert overdue.status == Status.EXPIRED


def test_listing_bookings_leaves_out_overdue_approvals_and_writes_nothing(ada, court):
    overdue = make_booking(user=ada, court=court, status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(**approved_at(timezone.now() - timedelta(days=2)))

    assert list(booking_list(viewer=ada, status=Status.APPROVED)) == []
    overdue.refresh_from_db()
    assert overdue.status == Status.APPROVED  # until expire_bookings runs


def test_the_slots_of_an_overdue_booking_are_free_to_see_and_to_book(ada, court):
    overdue = make_booking(court=court, slots=["08:00-09:00"], status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(**approved_at(timezone.now() - timedelta(days=2)))

    assert taken_slots(court_id=court.pk, date=tomorrow()) == []
    booking = booking_request(user=ada, court=court, date=tomorrow(), slots=["08:00-09:00"])

    overdue.refresh_from_db()
    assert overdue.status == Status.EXPIRED
    assert list(BookedSlot.objects.values_list("booking_id", flat=True)) == [booking.pk]


def test_a_slot_held_by_a_booking_still_waiting_is_taken(ada, court):
    make_booking(court=court, slots=["08:00-09:00"], status=Status.APPROVED)

    with pytest.raises(SlotTaken):
        booking_request(user=ada, court=court, date=tomorrow(), slots=["08:00-09:00"])
