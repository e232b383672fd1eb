"""Blocks (docs/rules.md, Blocks): an admin closes slots of a court for one day or weekly until a
day; the block holds them as a booking would, and the bookings already there are refused,
cancelled (paid ones refunded in full, their owners told) or left out, as the admin chooses."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts.models import User
from bookings import blocks
from bookings.blocks import BlockConflicts, block_conflicts, block_create, block_delete
from bookings.models import Block, BookedSlot, Booking, BookingStatusChange, WaitlistEntry
from bookings.schedule import day_sheet
from bookings.services import booking_request, policy_update
from bookings.tests.factories import approved_at, make_booking, tomorrow
from courts.tests.factories import CourtFactory
from kernel import days
from kernel.errors import Conflict
from notifications.models import Notification

pytestmark = pytest.mark.django_db
Status = Booking.Status
SLOTS = ["08:00-09:00", "09:00-10:00", "10:00-11:00"]


@pytest.fixture
def court():
    return CourtFactory(name="Centre", price=Decimal("20.00"), slots=SLOTS)


@pytest.fixture
def admin():
    return User.objects.create_user("kim@example.com", role=User.Role.ADMIN)


@pytest.fixture
def freed(monkeypatch):
    """What the waitlist is told when a block is lifted: (court id, day, slots) per call."""
    calls = []
    monkeypatch.setattr(
        blocks, "slot_freed", lambda *, court_id, date, slots: calls.append((court_id, date, slots))
    )
    return calls


def held(court) -> set:
    return set(BookedSlot.objects.filter(court=court, block__isnull=False).values_list("date", "slot"))


def block(admin, court, **fields) -> Block:
    return block_create(
        by=admin, court=court, **{"date": tomorrow(), "slots": SLOTS[:1], "reason": "Maintenance", **fields}
    )


# --- Days and slots --------------------------------------------------------------------------


def test_a_block_of_one_day_holds_its_slots_that_day_in_the_courts_order(admin, court):
    made = block(admin, court, slots=[SLOTS[2], SLOTS[0]], reason="  Resurfacing  ")

    assert (made.slots, made.reason, made.until, made.created_by) == (
        [SLOTS[0], SLOTS[2]],
        "Resurfacing",
        None,
        admin,
    )
    assert held(court) == {(tomorrow(), SLOTS[0]), (tomorrow(), SLOTS[2])}


@pytest.mark.parametrize(
    ("extra_days", "weeks"),
    [(0, 1), (6, 1), (7, 2), (13, 2), (14, 3), (28, 5)],
    ids=["same-day", "six-days", "a-week-on-the-weekday", "a-day-short", "two-weeks", "four-weeks"],
)
def test_a_weekly_block_holds_each_weekday_until_its_last_day_included(admin, court, extra_days, weeks):
    first = tomorrow()
    made = block(admin, court, until=first + timedelta(days=extra_days), slots=SLOTS[:2])

    days = [first + timedelta(weeks=n) for n in range(weeks)]
    assert made.dates == days
    assert held(court) == {(day, slot) for day in days for slot in SLOTS[:2]}


def test_a_blocked_slot_refuses_a_booking_with_409(people, admin, court):
    block(admin, court)
    body = {"courtId": court.pk, "slots": SLOTS[:2], "date": tomorrow().isoformat()}

    response = people["owner"].post("/api/bookings", body, content_type="application/json")

    assert response.status_code == 409
    assert Booking.objects.count() == 0
    free = people["owner"].get(f"/api/courts/{court.pk}/availability?date={tomorrow().isoformat()}").json()
    assert free["taken"] == [SLOTS[0]]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"date": timezone.localdate() - timedelta(days=1)}, "date"),
        ({"date": timezone.localdate() + timedelta(days=3 * 366)}, "date"),
        ({"until": tomorrow() - timedelta(days=1)}, "until"),
        ({"until": tomorrow() + timedelta(days=367)}, "until"),
        ({"slots": []}, "slots"),
        ({"slots": ["07:00-08:00"]}, "slots"),
        ({"slots": [SLOTS[0], SLOTS[0]]}, "slots"),
        ({"reason": "   "}, "reason"),
        ({"reason": "x" * 201}, "reason"),
        ({"conflicts": "ignore"}, "conflicts"),
    ],
    ids=[
        "past",
        "beyond-two-years",
        "until-before",
        "over-a-year",
        "no-slot",
        "unknown-slot",
        "twice",
        "no-reason",
        "long-reason",
        "unknown-choice",
    ],
)
def test_a_block_is_refused_per_field(admin, court, fields, field):
    with pytest.raises(ValidationError) as refused:
        block(admin, court, **fields)

    assert field in refused.value.message_dict
    assert Block.objects.count() == 0
    assert BookedSlot.objects.count() == 0


def test_a_weekly_block_may_run_a_year(admin, court):
    made = block(admin, court, until=tomorrow() + timedelta(days=366))

    assert len(made.dates) == 53


def test_an_archived_court_cannot_be_blocked(admin, court):
    court.is_archived = True
    court.save()

    with pytest.raises(ValidationError) as refused:
        block(admin, court)

    assert "courtId" in refused.value.message_dict


# --- Bookings in the way ---------------------------------------------------------------------


def test_bookings_in_the_way_are_listed_and_nothing_is_blocked_by_default(admin, court):
    first = make_booking(court=court, slots=SLOTS[:1])
    week_on = make_booking(court=court, date=tomorrow() + timedelta(weeks=1), slots=SLOTS[1:])
    make_booking(court=court, date=tomorrow() + timedelta(days=1), slots=SLOTS[:1])  # another weekday
    make_booking(court=court, slots=SLOTS[2:])  # another slot

    assert block_conflicts(
        court=court, date=tomorrow(), until=tomorrow() + timedelta(weeks=1), slots=SLOTS[:2]
    ) == [
        first,
        week_on,
    ]
    with pytest.raises(BlockConflicts) as refused:
        block(admin, court, until=tomorrow() + timedelta(weeks=1), slots=SLOTS[:2])

    assert refused.value.bookings == [first, week_on]
    assert Block.objects.count() == 0
    assert held(court) == set()


def test_cancelling_the_bookings_in_the_way_tells_their_owners_why(admin, court):
    pending = make_booking(court=court, slots=SLOTS[:2])
    approved = make_booking(court=court, date=tomorrow() + timedelta(weeks=1), status=Status.APPROVED)

    made = block(admin, court, until=tomorrow() + timedelta(weeks=1), slots=SLOTS[:2], conflicts="cancel")

    for booking in (pending, approved):
        booking.refresh_from_db()
        assert booking.status == Status.CANCELLED
        change = BookingStatusChange.objects.filter(booking=booking).last()
        assert (change.to_status, change.by, change.reason) == (
            Status.CANCELLED,
            admin,
            "The court is closed: Maintenance",
        )
        assert Notification.objects.filter(
            event="booking_cancelled", recipient=booking.user, about=f"booking:{booking.pk}"
        ).exists()
    assert held(court) == {(day, slot) for day in made.dates for slot in SLOTS[:2]}


def test_leaving_out_the_slots_in_the_way_keeps_the_bookings(admin, court):
    booking = make_booking(court=court, slots=SLOTS[1:2])

    made = block(admin, court, slots=SLOTS, conflicts="skip")

    booking.refresh_from_db()
    assert booking.status == Status.PENDING
    assert made.slots == SLOTS
    assert held(court) == {(tomorrow(), SLOTS[0]), (tomorrow(), SLOTS[2])}


def test_an_overdue_booking_is_not_in_the_way_and_expires(admin, court):
    booking = make_booking(court=court, status=Status.APPROVED)
    Booking.objects.filter(pk=booking.pk).update(**approved_at(timezone.now() - timedelta(days=2)))

    assert block_conflicts(court=court, date=tomorrow(), until=None, slots=SLOTS[:1]) == []
    block(admin, court)

    booking.refresh_from_db()
    assert booking.status == Status.EXPIRED
    assert held(court) == {(tomorrow(), SLOTS[0])}


def test_slots_blocked_already_are_left_out_and_nothing_left_is_refused(admin, court):
    block(admin, court, slots=SLOTS[:1], reason="Coaching")

    wider = block(admin, court, slots=SLOTS[:2], reason="Tournament")

    assert set(wider.held_slots.values_list("slot", flat=True)) == {SLOTS[1]}
    with pytest.raises(Conflict, match="nothing left to block"):
        block(admin, court, slots=SLOTS[:2])
    assert Block.objects.count() == 2


def test_with_every_slot_booked_leaving_them_out_leaves_nothing_to_block(admin, court):
    make_booking(court=court, slots=SLOTS[:1])

    with pytest.raises(Conflict, match="nothing left to block"):
        block(admin, court, conflicts="skip")
    assert Block.objects.count() == 0


def test_a_booking_that_won_the_slot_meanwhile_refuses_the_whole_block(admin, court, monkeypatch):
    """A booking committed between the check for conflicts and the insert of the block's rows: the
    database refuses the block's row, and nothing of the block stays."""
    intruder = make_booking(court=court, slots=SLOTS[1:2])
    monkeypatch.setattr(blocks, "block_conflicts", lambda **kwargs: [])
    real_filter = BookedSlot.objects.filter

    def without_the_intruder(*args, **kwargs):
        return real_filter(*args, **kwargs).exclude(booking=intruder)

    monkeypatch.setattr(BookedSlot.objects, "filter", without_the_intruder)

    with pytest.raises(Conflict, match="just now"):
        block(admin, court, slots=SLOTS[:2], conflicts="skip")

    monkeypatch.undo()
    assert Block.objects.count() == 0
    assert list(BookedSlot.objects.values_list("booking_id", "slot")) == [(intruder.pk, SLOTS[1])]


