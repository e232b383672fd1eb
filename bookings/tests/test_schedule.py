"""The day sheet (bookings/schedule.py) and GET /api/schedule: every open court's slots on one day,
each free, taken, yours or past, and whose only for the admins."""

from datetime import date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.blocks import block_create
from bookings.models import Booking
from bookings.rules import rules_for
from bookings.schedule import bookable_until, day_sheet
from bookings.services import booking_cancel, policy_update
from bookings.tests.factories import approved_at, make_booking, tomorrow
from bookings.waitlist import waitlist_join, waitlist_offer
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db
Status = Booking.Status

KINDS = ["anonymous", "owner", "other", "member", "admin"]
MORNING = ["08:00-09:00", "09:00-10:00"]


def states(sheet) -> dict[str, list[str]]:
    return {row.court.name: [cell.state for cell in row.cells] for row in sheet.rows}


# --- the sheet ----------------------------------------------------------------------------------


def test_the_columns_are_every_slot_any_court_offers_and_a_court_leaves_out_the_others():
    CourtFactory(name="Early", type="Tennis", slots=["07:00-08:00", "08:00-09:00"])
    CourtFactory(name="Late", type="Tennis", slots=["08:00-09:00", "20:00-21:30"])

    sheet = day_sheet(date=tomorrow())

    assert sheet.slots == ["07:00-08:00", "08:00-09:00", "20:00-21:30"]
    assert states(sheet) == {"Early": ["free", "free", "none"], "Late": ["none", "free", "free"]}


def test_archived_courts_are_left_out_and_the_type_filter_keeps_one_type():
    CourtFactory(name="Grass", type="Tennis", slots=MORNING)
    CourtFactory(name="Hall", type="Badminton", slots=MORNING)
    CourtFactory(name="Old", type="Tennis", slots=MORNING, is_archived=True)

    assert list(states(day_sheet(date=tomorrow()))) == ["Hall", "Grass"]
    assert list(states(day_sheet(date=tomorrow(), type="Tennis"))) == ["Grass"]


def test_slots_that_began_in_the_clubs_time_zone_are_past(evening_in_new_york):
    CourtFactory(name="Centre", slots=["08:00-09:00", "21:00-22:00", "22:00-23:00"])

    assert states(day_sheet(date=evening_in_new_york)) == {"Centre": ["past", "past", "free"]}
    assert states(day_sheet(date=date(2026, 6, 2))) == {"Centre": ["free", "free", "free"]}


