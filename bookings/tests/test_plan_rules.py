"""A membership plan's benefits on the booking service (docs/rules.md, Member prices and limits):
its member price, and each limit it sets in place of the policy's (booking window, open bookings,
hours a day) or beside them (hours a week, peak hours a week), at each boundary, for a holder and
for a person without a plan; and the members-only hours."""

import threading
from collections import Counter
from datetime import date as Date
from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.rules import rules_for
from bookings.services import Conflict, booking_cancel, booking_price, booking_request, policy_update
from bookings.tests.factories import lift_hour_limits, tomorrow
from bookings.waitlist import waitlist_join
from courts.models import Court, PriceBand
from courts.tests.factories import CourtFactory
from kernel.days import day
from memberships.models import Membership
from memberships.tests.factories import make_membership, make_plan

pytestmark = pytest.mark.django_db
Status = Booking.Status

HOURS = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 22)]  # 08:00 to 22:00
MORNING = HOURS[:4]  # 08:00-12:00, at the court's own price
EVENING = HOURS[9:13]  # 17:00-21:00: peak on weekdays

# A plan that sets no limit and gives no member price: each test sets what it is about.
NOTHING = {
    "name": "Club",
    "member_price_kind": "none",
    "member_price_value": None,
    "booking_window_days": None,
    "open_bookings_limit": None,
    "hours_per_day": None,
    "hours_per_week": None,
    "peak_hours_per_week": None,
    "members_only_hours": False,
}


@pytest.fixture
def court() -> Court:
    """$20 a slot; $30 on weekday evenings from 17:00 to 21:00 (a peak band)."""
    court = CourtFactory(name="Centre Court", price=Decimal("20.00"), slots=HOURS)
    PriceBand.objects.create(
        court=court, weekdays=[0, 1, 2, 3, 4], starts=time(17), ends=time(21), price=Decimal("30.00")
    )
    return Court.objects.get(pk=court.pk)


@pytest.fixture
def ada() -> User:
    return User.objects.create_user("ada@example.com")


@pytest.fixture
def bob() -> User:
    """Holds no plan."""
    return User.objects.create_user("bob@example.com")


def holder(user: User, **plan: object) -> User:
    """`user`, holding a plan of NOTHING with `plan`'s benefits."""
    make_membership(user=user, plan=make_plan(**{**NOTHING, **plan}))
    return User.objects.get(pk=user.pk)


def monday_ahead() -> Date:
    """The first Monday after tomorrow: a whole week of days open to booking."""
    day = tomorrow() + timedelta(days=1)
    return day + timedelta(days=-day.weekday() % 7)


def book(user: User, court: Court, date: Date, slots: list[str], **fields: object) -> Booking:
    return booking_request(user=user, court=court, date=date, slots=slots, **fields)


# --- Member prices -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "value", "morning", "evening"),
    [
        ("none", None, "20.00", "30.00"),
        ("fixed", "12.50", "12.50", "12.50"),  # instead of the court's price and the band's alike
        ("percent", "25", "15.00", "22.50"),  # off the court's price and the band's
    ],
)
def test_a_holder_pays_the_member_price_of_their_plan_for_each_slot(
    ada, court, kind, value, morning, evening
):
    ada = holder(ada, member_price_kind=kind, member_price_value=value and Decimal(value))
    monday = monday_ahead()
    price_for = rules_for(ada).price_for

    assert booking_price(court=court, date=monday, slots=MORNING[:1], price_for=price_for) == Decimal(morning)
    assert booking_price(court=court, date=monday, slots=EVENING[:1], price_for=price_for) == Decimal(evening)
    booking = book(ada, court, monday, [MORNING[0], EVENING[0]])
    assert booking.price == Decimal(morning) + Decimal(evening)


def test_a_percent_off_is_rounded_to_the_cent_slot_by_slot_halves_up(ada):
    court = CourtFactory(price=Decimal("26.50"), slots=HOURS)
    ada = holder(ada, member_price_kind="percent", member_price_value=Decimal("15"))

    # 85% of 26.50 is 22.525: 22.53 a slot, 45.06 for two (not 45.05 from 53.00 less 15%).
    assert book(ada, court, tomorrow(), HOURS[:2]).price == Decimal("45.06")


def test_without_a_plan_in_force_a_person_pays_the_courts_prices(ada, bob, court):
    ada = holder(ada, member_price_kind="fixed", member_price_value=Decimal("5.00"))
    Membership.objects.filter(user=ada).update(status=Membership.Status.EXPIRED)

    assert book(ada, court, monday_ahead(), [MORNING[0], EVENING[0]]).price == Decimal("50.00")
    assert book(bob, court, monday_ahead(), [MORNING[1], EVENING[1]]).price == Decimal("50.00")