def offered_to_someone(court, *, run_out: bool) -> WaitlistEntry:
    """Ada's waitlist place for the first slot of tomorrow, offered to her (the slot held for her),
    her hold over or not."""
    ada = User.objects.create_user("ada@example.com")
    now = timezone.now()
    entry = WaitlistEntry.objects.create(
        user=ada,
        court=court,
        date=tomorrow(),
        slot=SLOTS[0],
        status=WaitlistEntry.Status.OFFERED,
        offered_at=now - timedelta(hours=1),
        offer_expires_at=now + timedelta(minutes=-1 if run_out else 10),
    )
    BookedSlot.objects.create(offer=entry, court=court, date=tomorrow(), slot=SLOTS[0])
    return entry


def test_a_slot_offered_to_someone_on_its_waitlist_is_refused_unless_left_out(admin, court):
    entry = offered_to_someone(court, run_out=False)

    with pytest.raises(Conflict, match="waitlist"):
        block(admin, court, slots=SLOTS[:2], conflicts="cancel")
    made = block(admin, court, slots=SLOTS[:2], conflicts="skip")

    assert held(court) == {(tomorrow(), SLOTS[1])}
    assert set(made.held_slots.values_list("slot", flat=True)) == {SLOTS[1]}
    entry.refresh_from_db()
    assert entry.status == WaitlistEntry.Status.OFFERED


