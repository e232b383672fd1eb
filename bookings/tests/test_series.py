"""Series (docs/rules.md, Series): the same slots of a court every week (or every few weeks) until
a date. The dates that cannot be had are listed before anything is made; the rest are booked, all
or none; each is a booking of its own, cancelled one at a time or from a date on."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from bookings.blocks import block_create
from bookings.models import BookedSlot, Booking, Series
from bookings.series import DatesChanged, series_approve, series_book, series_cancel, series_plan
from bookings.services import SlotTaken, booking_cancel, booking_request, policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from kernel.days import day
from kernel.errors import Conflict, Forbidden
from memberships.tests.factories import make_membership, make_plan
from notifications.models import Notification

pytestmark = pytest.mark.django_db
Status = Booking.Status
SLOT = "19:00-20:00"


def in_days(days: int):
    return timezone.localdate() + timedelta(days=days)


@pytest.fixture(autouse=True)
def two_months_ahead():
    policy_update(advance_days_member=60, advance_days_user=60)


@pytest.fixture
def court():
    return CourtFactory(name="Centre", price=Decimal("20.00"), slots=["18:00-19:00", SLOT])


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com", role=User.Role.MEMBER, name="Ada Lovelace")


@pytest.fixture
def admin():
    return User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann Admin")


def six_weeks(court, **fields) -> dict:
    """Weekly, from in two days for six weeks."""
    return {
        "court": court,
        "slots": [SLOT],
        "first_date": in_days(2),
        "every_weeks": 1,
        "last_date": in_days(2 + 5 * 7),
        **fields,
    }


def refusals(plan) -> dict:
    return {one.date: one.refusal for one in plan if one.refusal}


# --- Planning: every date, and why some cannot be had ------------------------------------------


def test_the_plan_lists_every_date_with_its_price_and_those_that_cannot_be_had(court, ada, admin):
    bob = User.objects.create_user("bob@example.com")
    make_booking(user=bob, court=court, date=in_days(2 + 7), slots=[SLOT])
    block_create(by=admin, court=court, date=in_days(2 + 21), slots=[SLOT], reason="Club final")

    plan = series_plan(user=ada, **six_weeks(court))

    assert [one.date for one in plan] == [in_days(2 + 7 * week) for week in range(6)]
    assert {one.price for one in plan} == {Decimal("20.00")}
    assert refusals(plan) == {
        in_days(9): "Already taken at 19:00–20:00.",
        in_days(23): "The club has closed the court: Club final.",
    }
    assert not Booking.objects.filter(user=ada).exists()


def test_dates_past_the_persons_window_cannot_be_had(court, ada):
    policy_update(advance_days_member=20, advance_days_user=20)

    plan = series_plan(user=ada, **six_weeks(court))

    late = refusals(plan)
    assert sorted(late) == [in_days(23), in_days(30), in_days(37)]
    assert late[in_days(23)] == f"Bookings open 20 days ahead for you: choose {in_days(20)} or earlier."


def test_dates_past_the_persons_weekly_hours_cannot_be_had(court, ada):
    make_membership(user=ada, plan=make_plan(name="Club", hours_per_week=1, peak_hours_per_week=None))
    make_booking(user=ada, court=court, date=in_days(2 + 14), slots=["18:00-19:00"])

    plan = series_plan(user=ada, **six_weeks(court))

    assert list(refusals(plan)) == [in_days(16)]
    assert refusals(plan)[in_days(16)].startswith("Your Club plan lets you hold 1 hours of courts a week")


def test_an_admins_series_has_no_window_and_no_limits(court, admin):
    policy_update(advance_days_member=10, weekly_open_hours_limit=1, daily_open_hours_limit=1)
    make_booking(user=admin, court=court, date=in_days(2), slots=["18:00-19:00"])

    plan = series_plan(user=admin, **six_weeks(court, last_date=in_days(2 + 51 * 7)))

    assert len(plan) == 52
    assert not refusals(plan)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"first_date": in_days(-1)}, "firstDate", "Please choose today or a later date."),
        (
            {"last_date": in_days(3)},
            "lastDate",
            f"A series has two dates at least: choose {in_days(9)} or later.",
        ),
        ({"every_weeks": 5}, "everyWeeks", "From 1 (weekly) to 4 weeks apart."),
        (
            {"last_date": in_days(400)},
            "lastDate",
            f"A series runs for a year at most: choose {in_days(368)} or earlier.",
        ),
        ({"slots": ["07:00-08:00"]}, "slots", "Not a slot of this court: 07:00-08:00."),
        ({"slots": []}, "slots", "Please select at least one slot."),
    ],
    ids=["past", "one-date", "too-far-apart", "over-a-year", "not-a-slot", "no-slots"],
)
def test_a_series_that_cannot_be_is_refused_by_field(court, ada, fields, field, message):
    with pytest.raises(ValidationError) as refused:
        series_plan(user=ada, **six_weeks(court, **fields))

    assert refused.value.message_dict == {field: [message]}


# --- Booking the rest -----------------------------------------------------------------------


def test_the_person_books_the_rest_leaving_out_the_dates_refused(court, ada):
    bob = User.objects.create_user("bob@example.com")
    make_booking(user=bob, court=court, date=in_days(9), slots=[SLOT])

    series = series_book(user=ada, **six_weeks(court), skip_dates=[in_days(9)])

    occurrences = list(series.occurrences.order_by("date"))
    assert [booking.date for booking in occurrences] == [in_days(2 + 7 * week) for week in (0, 2, 3, 4, 5)]
    assert {(booking.status, booking.price, tuple(booking.slots)) for booking in occurrences} == {
        (Status.PENDING, Decimal("20.00"), (SLOT,))
    }
    assert BookedSlot.objects.filter(booking__series=series).count() == 5
    # One message for the five requests, not five.
    [told] = Notification.objects.filter(recipient=ada, event__endswith="_requested")
    assert told.event == "series_requested"
    assert "5 dates" in told.text


def test_a_date_taken_since_the_plan_books_nothing_and_lists_the_dates_again(court, ada):
    plan = series_plan(user=ada, **six_weeks(court))
    assert not refusals(plan)
    make_booking(
        user=User.objects.create_user("bob@example.com"), court=court, date=in_days(16), slots=[SLOT]
    )

    with pytest.raises(DatesChanged) as changed:
        series_book(user=ada, **six_weeks(court))

    assert list(refusals(changed.value.plan)) == [in_days(16)]
    assert str(changed.value).startswith(f"{day(in_days(16))} can no longer be had")
    assert not Series.objects.exists()
    assert not Booking.objects.filter(user=ada).exists()


def test_a_clash_at_the_last_moment_leaves_nothing_half_made(court, ada, monkeypatch):
    """The held-slot rows decide a race the plan could not see: the series is all or nothing."""
    from bookings import series as series_module

    real = series_module.booking_make
    calls = []

    def taken_on_the_third(**fields):
        calls.append(fields["date"])
        if len(calls) == 3:
            raise SlotTaken()
        return real(**fields)

    monkeypatch.setattr(series_module, "booking_make", taken_on_the_third)

    with pytest.raises(SlotTaken):
        series_book(user=ada, **six_weeks(court))

    assert not Series.objects.exists()
    assert not Booking.objects.exists()
    assert not BookedSlot.objects.exists()


def test_a_series_counts_as_one_open_booking(court, ada):
    policy_update(open_bookings_limit=2)
    series_book(user=ada, **six_weeks(court))

    make_booking(user=ada, court=court, date=in_days(3), slots=[SLOT])  # the second open booking
    with pytest.raises(Conflict, match="You already have 2 open bookings"):
        booking_request(user=ada, court=court, date=in_days(4), slots=[SLOT])
    with pytest.raises(Conflict, match="You already have 2 open bookings"):
        series_book(user=ada, **six_weeks(court, slots=["18:00-19:00"]))


def test_nothing_to_book_when_every_date_is_skipped(court, ada):
    dates = [in_days(2 + 7 * week) for week in range(6)]
    with pytest.raises(Conflict, match="None of these dates can be had"):
        series_book(user=ada, **six_weeks(court), skip_dates=dates)


def test_under_instant_booking_each_date_is_approved_with_the_payment_window(court, ada):
    policy_update(approval_required=False, payment_window_hours=24, checkout_hold_minutes=10)

    series = series_book(user=ada, **six_weeks(court))

    for booking in series.occurrences.all():
        assert booking.status == Status.APPROVED
        assert booking.payment_due_at - booking.approved_at == timedelta(hours=24)
    # Each is paid: its receipt tells.
    assert not Notification.objects.filter(recipient=ada, event__endswith="_requested").exists()


# --- Cancelling -----------------------------------------------------------------------------


@pytest.fixture
def series(court, ada):
    return series_book(user=ada, **six_weeks(court))


def test_cancelling_one_date_leaves_the_others(series, ada):
    third = series.occurrences.order_by("date")[2]

    booking_cancel(booking=third, by=ada)

    statuses = list(series.occurrences.order_by("date").values_list("status", flat=True))
    assert statuses == [Status.PENDING] * 2 + [Status.CANCELLED] + [Status.PENDING] * 3
    assert not third.held_slots.exists()


def test_cancelling_the_rest_cancels_from_that_date_on_once(series, ada):
    third = series.occurrences.order_by("date")[2]

    cancelled = series_cancel(series=series, by=ada, from_date=third.date)

    assert [booking.date for booking in cancelled] == [in_days(2 + 7 * week) for week in (2, 3, 4, 5)]
    statuses = list(series.occurrences.order_by("date").values_list("status", flat=True))
    assert statuses == [Status.PENDING] * 2 + [Status.CANCELLED] * 4
    assert series_cancel(series=series, by=ada, from_date=third.date) == []  # nothing left to cancel
    assert BookedSlot.objects.filter(booking__series=series).count() == 2


def test_only_the_organiser_or_an_admin_cancels_a_series(series, admin):
    bob = User.objects.create_user("bob@example.com")
    with pytest.raises(Forbidden):
        series_cancel(series=series, by=bob, from_date=series.first_date)

    assert len(series_cancel(series=series, by=admin, from_date=series.first_date)) == 6
    assert Notification.objects.filter(event="booking_cancelled").count() == 6  # told by the club


def test_an_admin_approves_every_waiting_date_at_once_and_the_organiser_is_told_once(series, ada, admin):
    booking_cancel(booking=series.occurrences.order_by("date").last(), by=ada)

    approved = series_approve(series=series, by=admin)

    assert len(approved) == 5
    assert list(series.occurrences.order_by("date").values_list("status", flat=True)) == [
        Status.APPROVED
    ] * 5 + [Status.CANCELLED]
    [told] = Notification.objects.filter(recipient=ada, event__startswith="series_approved")
    assert told.subject.startswith("Approved: pay for your Centre series by ")
    assert "5 dates of your series" in told.text
    assert f"/dashboard/series/{series.pk}/payment-page" in told.text
    assert not Notification.objects.filter(recipient=ada, event="booking_approved").exists()
    with pytest.raises(Conflict, match="No date of this series waits for a decision"):
        series_approve(series=series, by=admin)
