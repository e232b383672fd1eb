"""What each caller is shown and charged (docs/rules.md, Member prices and limits): "your price"
in a court's availability, the day sheet (page and API) and the booking modal, the members-only
slots, and the booking API holding a holder to their plan's price and rules."""

from datetime import date as Date
from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from bookings.models import Booking
from bookings.services import policy_update
from bookings.tests.factories import lift_hour_limits, make_booking, tomorrow
from courts.models import Court, PriceBand
from courts.tests.factories import CourtFactory
from memberships.models import Plan
from memberships.tests.factories import make_membership, make_plan

pytestmark = pytest.mark.django_db

SLOTS = ["08:00-09:00", "09:00-10:00", "17:00-18:00", "18:00-19:00"]
# Each kind of caller: nobody signed in; a user without a plan; a member of the Club plan (25% off,
# no members-only hours); a member of the Premium plan ($12 a slot, members-only hours); an admin.
KINDS = ["anonymous", "user", "club", "premium", "admin"]


@pytest.fixture
def saturday() -> Date:
    day = tomorrow()
    return day + timedelta(days=(5 - day.weekday()) % 7)


@pytest.fixture
def court() -> Court:
    """$20 a slot; on Saturdays $30 from 17:00 to 19:00 (peak), and 08:00-09:00 for members only."""
    court = CourtFactory(name="Centre", price=Decimal("20.00"), slots=SLOTS)
    PriceBand.objects.create(court=court, weekdays=[5], starts=time(17), ends=time(19), price=Decimal("30"))
    PriceBand.objects.create(
        court=court, weekdays=[5], starts=time(8), ends=time(9), price=Decimal("20"), members_only=True
    )
    return Court.objects.get(pk=court.pk)


@pytest.fixture
def callers(sign_in_as, client):
    clients = {
        "anonymous": client,
        "user": sign_in_as("una@example.com"),
        "club": sign_in_as("cleo@example.com"),
        "premium": sign_in_as("pia@example.com"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN),
    }
    club = make_plan(name="Club", member_price_value=Decimal("25"), members_only_hours=False)
    premium = make_plan(
        name="Premium", member_price_kind="fixed", member_price_value=Decimal("12"), members_only_hours=True
    )
    make_membership(user=User.objects.get(email="cleo@example.com"), plan=club)
    make_membership(user=User.objects.get(email="pia@example.com"), plan=premium)
    return clients


# --- GET /api/courts/{id}/availability ------------------------------------------------------------

AVAILABILITY = {
    # prices of SLOTS, the slots priced otherwise than the caller's own price, the members-only ones
    "anonymous": (["20.00", "20.00", "30.00", "30.00"], {SLOTS[2]: "peak", SLOTS[3]: "peak"}, SLOTS[:1]),
    "user": (["20.00", "20.00", "30.00", "30.00"], {SLOTS[2]: "peak", SLOTS[3]: "peak"}, SLOTS[:1]),
    "club": (["15.00", "15.00", "22.50", "22.50"], {SLOTS[2]: "peak", SLOTS[3]: "peak"}, SLOTS[:1]),
    "premium": (["12.00", "12.00", "12.00", "12.00"], {}, []),
    "admin": (["20.00", "20.00", "30.00", "30.00"], {SLOTS[2]: "peak", SLOTS[3]: "peak"}, []),
}


@pytest.mark.parametrize("kind", KINDS)
def test_availability_gives_each_caller_their_prices_and_the_members_only_slots_they_may_not_book(
    callers, court, saturday, kind
):
    answer = callers[kind].get(f"/api/courts/{court.pk}/availability", {"date": saturday.isoformat()}).json()

    prices, kinds, members_only = AVAILABILITY[kind]
    assert answer["prices"] == dict(zip(SLOTS, prices, strict=True))
    assert answer["priceKinds"] == kinds
    assert answer["membersOnly"] == members_only


def test_availability_on_a_day_without_members_only_hours_keeps_nothing(callers, court, saturday):
    friday = saturday - timedelta(days=1)

    answer = callers["user"].get(f"/api/courts/{court.pk}/availability", {"date": friday.isoformat()}).json()

    assert answer["membersOnly"] == []
    assert answer["priceKinds"] == {}


# --- POST /api/bookings --------------------------------------------------------------------------


def request(client, court: Court, day: Date, slots: list[str], **fields):
    body = {"courtId": court.pk, "date": day.isoformat(), "slots": slots, **fields}
    return client.post("/api/bookings", body, content_type="application/json")


@pytest.mark.parametrize(
    ("kind", "price", "refused"),
    [("user", "60.00", "45.00"), ("club", "45.00", "60.00"), ("premium", "24.00", "45.00")],
)
def test_the_booking_api_takes_the_price_the_caller_pays_and_no_other(
    callers, court, saturday, kind, price, refused
):
    wrong = request(callers[kind], court, saturday, SLOTS[2:], price=refused)
    right = request(callers[kind], court, saturday, SLOTS[2:], price=price)

    assert wrong.status_code == 400
    assert wrong.json() == {"price": [f"The price is {price}, not {refused}."]}
    assert right.status_code == 201
    assert right.json()["price"] == price