def test_an_offer_that_ran_out_holds_nothing_and_lapses(admin, court):
    entry = offered_to_someone(court, run_out=True)

    block(admin, court, slots=SLOTS[:1])

    entry.refresh_from_db()
    assert entry.status == WaitlistEntry.Status.LAPSED
    assert held(court) == {(tomorrow(), SLOTS[0])}


# --- Lifting a block -------------------------------------------------------------------------


def test_lifting_a_block_frees_its_slots_and_tells_the_waitlist_of_each_day_to_come(admin, court, freed):
    made = block(admin, court, until=tomorrow() + timedelta(weeks=2), slots=SLOTS[:2])
    # A day gone by: freed too, but nobody waits for a slot of the past.
    BookedSlot.objects.filter(block=made, date=tomorrow()).update(
        date=timezone.localdate() - timedelta(days=6)
    )

    block_delete(block=made, by=admin)

    assert Block.objects.count() == 0
    assert BookedSlot.objects.count() == 0
    assert freed == [(court.pk, tomorrow() + timedelta(weeks=n), SLOTS[:2]) for n in (1, 2)]
    assert booking_request(user=admin, court=court, date=tomorrow(), slots=SLOTS[:2]).status == Status.PENDING


def test_lifting_a_block_offers_its_slots_to_the_first_person_waiting(admin, court, mailbox):
    from testing.worker import run_due_tasks

    made = block(admin, court, slots=SLOTS[:1])
    ada = User.objects.create_user("ada@example.com")
    waiting = WaitlistEntry.objects.create(user=ada, court=court, date=tomorrow(), slot=SLOTS[0])

    block_delete(block=made, by=admin)
    run_due_tasks()

    waiting.refresh_from_db()
    assert waiting.status == WaitlistEntry.Status.OFFERED
    assert BookedSlot.objects.get(court=court, date=tomorrow(), slot=SLOTS[0]).offer == waiting


