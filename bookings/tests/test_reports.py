"""The bookings' figures in the reports, against hand-counted fixtures: occupancy by court, weekday
and hour (blocks and overdue bookings aside, courts counted from the day they were added), and the
funnel of the bookings made in a period."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.blocks import block_create
from bookings.models import Booking
from bookings.reports import Use, booking_funnel, occupancy
from bookings.services import booking_approve, booking_cancel, booking_confirm, booking_reject
from bookings.tests.factories import approved_at, make_booking, tomorrow
from courts.models import Court
from courts.tests.factories import CourtFactory
from kernel.days import day_start

pytestmark = pytest.mark.django_db
Status = Booking.Status
SLOTS = ["08:00-09:00", "09:00-10:00", "18:00-19:00"]
MONDAY, SATURDAY = 1, 6


@pytest.fixture
def fortnight():
    """Two full weeks from tomorrow (each weekday twice); Centre (three slots) open all of it, Side
    (one slot at 08:00) added on its eighth day, Old archived."""
    first = tomorrow()
    last = first + timedelta(days=13)
    centre = CourtFactory(name="Centre", slots=SLOTS)
    side = CourtFactory(name="Side", slots=SLOTS[:1])
    old = CourtFactory(name="Old", slots=SLOTS, is_archived=True)
    long_ago = timezone.now() - timedelta(days=400)
    Court.objects.filter(pk__in=[centre.pk, old.pk]).update(created_at=long_ago)
    Court.objects.filter(pk=side.pk).update(created_at=day_start(first + timedelta(days=7)))
    first_monday = next(
        first + timedelta(days=d) for d in range(7) if (first + timedelta(days=d)).isoweekday() == 1
    )
    return first, last, centre, side, first_monday


def test_occupancy_counts_held_slots_against_the_bookable_ones(fortnight):
    first, last, centre, side, monday = fortnight
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    make_booking(court=centre, date=monday, slots=SLOTS[:1])  # pending: holds its slot
    make_booking(court=centre, date=monday + timedelta(days=1), slots=SLOTS[:2], status=Status.CONFIRMED)
    # An approval unpaid past its deadline holds nothing, whatever its row says yet.
    overdue = make_booking(
        court=centre, date=monday + timedelta(days=2), slots=SLOTS[2:], status=Status.APPROVED
    )
    Booking.objects.filter(pk=overdue.pk).update(**approved_at(timezone.now() - timedelta(days=3)))
    block_create(by=admin, court=centre, date=monday + timedelta(days=3), slots=SLOTS[1:2], reason="Repairs")
    make_booking(court=side, date=last, slots=SLOTS[:1], status=Status.CONFIRMED)

    used = occupancy(date_from=first, date_to=last)

    assert [court.name for court in used.courts] == ["Centre", "Side"]
    assert used.hours == [8, 9, 18]
    assert used.by_court_hour[centre.pk, 8] == Use(offered=14, booked=2)
    assert used.by_court_hour[centre.pk, 9] == Use(offered=14, booked=1, blocked=1)
    assert used.by_court_hour[centre.pk, 18] == Use(offered=14)
    # Side counts from the day it was added: seven of the fourteen days.
    assert used.by_court_hour[side.pk, 8] == Use(offered=7, booked=1)
    assert (side.pk, 9) not in used.by_court_hour
    # Mondays at 08:00: two of Centre's, one of Side's; one booked.
    assert used.by_weekday_hour[MONDAY, 8] == Use(offered=3, booked=1)
    assert used.by_weekday_hour[MONDAY, 8].percent == 33
    assert used.by_court[centre.pk] == Use(offered=42, booked=3, blocked=1)
    assert used.by_court[centre.pk].percent == 7  # 3 of the 41 bookable
    assert Use(offered=2, blocked=2).percent is None


def test_occupancy_on_some_weekdays_counts_those_days_only(fortnight):
    first, last, centre, _, monday = fortnight
    make_booking(court=centre, date=monday, slots=SLOTS[:1], status=Status.CONFIRMED)
    saturday = monday + timedelta(days=5)
    make_booking(court=centre, date=saturday, slots=SLOTS[:1], status=Status.CONFIRMED)

    weekends = occupancy(date_from=first, date_to=last, weekdays=(6, 7))

    assert {weekday for weekday, _ in weekends.by_weekday_hour} == {6, 7}
    assert weekends.by_weekday_hour[SATURDAY, 8].booked == 1
    assert weekends.by_court_hour[centre.pk, 8] == Use(offered=4, booked=1)


def test_occupancy_costs_the_same_queries_however_many_bookings(fortnight):
    first, last, centre, _, monday = fortnight

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            occupancy(date_from=first, date_to=last)
        return len(captured)

    few = queries()
    for day in range(4):
        make_booking(court=centre, date=monday + timedelta(days=day), slots=SLOTS, status=Status.CONFIRMED)
    assert queries() == few == 5


def test_the_funnel_follows_the_bookings_made_in_the_period():
    today = timezone.localdate()
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    court = CourtFactory(slots=[f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 16)])

    def made(slot: int, status=Status.PENDING) -> Booking:
        return make_booking(court=court, slots=court.slots[slot : slot + 1], status=status)

    made(0)  # waiting for a decision
    made(1, Status.APPROVED)  # waiting for the payment
    booking_confirm(booking=made(2, Status.APPROVED), by=None)  # paid
    paid_then_cancelled = booking_confirm(booking=made(3, Status.APPROVED), by=None)
    booking_cancel(booking=paid_then_cancelled, by=admin)
    booking_reject(booking=made(4), by=admin)
    booking_cancel(booking=(unpaid := made(5)), by=unpaid.user)
    late = made(6, Status.APPROVED)  # overdue: it counts as expired
    Booking.objects.filter(pk=late.pk).update(**approved_at(timezone.now() - timedelta(days=3)))
    yesterdays = made(7)
    Booking.objects.filter(pk=yesterdays.pk).update(created_at=timezone.now() - timedelta(days=1))
    booking_approve(booking=yesterdays, by=admin)

    funnel = booking_funnel(date_from=today, date_to=today)

    assert (funnel.requested, funnel.approved, funnel.paid) == (7, 4, 2)
    assert (funnel.confirmed, funnel.rejected, funnel.cancelled, funnel.expired, funnel.waiting) == (
        1,
        1,
        2,
        1,
        2,
    )
    assert booking_funnel(date_from=today - timedelta(days=1), date_to=today).requested == 8