def test_a_holder_who_sends_the_courts_price_is_refused_with_the_member_price(ada, court):
    ada = holder(ada, member_price_kind="percent", member_price_value=Decimal("25"))

    with pytest.raises(ValidationError) as refused:
        book(ada, court, monday_ahead(), EVENING[:2], price=Decimal("60.00"))

    assert refused.value.message_dict == {"price": ["The price is 45.00, not 60.00."]}
    assert book(ada, court, monday_ahead(), EVENING[:2], price=Decimal("45.00")).price == Decimal("45.00")


def test_a_person_without_a_plan_cannot_send_a_member_price(bob, ada, court):
    holder(ada, member_price_kind="percent", member_price_value=Decimal("25"))

    with pytest.raises(ValidationError) as refused:
        book(bob, court, monday_ahead(), EVENING[:2], price=Decimal("45.00"))

    assert refused.value.message_dict == {"price": ["The price is 60.00, not 45.00."]}


def test_slots_that_a_member_price_rounds_to_nothing_are_refused_with_the_reason(ada, court):
    ada = holder(ada, member_price_kind="percent", member_price_value=Decimal("99"))
    Court.objects.filter(pk=court.pk).update(price=Decimal("0.01"))  # 99% off: $0.0001
    court.refresh_from_db()

    with pytest.raises(ValidationError) as refused:
        book(ada, court, monday_ahead(), MORNING[:1])

    assert refused.value.message_dict["slots"] == [
        "These slots cost nothing with your Club plan, and a booking is paid for: ask the club to keep "
        "them for you."
    ]


# --- The booking window --------------------------------------------------------------------------


@pytest.mark.parametrize("plan_days", [5, 40])  # shorter and longer than the policy's
def test_a_plans_booking_window_replaces_the_policys_to_the_day(ada, bob, court, plan_days):
    policy_update(advance_days_user=10, advance_days_member=20)
    ada = holder(ada, booking_window_days=plan_days)
    today = timezone.localdate()

    assert book(ada, court, today + timedelta(days=plan_days), MORNING[:1])
    with pytest.raises(ValidationError) as refused:
        book(ada, court, today + timedelta(days=plan_days + 1), MORNING[:1])
    last = today + timedelta(days=plan_days)
    assert refused.value.message_dict == {
        "date": [f"Your Club plan lets you book {plan_days} days ahead: choose {last} or earlier."]
    }
    # Without a plan, the policy's window for the role.
    assert book(bob, court, today + timedelta(days=10), MORNING[:1])
    with pytest.raises(ValidationError, match="Bookings open 10 days ahead for you"):
        book(bob, court, today + timedelta(days=11), MORNING[:1])


def test_a_plan_that_leaves_the_window_to_the_club_has_the_members_window(ada, court):
    policy_update(advance_days_user=10, advance_days_member=20)
    ada = holder(ada)  # a member now: the policy's members' window

    assert book(ada, court, timezone.localdate() + timedelta(days=20), MORNING[:1])
    with pytest.raises(ValidationError, match="Bookings open 20 days ahead for you"):
        book(ada, court, timezone.localdate() + timedelta(days=21), MORNING[:1])


# --- Open bookings at once -----------------------------------------------------------------------


def test_a_plans_open_bookings_replace_the_policys(ada, bob, court):
    lift_hour_limits()
    policy_update(open_bookings_limit=2)
    ada = holder(ada, open_bookings_limit=3)
    monday = monday_ahead()

    for slot in MORNING[:3]:  # one under, then at the limit
        book(ada, court, monday, [slot])
    with pytest.raises(Conflict) as refused:
        book(ada, court, monday, [MORNING[3]])

    assert str(refused.value) == (
        "Your Club plan lets you hold 3 open bookings at once (waiting for a decision or for payment), "
        "and you have 3. Pay for or cancel one of them before you request another."
    )
    for slot in HOURS[4:6]:
        book(bob, court, monday, [slot])
    with pytest.raises(Conflict, match="You already have 2 open bookings"):
        book(bob, court, monday, [HOURS[6]])


# --- Hours a day ---------------------------------------------------------------------------------