# --- A paid booking in the way ---------------------------------------------------------------


def test_a_paid_booking_cancelled_by_a_block_is_refunded_in_full(people, localstripe, mailbox):
    from payments.models import Payment, Refund
    from payments.tests.helpers import intent, save
    from testing.stripe_stand_in import pay
    from testing.worker import run_due_tasks

    policy_update(cancel_cutoff_hours=1, refund_percent=50, late_refund_percent=0)
    ada = User.objects.get(email="ada@example.com")
    court = CourtFactory(name="Centre", price=Decimal("20.00"), slots=SLOTS)
    booking = make_booking(user=ada, court=court, slots=SLOTS[:2], status=Status.APPROVED)
    secret = intent(people["owner"], booking).json()["clientSecret"]
    pay(secret)
    assert save(people["owner"], secret).status_code == 200
    body = {
        "courtId": court.pk,
        "date": tomorrow().isoformat(),
        "slots": SLOTS,
        "reason": "Flooded",
        "conflicts": "cancel",
    }

    response = people["admin"].post("/api/blocks", body, content_type="application/json")
    run_due_tasks()

    assert response.status_code == 201
    booking.refresh_from_db()
    assert booking.status == Status.CANCELLED
    refund = Refund.objects.get(payment=Payment.objects.get(booking=booking))
    assert (refund.amount, refund.status) == (Decimal("40.00"), Refund.Status.SUCCEEDED)
    assert held(court) == {(tomorrow(), slot) for slot in SLOTS}


# --- The API ---------------------------------------------------------------------------------

KINDS = ["anonymous", "owner", "member", "admin"]
REFUSED = {"anonymous": 401, "owner": 403, "member": 403}


def block_body(court, **change) -> dict:
    return {
        "courtId": court.pk,
        "date": tomorrow().isoformat(),
        "slots": SLOTS[:2],
        "reason": "Maintenance",
        **change,
    }


@pytest.mark.parametrize("kind", KINDS)
def test_only_admins_block_slots(people, court, kind):
    response = people[kind].post("/api/blocks", block_body(court), content_type="application/json")

    if kind == "admin":
        assert response.status_code == 201
        body = response.json()
        assert {
            key: body[key] for key in ("courtId", "courtName", "until", "slots", "reason", "createdBy")
        } == {
            "courtId": court.pk,
            "courtName": "Centre",
            "until": None,
            "slots": SLOTS[:2],
            "reason": "Maintenance",
            "createdBy": "ann@example.com",
        }
        assert held(court) == {(tomorrow(), slot) for slot in SLOTS[:2]}
    else:
        assert response.status_code == REFUSED[kind]
        assert Block.objects.count() == 0


