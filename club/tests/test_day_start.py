"""The admin's dashboard starts the day: requests waiting, today's bookings and occupancy, the money
taken this month against last month net of refunds, and the refunds waiting for a retry."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.blocks import block_create
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.models import Court
from courts.tests.factories import CourtFactory
from payments.models import Refund
from payments.tests.helpers import paid, refunded

pytestmark = pytest.mark.django_db
SLOTS = ["20:00-21:00", "21:00-22:00", "22:00-23:00", "23:00-23:59"]


def figures(html: str) -> dict[str, str]:
    block = re.search(r'data-testid="day-start".*?</dl>', html, re.S).group(0)
    return {
        label.strip(): " ".join(re.sub(r"<[^>]+>", " ", rest).split())
        for label, rest in re.findall(r"<dt[^>]*>([^<]+)</dt>(.*?)</div>", block, re.S)
    }


@pytest.fixture
def day(people, monkeypatch):
    """The middle of a month (18 November 2026, before the evening), and two courts of four evening
    slots each."""
    fixed = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: fixed)
    ada = User.objects.get(email="ada@example.com")
    centre = CourtFactory(name="Centre", slots=SLOTS)
    CourtFactory(name="Side", slots=SLOTS)
    return ada, centre, timezone.localdate()


def test_the_day_start_counts_requests_bookings_money_and_refunds_to_retry(people, day):
    ada, centre, today = day
    now = timezone.now()
    tomorrow = today + timedelta(days=1)
    waiting = make_booking(user=ada, court=centre, date=tomorrow, slots=SLOTS[:1])
    two_slots = make_booking(
        user=ada, court=centre, date=today, slots=SLOTS[1:3], status=Booking.Status.CONFIRMED
    )
    one_slot = make_booking(court=centre, date=today, slots=SLOTS[3:], status=Booking.Status.APPROVED)
    # This month: $30 and $20 paid, $5 refunded; last month: $40 paid by this day, $7 after it.
    paid(two_slots, "30.00", now - timedelta(minutes=5))
    refunded(paid(one_slot, "20.00", now - timedelta(minutes=4)), "5.00", now - timedelta(minutes=3))
    paid(waiting, "40.00", now - timedelta(days=31, minutes=1))
    later = make_booking(court=centre, date=tomorrow, slots=SLOTS[1:2], status=Booking.Status.CONFIRMED)
    refunded(paid(later, "7.00", now - timedelta(days=20)), "7.00", None, status="failed")

    shown = figures(people["admin"].get("/dashboard").content.decode())

    assert shown["Requests waiting for a decision"] == "1 Booking Approvals"
    # 3 of the 8 slots the open courts offer today are held, by 2 bookings.
    assert shown["Today's bookings"].startswith("2 38% of the slots taken (3 of 8)")
    assert shown["Taken this month, net of refunds"].startswith("$45.00 Last month by this day: $40.00")
    assert "(the whole month: $47.00)" in shown["Taken this month, net of refunds"]
    assert shown["Refunds waiting for a retry"] == "1 Retry them in Django admin"
    assert waiting.status == Booking.Status.PENDING


def test_slots_a_block_closes_today_are_not_counted_as_bookable(people, day):
    _, centre, today = day
    side = Court.objects.get(name="Side")
    block_create(
        by=User.objects.get(email="ann@example.com"),
        court=side,
        date=today,
        slots=SLOTS[:1],
        reason="Repairs",
    )
    make_booking(court=centre, date=today, slots=SLOTS[:1], status=Booking.Status.CONFIRMED)

    shown = figures(people["admin"].get("/dashboard").content.decode())

    # 1 of the 8 slots booked, 1 closed: 1 of the 7 that could be booked.
    assert shown["Today's bookings"].startswith("1 14% of the slots taken (1 of 7)")


def test_only_admins_see_the_day_start(people, day):
    for kind in ("owner", "member"):
        assert 'data-testid="day-start"' not in people[kind].get("/dashboard").content.decode()
    assert 'data-testid="day-start"' in people["admin"].get("/dashboard").content.decode()


def test_the_day_start_costs_the_same_queries_however_many_bookings(people, day):
    _, centre, today = day

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert people["admin"].get("/dashboard").status_code == 200
        return len(captured)

    make_booking(court=centre, date=today, slots=SLOTS[:1], status=Booking.Status.CONFIRMED)
    few = queries()
    for slot in SLOTS[1:]:
        make_booking(court=centre, date=today, slots=[slot], status=Booking.Status.CONFIRMED)

    assert queries() == few


def test_the_day_start_shows_refunds_stripe_has_not_answered_for_over_an_hour(people, day, settings):
    ada, centre, today = day
    booking = make_booking(
        user=ada, court=centre, date=today, slots=SLOTS[:1], status=Booking.Status.CONFIRMED
    )
    payment = paid(booking, "20.00", timezone.now() - timedelta(hours=2))
    refunded(payment, "5.00", None, status="pending")
    refunded(payment, "5.00", None, status="pending")
    Refund.objects.filter(pk=Refund.objects.first().pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.REFUND_LATE_SECONDS + 60)
    )

    shown = figures(people["admin"].get("/dashboard").content.decode())

    assert shown["Refunds waiting for a retry"] == (
        "0 1 more waiting over an hour for Stripe : tried again by themselves"
    )