def test_a_plans_hours_a_day_replace_the_policys(ada, bob, court):
    lift_hour_limits()
    policy_update(daily_hours_limit=1)
    ada = holder(ada, hours_per_day=3)
    monday = monday_ahead()

    book(ada, court, monday, MORNING[:2])  # 2 of 3
    book(ada, court, monday, MORNING[2:3])  # 3 of 3: at the limit
    with pytest.raises(Conflict) as refused:
        book(ada, court, monday, MORNING[3:4])

    assert str(refused.value) == (
        f"Your Club plan lets you hold 3 hours of courts a day, and you hold 3 on {day(monday)} already: "
        "choose fewer slots or another day."
    )
    assert book(ada, court, monday + timedelta(days=1), MORNING[:3])  # another day
    assert book(bob, court, monday, HOURS[5:6])
    with pytest.raises(Conflict, match="You may hold at most 1 hours of courts a day"):
        book(bob, court, monday, HOURS[6:7])


def test_a_request_alone_past_a_plans_hours_a_day_is_refused_as_such(ada, court):
    lift_hour_limits()
    ada = holder(ada, hours_per_day=2)

    with pytest.raises(Conflict) as refused:
        book(ada, court, monday_ahead(), MORNING[:3])

    assert str(refused.value) == (
        "Your Club plan lets you hold 2 hours of courts a day, and these slots make 3: choose fewer slots."
    )


# --- Hours a week --------------------------------------------------------------------------------


def test_a_plans_hours_a_week_count_every_booking_held_from_monday_to_sunday(ada, court):
    lift_hour_limits()
    ada = holder(ada, hours_per_week=4)
    monday = monday_ahead()
    sunday = monday + timedelta(days=6)
    paid = book(ada, court, monday, MORNING[:2])
    Booking.objects.filter(pk=paid.pk).update(status=Status.CONFIRMED)  # paid hours count too
    book(ada, court, monday + timedelta(days=2), MORNING[:1])  # 3 of 4

    assert book(ada, court, sunday, MORNING[:1])  # 4 of 4: at the limit
    with pytest.raises(Conflict) as refused:
        book(ada, court, sunday, MORNING[1:2])

    assert str(refused.value) == (
        f"Your Club plan lets you hold 4 hours of courts a week, and you hold 4 in the week of "
        f"{day(monday)} already: choose fewer slots or another week."
    )
    assert book(ada, court, sunday + timedelta(days=1), MORNING[:4])  # the next week is another


def test_hours_let_go_no_longer_count_toward_a_plans_week(ada, court):
    lift_hour_limits()
    ada = holder(ada, hours_per_week=2)
    monday = monday_ahead()
    booking_cancel(booking=book(ada, court, monday, MORNING[:2]), by=ada)

    assert book(ada, court, monday + timedelta(days=1), MORNING[:2])


def test_without_a_plan_there_is_no_limit_on_hours_a_week(bob, court):
    lift_hour_limits()
    policy_update(open_bookings_limit=10)
    monday = monday_ahead()

    for offset in range(5):
        assert book(bob, court, monday + timedelta(days=offset), MORNING)  # 20 hours


# --- Peak hours a week ---------------------------------------------------------------------------


def test_a_plans_peak_hours_a_week_count_the_slots_of_peak_bands_only(ada, court):
    lift_hour_limits()
    ada = holder(ada, peak_hours_per_week=2)
    monday = monday_ahead()
    book(ada, court, monday, EVENING[:1])  # 1 of 2
    book(ada, court, monday + timedelta(days=5), EVENING)  # Saturday: no band, no peak

    assert book(ada, court, monday + timedelta(days=1), EVENING[:1])  # 2 of 2: at the limit
    with pytest.raises(Conflict) as refused:
        book(ada, court, monday + timedelta(days=2), [MORNING[0], EVENING[0]])

    assert str(refused.value) == (
        f"Your Club plan lets you hold 2 hours of courts at peak times a week, and you hold 2 in the "
        f"week of {day(monday)} already: choose fewer slots, or slots outside peak times."
    )
    # Slots outside peak times are still open to them, past the peak hours.
    assert book(ada, court, monday + timedelta(days=2), MORNING)


def test_peak_hours_count_across_courts(ada, court):
    lift_hour_limits()
    ada = holder(ada, peak_hours_per_week=1)
    other = CourtFactory(name="Hall B", price=Decimal("10.00"), slots=HOURS)
    PriceBand.objects.create(court=other, weekdays=[0], starts=time(8), ends=time(9), price=Decimal("12"))
    monday = monday_ahead()
    book(ada, Court.objects.get(pk=other.pk), monday, HOURS[:1])  # peak on Hall B

    with pytest.raises(Conflict, match="you hold 1 in the week of"):
        book(ada, court, monday, EVENING[:1])