@pytest.mark.parametrize("kind", KINDS)
def test_only_admins_list_the_blocks(people, admin, court, kind):
    block(admin, court)

    response = people[kind].get("/api/blocks")

    if kind == "admin":
        assert response.status_code == 200
        assert [row["reason"] for row in response.json()] == ["Maintenance"]
    else:
        assert response.status_code == REFUSED[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_only_admins_lift_a_block(people, admin, court, freed, kind):
    made = block(admin, court)

    response = people[kind].delete(f"/api/blocks/{made.pk}")

    if kind == "admin":
        assert response.status_code == 204
        assert Block.objects.count() == 0
        assert freed == [(court.pk, tomorrow(), SLOTS[:1])]
    else:
        assert response.status_code == REFUSED[kind]
        assert held(court) == {(tomorrow(), SLOTS[0])}


def test_lifting_a_block_that_is_not_there_answers_404(people):
    assert people["admin"].delete("/api/blocks/999999").status_code == 404


def test_the_409_lists_the_bookings_in_the_way_then_the_admin_leaves_them_out(people, court):
    ada = User.objects.get(email="ada@example.com")
    booking = make_booking(user=ada, court=court, slots=SLOTS[1:])

    refused = people["admin"].post("/api/blocks", block_body(court), content_type="application/json")

    assert refused.status_code == 409
    assert "1 booking holds some of these slots" in refused.json()["detail"]
    assert refused.json()["conflicts"] == [
        {
            "bookingId": booking.pk,
            "date": tomorrow().isoformat(),
            "dateLabel": days.day(tomorrow()),
            "slots": SLOTS[1:],
            "status": "pending",
            "userEmail": "ada@example.com",
        }
    ]
    assert Block.objects.count() == 0
    skipped = people["admin"].post(
        "/api/blocks", block_body(court, conflicts="skip"), content_type="application/json"
    )
    assert skipped.status_code == 201
    assert held(court) == {(tomorrow(), SLOTS[0])}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"courtId": "x"}, "courtId"),
        ({"date": "tomorrow"}, "date"),
        ({"date": (timezone.localdate() - timedelta(days=1)).isoformat()}, "date"),
        ({"until": tomorrow().isoformat() + "x"}, "until"),
        ({"until": (tomorrow() - timedelta(days=1)).isoformat()}, "until"),
        ({"slots": ["07:00-08:00"]}, "slots"),
        ({"slots": []}, "slots"),
        ({"reason": ""}, "reason"),
        ({"conflicts": "ignore"}, "conflicts"),
    ],
)
def test_a_bad_block_answers_400_per_field(people, court, change, field):
    response = people["admin"].post(
        "/api/blocks", block_body(court, **change), content_type="application/json"
    )

    assert response.status_code == 400
    assert field in response.json()
    assert Block.objects.count() == 0


def test_a_block_of_a_court_that_is_not_there_answers_404(people):
    response = people["admin"].post(
        "/api/blocks", {**block_body(CourtFactory()), "courtId": 999999}, content_type="application/json"
    )

    assert response.status_code == 404


def test_the_blocks_list_by_court_and_days_a_slice_at_a_time(people, admin, court):
    other = CourtFactory(slots=SLOTS)
    weekly = block(admin, court, until=tomorrow() + timedelta(weeks=4), reason="Coaching")
    later = block(admin, court, date=tomorrow() + timedelta(days=10), reason="Tournament")
    block(admin, other, reason="Elsewhere")

    def reasons(query: str) -> list[str]:
        response = people["admin"].get(f"/api/blocks?{query}")
        assert response.status_code == 200
        return [row["reason"] for row in response.json()]

    day = tomorrow() + timedelta(days=20)
    assert reasons(f"courtId={court.pk}") == ["Coaching", "Tournament"]
    assert reasons(f"courtId={court.pk}&dateFrom={day}") == ["Coaching"]
    assert reasons(f"dateFrom={later.date}&dateTo={later.date}") == ["Coaching", "Tournament"]
    assert reasons(f"dateTo={tomorrow()}") == ["Coaching", "Elsewhere"]
    assert weekly.pk
    page = people["admin"].get("/api/blocks?limit=1&offset=1")
    assert page["X-Total-Count"] == "3"
    assert 'rel="next"' in page["Link"]
    bad = people["admin"].get(f"/api/blocks?dateFrom={day}&dateTo={tomorrow()}")
    assert bad.status_code == 400
    assert "dateTo" in bad.json()


# --- Django admin ----------------------------------------------------------------------------


def admin_form(court, **change) -> dict:
    return {
        "court": court.pk,
        "date": tomorrow().isoformat(),
        "until": "",
        "slots": '["08:00-09:00", "09:00-10:00"]',
        "reason": "Resurfacing",
        **change,
    }


def test_an_admin_adds_a_block_in_django_admin_through_the_service(people, court):
    response = people["admin"].post("/admin/bookings/block/add/", admin_form(court))

    assert response.status_code == 302
    made = Block.objects.get()
    assert (made.reason, made.created_by.email) == ("Resurfacing", "ann@example.com")
    assert held(court) == {(tomorrow(), slot) for slot in SLOTS[:2]}
    assert "Resurfacing" in people["admin"].get("/admin/bookings/block/").content.decode()
    assert people["owner"].get("/admin/bookings/block/").status_code == 302