@pytest.mark.parametrize(
    ("kind", "status_code"), [("user", 400), ("club", 400), ("premium", 201), ("admin", 201)]
)
def test_the_booking_api_refuses_members_only_slots_to_those_whose_plan_does_not_open_them(
    callers, court, saturday, kind, status_code
):
    response = request(callers[kind], court, saturday, SLOTS[:1])

    assert response.status_code == status_code
    if status_code == 400:
        assert response.json()["slots"][0].startswith("Members only: 08:00-09:00 is kept")


def test_a_plans_limit_answers_409_naming_the_plan(callers, court, saturday):
    lift_hour_limits()
    Plan.objects.filter(name="Club").update(hours_per_week=1)
    assert request(callers["club"], court, saturday, SLOTS[1:2]).status_code == 201

    refused = request(callers["club"], court, saturday, SLOTS[2:3])

    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("Your Club plan lets you hold 1 hours of courts a week")


# --- The day sheet: GET /api/schedule and /schedule ------------------------------------------------

SHEET = {
    # the court's yourPrice, and its cells: (state, price)
    "anonymous": ("20.00", [("members", None), ("free", None), ("free", "30.00"), ("free", "30.00")]),
    "user": ("20.00", [("members", None), ("free", None), ("free", "30.00"), ("free", "30.00")]),
    "club": ("15.00", [("members", None), ("free", None), ("free", "22.50"), ("free", "22.50")]),
    "premium": ("12.00", [("free", None), ("free", None), ("free", None), ("free", None)]),
    "admin": ("20.00", [("free", None), ("free", None), ("free", "30.00"), ("free", "30.00")]),
}


@pytest.mark.parametrize("kind", KINDS)
def test_the_schedule_api_gives_each_caller_their_prices_and_members_only_cells(
    callers, court, saturday, kind
):
    [row] = callers[kind].get("/api/schedule", {"date": saturday.isoformat()}).json()["courts"]

    your_price, cells = SHEET[kind]
    assert (row["price"], row["yourPrice"]) == ("20.00", your_price)
    assert [(cell["state"], cell["price"]) for cell in row["cells"]] == cells


def test_a_taken_members_only_cell_is_members_only_to_those_who_may_not_book_it(callers, court, saturday):
    pia = User.objects.get(email="pia@example.com")
    make_booking(user=pia, court=court, date=saturday, slots=SLOTS[:1])

    def first_cell(kind: str) -> str:
        [row] = callers[kind].get("/api/schedule", {"date": saturday.isoformat()}).json()["courts"]
        return row["cells"][0]["state"]

    assert {kind: first_cell(kind) for kind in KINDS} == {
        "anonymous": "members",
        "user": "members",
        "club": "members",
        "premium": "yours",
        "admin": "taken",
    }


def page(client, day: Date) -> str:
    return client.get("/schedule", {"date": day.isoformat()}).content.decode()


def test_the_schedule_page_says_members_only_and_the_holders_prices(callers, court, saturday):
    users, clubs, premiums = (page(callers[kind], saturday) for kind in ("user", "club", "premium"))

    members_only = '<td class="text-base-content/60">Members only</td>'
    assert members_only in users
    assert members_only not in premiums
    assert '$30.00<span class="sr-only"> peak price' in users
    assert '$22.50<span class="sr-only"> peak price' in clubs
    assert "You book at your Club plan's member prices: 25% off the court's price." in clubs
    assert "You book at your Premium plan's member prices: $12.00 a slot." in premiums
    assert "member prices" not in users
    # The island totals a choice with the holder's prices.
    assert '"price": "15.00", "peak": {"17:00-18:00": "22.50", "18:00-19:00": "22.50"}' in clubs
    assert '"price": "12.00", "peak": {}' in premiums


@pytest.mark.parametrize("kind", ["club", "premium"])
def test_the_schedule_costs_a_holder_the_same_queries_for_2_courts_as_for_20(callers, saturday, kind):
    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert callers[kind].get(url, {"date": saturday.isoformat()}).status_code == 200
        return len(captured)

    def add_courts(count: int) -> None:
        for _ in range(count):
            court = CourtFactory(slots=SLOTS)
            PriceBand.objects.create(court=court, weekdays=[5], starts=time(8), ends=time(9), price=25)
            PriceBand.objects.create(
                court=court, weekdays=[5], starts=time(17), ends=time(19), price=30, members_only=True
            )
            make_booking(court=court, date=saturday, slots=SLOTS[1:2])

    add_courts(2)
    few = (queries("/api/schedule"), queries("/schedule"))
    add_courts(18)

    assert (queries("/api/schedule"), queries("/schedule")) == few


# --- The booking modal on /courts -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "price", "plan"),
    [("user", "20.00", None), ("club", "15.00", "Club"), ("premium", "12.00", "Premium")],
)
def test_the_booking_modal_shows_the_price_the_person_pays(callers, court, kind, price, plan):
    props = callers[kind].get("/courts").context["booking_props"]

    assert props["memberPlan"] == plan
    assert [c["price"] for c in props["courts"]] == [price]


def test_the_booking_modal_offers_a_holder_their_plans_window(callers, court):
    policy_update(advance_days_user=10, advance_days_member=10)

    user = callers["user"].get("/courts").context["booking_props"]
    premium = callers["premium"].get("/courts").context["booking_props"]

    assert Date.fromisoformat(premium["maxDate"]) - Date.fromisoformat(premium["minDate"]) == timedelta(
        days=60
    )
    assert Date.fromisoformat(user["maxDate"]) - Date.fromisoformat(user["minDate"]) == timedelta(days=10)
    assert Booking.objects.count() == 0