def test_an_off_peak_band_does_not_count_as_peak(ada):
    lift_hour_limits()
    ada = holder(ada, peak_hours_per_week=1)
    court = CourtFactory(price=Decimal("20.00"), slots=HOURS)
    PriceBand.objects.create(court=court, weekdays=list(range(7)), starts=time(8), ends=time(12), price=15)

    assert book(ada, Court.objects.get(pk=court.pk), monday_ahead(), MORNING)


# --- Admins --------------------------------------------------------------------------------------


def test_an_admin_is_held_to_the_policy_or_their_own_plan_as_anyone(court):
    lift_hour_limits()
    policy_update(daily_hours_limit=1)
    ann = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    monday = monday_ahead()
    book(ann, court, monday, MORNING[:1])

    with pytest.raises(Conflict, match="You may hold at most 1 hours of courts a day"):
        book(ann, court, monday, MORNING[1:2])
    ann = holder(ann, hours_per_day=2)
    assert ann.is_admin
    assert book(ann, court, monday, MORNING[1:2])


# --- Members-only hours ----------------------------------------------------------------------------


@pytest.fixture
def members_court() -> Court:
    """Members only on Saturdays from 08:00 to 10:00 ($25)."""
    court = CourtFactory(name="Clubhouse Court", price=Decimal("20.00"), slots=HOURS)
    PriceBand.objects.create(
        court=court, weekdays=[5], starts=time(8), ends=time(10), price=Decimal("25"), members_only=True
    )
    return Court.objects.get(pk=court.pk)


def test_members_only_slots_are_refused_to_anyone_without_a_plan_that_opens_them(ada, bob, members_court):
    saturday = monday_ahead() + timedelta(days=5)
    ada = holder(ada, members_only_hours=False)

    for person in (ada, bob):
        with pytest.raises(ValidationError) as refused:
            book(person, members_court, saturday, HOURS[1:3])
        assert refused.value.message_dict == {
            "slots": [
                "Members only: 09:00-10:00 is kept for the holders of a plan with the members-only "
                "hours. Choose other slots, or see the membership plans."
            ]
        }
    # Other slots, and the same slots another day, are anyone's.
    assert book(bob, members_court, saturday, HOURS[2:3])
    assert book(bob, members_court, saturday - timedelta(days=1), HOURS[:2])
    assert not BookedSlot.objects.filter(date=saturday, slot__in=HOURS[:2]).exists()


def test_members_only_slots_are_booked_by_holders_of_a_plan_that_opens_them_and_admins(ada, members_court):
    saturday = monday_ahead() + timedelta(days=5)
    ada = holder(ada, members_only_hours=True)
    ann = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)

    assert book(ada, members_court, saturday, HOURS[:1]).price == Decimal("25.00")
    assert book(ann, members_court, saturday, HOURS[1:2])


def test_a_members_only_slot_has_no_waitlist_for_people_who_may_not_book_it(ada, bob, members_court):
    saturday = monday_ahead() + timedelta(days=5)
    ada = holder(ada, members_only_hours=True)
    book(ada, members_court, saturday, HOURS[:1])

    with pytest.raises(ValidationError) as refused:
        waitlist_join(user=bob, court=members_court, date=saturday, slot=HOURS[0])

    assert refused.value.message_dict["slot"][0].startswith("Members only: 08:00-09:00 is kept")


# --- Under the person's lock ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_simultaneous_requests_of_a_holder_never_pass_their_plans_hours_a_week(sign_in_as):
    lift_hour_limits()
    policy_update(open_bookings_limit=100)
    court = CourtFactory(slots=HOURS)
    client = sign_in_as("ada@example.com")
    holder(User.objects.get(email="ada@example.com"), hours_per_week=3)
    monday = monday_ahead()
    days = [monday + timedelta(days=offset) for offset in range(7)]
    start = threading.Barrier(len(days))
    statuses = []

    def one_hour(on: Date) -> None:
        try:
            own = Client()  # one per thread, with the same session cookie
            own.cookies = client.cookies
            start.wait()
            body = {"courtId": court.pk, "date": on.isoformat(), "slots": HOURS[:1]}
            statuses.append(own.post("/api/bookings", body, content_type="application/json").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one_hour, args=(on,)) for on in days]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert Counter(statuses) == {201: 3, 409: 4}
    assert BookedSlot.objects.count() == 3