def test_django_admin_refuses_a_block_over_bookings_and_says_whose(people, court):
    make_booking(user=User.objects.get(email="ada@example.com"), court=court, slots=SLOTS[1:2])

    response = people["admin"].post("/admin/bookings/block/add/", admin_form(court))

    assert response.status_code == 200
    page = response.content.decode()
    assert "1 booking holds some of these slots" in page
    assert f"ada@example.com, {tomorrow()}, 09:00–10:00 (pending)" in page
    assert Block.objects.count() == 0


def test_django_admin_says_what_is_wrong_with_a_field(people, court):
    past = (timezone.localdate() - timedelta(days=1)).isoformat()

    response = people["admin"].post("/admin/bookings/block/add/", admin_form(court, date=past, slots='"x"'))

    assert response.status_code == 200
    assert "A list of slots, each as in the court&#x27;s list." in response.content.decode()
    response = people["admin"].post("/admin/bookings/block/add/", admin_form(court, date=past))
    assert "Please choose today or a later date." in response.content.decode()
    assert Block.objects.count() == 0


def test_deleting_blocks_in_django_admin_lifts_them_through_the_service(people, admin, court, freed):
    one = block(admin, court, slots=SLOTS[:1])
    other = block(admin, court, slots=SLOTS[1:2])

    response = people["admin"].post(f"/admin/bookings/block/{one.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    response = people["admin"].post(
        "/admin/bookings/block/", {"action": "delete_selected", "_selected_action": [other.pk], "post": "yes"}
    )

    assert response.status_code == 302
    assert Block.objects.count() == 0
    assert held(court) == set()
    assert freed == [(court.pk, tomorrow(), SLOTS[:1]), (court.pk, tomorrow(), SLOTS[1:2])]


# --- The day sheet ---------------------------------------------------------------------------


def test_blocked_cells_cost_the_sheet_no_query_more(admin, court, django_assert_num_queries):
    block(admin, court, slots=SLOTS[1:2], reason="Net repair")
    make_booking(court=court, slots=SLOTS[:1])
    other = CourtFactory(slots=SLOTS)
    block(admin, other, slots=SLOTS, reason="Tournament")

    with django_assert_num_queries(2):  # the open courts, the slots held that day
        sheet = day_sheet(date=tomorrow(), viewer=admin)

    assert {row.court.pk: [cell.state for cell in row.cells] for row in sheet.rows} == {
        court.pk: ["taken", "blocked", "free"],
        other.pk: ["blocked", "blocked", "blocked"],
    }


def cell_texts(html: str) -> list[str]:
    """The cells' text of the sheet's first row, as a person reading the table hears it."""
    row = re.search(r'<th scope="row".*?</th>(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]


@pytest.mark.parametrize("kind", ["anonymous", "owner", "member", "admin"])
def test_everyone_reads_a_blocked_cell_and_its_reason_and_only_admins_may_unblock_it(
    people, admin, court, kind
):
    made = block(admin, court, slots=SLOTS[1:2], reason="Net repair")

    html = people[kind].get(f"/schedule?date={tomorrow().isoformat()}").content.decode()

    unblock = f" Unblock (Centre, {SLOTS[1]})" if kind == "admin" else ""
    assert cell_texts(html)[1] == f"Blocked Net repair{unblock}"
    assert (f'data-sheet-unblock="{made.pk}"' in html) == (kind == "admin")


@pytest.mark.parametrize("kind", ["anonymous", "owner", "admin"])
def test_the_api_shows_a_blocked_cells_reason_to_everyone_and_its_block_to_admins(people, admin, court, kind):
    made = block(admin, court, slots=SLOTS[1:2], reason="Net repair")

    body = people[kind].get(f"/api/schedule?date={tomorrow().isoformat()}").json()

    cell = body["courts"][0]["cells"][1]
    assert (cell["state"], cell["reason"], cell["bookingId"], cell["holder"]) == (
        "blocked",
        "Net repair",
        None,
        "",
    )
    assert cell["blockId"] == (made.pk if kind == "admin" else None)