def test_a_held_slot_is_the_viewers_own_or_taken_and_released_ones_are_free():
    ada = User.objects.create_user("ada@example.com")
    court = CourtFactory(name="Centre", slots=["08:00-09:00", "09:00-10:00", "10:00-11:00", "11:00-12:00"])
    make_booking(user=ada, court=court, slots=["08:00-09:00"], status=Status.CONFIRMED)
    make_booking(court=court, slots=["09:00-10:00"])
    make_booking(court=court, slots=["10:00-11:00"], status=Status.CANCELLED)
    overdue = make_booking(court=court, slots=["11:00-12:00"], status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(**approved_at(timezone.now() - timedelta(days=2)))

    assert states(day_sheet(date=tomorrow(), viewer=ada)) == {"Centre": ["yours", "taken", "free", "free"]}
    assert states(day_sheet(date=tomorrow())) == {"Centre": ["taken", "taken", "free", "free"]}


def test_a_blocked_cell_says_why_to_everyone_and_which_block_to_admins_only():
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    court = CourtFactory(name="Centre", slots=MORNING)
    block = block_create(by=admin, court=court, date=tomorrow(), slots=MORNING[:1], reason="Maintenance")

    [[blocked, free]] = [row.cells for row in day_sheet(date=tomorrow()).rows]
    [[seen_by_admin, _]] = [row.cells for row in day_sheet(date=tomorrow(), viewer=admin).rows]

    assert (blocked.state, blocked.reason, blocked.block_id) == ("blocked", "Maintenance", None)
    assert (seen_by_admin.state, seen_by_admin.block_id) == ("blocked", block.pk)
    assert free.state == "free"


@pytest.mark.parametrize("days_past_the_window", [0, 1])
def test_free_cells_beyond_the_viewers_window_are_not_open_yet(days_past_the_window):
    policy_update(advance_days_user=7)
    CourtFactory(name="Centre", slots=MORNING)
    ada = User.objects.create_user("ada@example.com")
    day = timezone.localdate() + timedelta(days=7 + days_past_the_window)

    sheet = day_sheet(date=day, viewer=ada, bookable_until=bookable_until(rules_for(ada)))

    if days_past_the_window:
        assert states(sheet) == {"Centre": ["later", "later"]}
        assert sheet.opens_on == timezone.localdate() + timedelta(days=1)
    else:
        assert states(sheet) == {"Centre": ["free", "free"]}
        assert sheet.opens_on is None
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    assert bookable_until(rules_for(admin)) is None  # admins may block any day


def test_the_page_gives_admins_the_cells_actions_and_signed_in_people_the_waitlist(people, sign_in_as):
    court = CourtFactory(name="Centre", slots=MORNING)
    pending = make_booking(court=court, slots=MORNING[:1])
    day = f"/schedule?date={tomorrow().isoformat()}"

    admins = people["admin"].get(day).content.decode()
    users = people["other"].get(day).content.decode()
    visitors = people["anonymous"].get(day).content.decode()

    assert f'data-sheet-act="approve" data-booking="{pending.pk}"' in admins
    assert f'data-sheet-act="cancel-approved" data-booking="{pending.pk}"' in admins
    assert "data-sheet-act" not in users
    assert "data-sheet-join-court" not in admins  # an admin acts on the booking instead
    assert f'data-sheet-join-court="{court.pk}" data-sheet-join-slot="{MORNING[0]}"' in users
    assert "data-sheet-join-court" not in visitors


def test_the_sheet_costs_two_queries_however_many_courts_bookings_and_places(django_assert_num_queries):
    bob = User.objects.create_user("bob@example.com")
    for _ in range(12):
        court = CourtFactory(slots=MORNING)
        booking = make_booking(court=court, slots=MORNING)
        for slot in MORNING:
            waitlist_join(user=bob, court=court, date=tomorrow(), slot=slot)
        booking_cancel(booking=booking, by=booking.user)
        make_booking(court=court, slots=MORNING[1:])  # taken again before it is offered
        waitlist_offer(court_id=court.pk, date=tomorrow(), slots=MORNING)

    # The open courts; the slots held that day, with the viewer's places in their lines.
    with django_assert_num_queries(2):
        sheet = day_sheet(date=tomorrow(), viewer=bob)

    assert len(sheet.rows) == 12
    assert {tuple(cells) for cells in states(sheet).values()} == {("offered", "waiting")}


# --- GET /api/schedule --------------------------------------------------------------------------


@pytest.fixture
def booked(people):
    court = CourtFactory(name="Centre", type="Tennis", price="15.00", slots=MORNING)
    return make_booking(user=User.objects.get(email="ada@example.com"), court=court, slots=MORNING[:1])


EXPECTED_HELD_CELL = {
    "anonymous": {"state": "taken", "bookingId": None, "status": "", "holder": ""},
    "owner": {"state": "yours", "bookingId": "id", "status": "pending", "holder": ""},
    "other": {"state": "taken", "bookingId": None, "status": "", "holder": ""},
    "member": {"state": "taken", "bookingId": None, "status": "", "holder": ""},
    "admin": {"state": "taken", "bookingId": "id", "status": "pending", "holder": "ada@example.com"},
}


@pytest.mark.parametrize("kind", KINDS)
def test_each_caller_sees_the_sheet_and_only_admins_see_who_holds_a_cell(people, booked, kind):
    response = people[kind].get(f"/api/schedule?date={tomorrow().isoformat()}")

    assert response.status_code == 200
    body = response.json()
    assert (body["date"], body["type"], body["slots"]) == (tomorrow().isoformat(), "", MORNING)
    [court] = body["courts"]
    assert (court["id"], court["name"], court["type"], court["price"]) == (
        booked.court_id,
        "Centre",
        "Tennis",
        "15.00",
    )
    held, free = court["cells"]
    expected = EXPECTED_HELD_CELL[kind]
    nothing_else = {
        "blockId": None,
        "reason": "",
        "price": None,
        "waitlistId": None,
        "heldUntil": None,
        "players": [],
        "programId": None,
        "series": False,
    }
    assert held == {
        "slot": MORNING[0],
        **expected,
        "bookingId": booked.pk if expected["bookingId"] else None,
        **nothing_else,
    }
    assert free == {
        "slot": MORNING[1],
        "state": "free",
        "bookingId": None,
        "status": "",
        "holder": "",
        **nothing_else,
    }


def test_the_sheet_is_todays_in_the_clubs_time_zone_without_a_date(client, evening_in_new_york):
    CourtFactory(slots=MORNING)

    assert client.get("/api/schedule").json()["date"] == "2026-06-01"


def test_the_type_filter_keeps_the_courts_of_that_type(client):
    CourtFactory(name="Grass", type="Tennis", slots=MORNING)
    CourtFactory(name="Hall", type="Badminton", slots=["18:00-19:00"])

    body = client.get("/api/schedule?type=Badminton").json()

    assert ([court["name"] for court in body["courts"]], body["slots"]) == (["Hall"], ["18:00-19:00"])


@pytest.mark.parametrize(
    ("query", "errors"),
    [
        (
            "date=2026-13-01",
            {"date": ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."]},
        ),
        ("type=Polo", {"type": ["No open court is of this type."]}),
        (
            "date=tomorrow&type=Polo",
            {
                "date": ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."],
                "type": ["No open court is of this type."],
            },
        ),
    ],
)
def test_a_bad_date_or_type_answers_400_with_its_field(client, query, errors):
    CourtFactory(type="Tennis")

    response = client.get(f"/api/schedule?{query}")

    assert response.status_code == 400
    assert response.json() == errors


def test_a_type_whose_courts_are_all_archived_is_refused(client):
    CourtFactory(type="Squash", is_archived=True)

    assert client.get("/api/schedule?type=Squash").status_code == 400


@pytest.mark.parametrize("kind", ["anonymous", "owner", "admin"])
def test_the_api_costs_the_same_queries_for_2_courts_as_for_20(people, kind):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert (
                people[kind].get(f"/api/schedule?date={tomorrow().isoformat()}&type=Tennis").status_code
                == 200
            )
        return len(captured)

    def add_courts(count: int) -> None:
        for _ in range(count):
            court = CourtFactory(type="Tennis", slots=MORNING)
            make_booking(court=court, slots=MORNING[:1])

    add_courts(2)
    few = queries()
    add_courts(18)

    # At most: the session, the caller, the caller's plan, the types (for the filter), the policy
    # (the caller's window), the courts, the held slots.
    assert queries() == few <= 7


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_the_api_answers_a_day_at_the_calendars_ends_without_a_server_error(client, day):
    CourtFactory()

    response = client.get(f"/api/schedule?date={day}")

    assert response.status_code == 200
    assert response.json()["date"] == day


def test_the_api_tells_a_caller_their_place_in_a_line_and_a_slot_held_for_them(people, booked):
    bob = User.objects.get(email="bob@example.com")
    place = waitlist_join(user=bob, court=booked.court, date=tomorrow(), slot=MORNING[0])
    day = f"/api/schedule?date={tomorrow().isoformat()}"

    [waiting, _] = people["other"].get(day).json()["courts"][0]["cells"]
    assert (waiting["state"], waiting["waitlistId"]) == ("waiting", place.pk)

    booking_cancel(booking=booked, by=booked.user)
    waitlist_offer(court_id=booked.court_id, date=tomorrow(), slots=MORNING[:1])
    place.refresh_from_db()
    [held, _] = people["other"].get(day).json()["courts"][0]["cells"]
    [others, _] = people["member"].get(day).json()["courts"][0]["cells"]
    assert (held["state"], datetime.fromisoformat(held["heldUntil"])) == ("offered", place.offer_expires_at)
    assert (others["state"], others["heldUntil"], others["waitlistId"]) == ("taken", None, None)
