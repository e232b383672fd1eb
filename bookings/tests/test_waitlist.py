"""The waitlist (docs/rules.md, Waitlist): joining a taken slot's line, the offer of a freed slot to
the first in line (held for the policy's waitlist_hold_minutes, then passed to the next), booking
the held slot, leaving, lapsing when the slot begins; the API for every kind of caller; the page;
the e-mail."""

from datetime import datetime, time, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from bookings.models import BookedSlot, Booking, WaitlistEntry
from bookings.schedule import CellState, day_sheet
from bookings.selectors import policy_get, taken_slots, waitlist_of
from bookings.services import (
    SlotTaken,
    booking_approve,
    booking_cancel,
    booking_confirm,
    booking_reject,
    booking_request,
    bookings_expire,
)
from bookings.tests.factories import tomorrow
from bookings.waitlist import waitlist_join, waitlist_leave, waitlist_offer, waitlist_pass_on
from courts.tests.factories import CourtFactory
from kernel.errors import Conflict
from kernel.slots import Slot, slots_label
from notifications.models import Notification
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db
Status = WaitlistEntry.Status
SLOT = "08:00-09:00"
HOLD = timedelta(minutes=30)


@pytest.fixture
def court():
    return CourtFactory(name="Centre Court", slots=[SLOT, "09:00-10:00"])


@pytest.fixture
def ann():
    return User.objects.create_user("ann@example.com", name="Ann Holder")


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com", name="Ada Lovelace")


@pytest.fixture
def bob():
    return User.objects.create_user("bob@example.com", name="Bob Baker")


@pytest.fixture
def taken(ann, court):
    """Ann's pending request for the slot, tomorrow."""
    return booking_request(user=ann, court=court, date=tomorrow(), slots=[SLOT])


def join(user, court, *, date=None, slot=SLOT):
    return waitlist_join(user=user, court=court, date=date or tomorrow(), slot=slot)


def status_of(entry) -> str:
    entry.refresh_from_db()
    return entry.status


def holder_of(court, date=None, slot=SLOT) -> BookedSlot:
    return BookedSlot.objects.get(court=court, date=date or tomorrow(), slot=slot)


def offer_freed() -> int:
    """The task slot_freed queues, run as the worker runs it."""
    return run_due_tasks()


# Joining


def test_a_taken_slot_has_a_line_in_the_order_people_join(taken, court, ada, bob):
    first, second = join(ada, court), join(bob, court)

    assert (first.status, second.status) == (Status.WAITING, Status.WAITING)
    assert [(e.pk, e.position) for e in waitlist_of(user=ada)] == [(first.pk, 1)]
    assert [(e.pk, e.position) for e in waitlist_of(user=bob)] == [(second.pk, 2)]


@pytest.mark.parametrize(
    ("slot", "days", "field"),
    [
        ("07:00-08:00", 1, "slot"),  # not one of the court's
        (SLOT, -1, "date"),  # yesterday
        (SLOT, 31, "date"),  # past a user's 30 days
    ],
)
def test_a_place_is_refused_for_an_unknown_slot_or_a_day_outside_the_window(court, ada, slot, days, field):
    with pytest.raises(ValidationError) as refused:
        join(ada, court, date=timezone.localdate() + timedelta(days=days), slot=slot)

    assert list(refused.value.message_dict) == [field]
    assert not WaitlistEntry.objects.exists()


def test_the_last_day_of_the_window_may_be_waited_for(court, ann, ada):
    last = timezone.localdate() + timedelta(days=policy_get().advance_days_user)
    booking_request(user=ann, court=court, date=last, slots=[SLOT])

    assert join(ada, court, date=last).status == Status.WAITING


def test_a_slot_that_has_begun_cannot_be_waited_for(court, ada, evening_in_new_york):
    with pytest.raises(ValidationError) as refused:
        join(ada, court, date=evening_in_new_york, slot=SLOT)

    assert "already started" in refused.value.message_dict["slot"][0]


def test_an_archived_courts_slot_cannot_be_waited_for(taken, court, ada):
    court.is_archived = True
    court.save()

    with pytest.raises(ValidationError) as refused:
        join(ada, court)

    assert list(refused.value.message_dict) == ["courtId"]


def test_a_free_slot_is_to_be_booked_not_waited_for(court, ada):
    with pytest.raises(Conflict, match="free: book it instead"):
        join(ada, court)


def test_a_slot_held_by_an_overdue_booking_is_free(taken, court, ada):
    Booking.objects.filter(pk=taken.pk).update(created_at=timezone.now() - timedelta(days=3))

    with pytest.raises(Conflict, match="free"):
        join(ada, court)


def test_nobody_waits_for_their_own_slot(taken, court, ann):
    with pytest.raises(Conflict, match="yourself"):
        join(ann, court)


def test_nobody_waits_twice_in_one_line(taken, court, ada):
    join(ada, court)

    with pytest.raises(Conflict, match="already"):
        join(ada, court)
    assert WaitlistEntry.objects.count() == 1


def test_after_leaving_a_line_one_may_join_it_again_at_its_end(taken, court, ada, bob):
    entry = join(ada, court)
    join(bob, court)
    waitlist_leave(user=ada, entry=entry)

    again = join(ada, court)

    assert again.pk != entry.pk
    assert [e.position for e in waitlist_of(user=ada)] == [2]


# The offer of a freed slot


def free_by_cancel(booking):
    booking_cancel(booking=booking, by=booking.user)


def free_by_reject(booking):
    booking_reject(booking=booking, by=User.objects.create_user("boss@example.com", role=User.Role.ADMIN))


def free_by_expiry(booking):
    Booking.objects.filter(pk=booking.pk).update(created_at=timezone.now() - timedelta(days=3))
    assert bookings_expire() == 1


@pytest.mark.parametrize("free", [free_by_cancel, free_by_reject, free_by_expiry])
def test_a_freed_slot_is_offered_to_the_first_in_line_and_held_for_them(taken, court, ada, bob, free):
    first, second = join(ada, court), join(bob, court)

    free(taken)
    before = timezone.now()
    offer_freed()

    first.refresh_from_db()
    assert first.status == Status.OFFERED
    assert before <= first.offered_at <= timezone.now()
    assert first.offer_expires_at == first.offered_at + HOLD
    assert holder_of(court).offer_id == first.pk
    assert status_of(second) == Status.WAITING
    assert SLOT in taken_slots(court_id=court.pk, date=tomorrow())  # for everyone else


def test_a_freed_slot_nobody_waits_for_queues_nothing(taken, court):
    tasks = DBTaskResult.objects.count()

    booking_cancel(booking=taken, by=taken.user)

    assert DBTaskResult.objects.count() == tasks
    assert not BookedSlot.objects.exists()


def test_the_hold_lasts_the_policys_waitlist_hold_minutes(taken, court, ada):
    policy = policy_get()
    policy.waitlist_hold_minutes = 90
    policy.save()
    entry = join(ada, court)

    free_by_cancel(taken)
    offer_freed()

    entry.refresh_from_db()
    assert entry.offer_expires_at - entry.offered_at == timedelta(minutes=90)


def test_a_hold_never_outlasts_the_slots_start(taken, court, ada):
    entry = join(ada, court)
    booking_cancel(booking=taken, by=taken.user)
    starts_at = Slot.parse(SLOT).starts_at(tomorrow())

    assert waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT], now=starts_at - HOLD / 3) == 1

    entry.refresh_from_db()
    assert entry.offer_expires_at == starts_at


def test_a_slot_taken_again_before_the_offer_is_not_offered(taken, court, ada, bob):
    entry = join(ada, court)
    free_by_cancel(taken)
    booking_request(user=bob, court=court, date=tomorrow(), slots=[SLOT])  # before the worker runs

    offer_freed()

    assert status_of(entry) == Status.WAITING
    assert holder_of(court).booking.user == bob


def test_a_slot_is_offered_once_however_often_it_is_offered(taken, court, ada, bob):
    first, second = join(ada, court), join(bob, court)
    free_by_cancel(taken)

    offers = [waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT]) for _ in range(3)]

    assert offers == [1, 0, 0]
    assert (status_of(first), status_of(second)) == (Status.OFFERED, Status.WAITING)
    assert BookedSlot.objects.count() == 1
    assert Notification.objects.filter(event="waitlist_offer").count() == 1


def test_the_offer_is_e_mailed_with_the_link_to_book_it(mailbox, taken, court, ada):
    entry = join(ada, court)
    free_by_cancel(taken)

    offer_freed()

    entry.refresh_from_db()
    [mail] = mailbox.messages(to="ada@example.com")
    deadline = timezone.localtime(entry.offer_expires_at).strftime("%-I:%M %p")
    on = date_format(tomorrow(), "F j, Y")
    assert mail.subject.startswith(
        f"Centre Court is free on {on} at {slots_label(SLOT)}: held for you until "
    )
    assert deadline in mail.subject
    for part in (mail.text, mail.html):
        assert "Hello Ada Lovelace" in part
        assert "08:00–09:00" in part
        assert f"http://127.0.0.1:8000/schedule?date={tomorrow().isoformat()}" in part
        assert "http://127.0.0.1:8000/dashboard/waitlist" in part
        assert "Book now" in part


# The hold runs out


def offered(taken, court, *people):
    """The line of `people` for the slot, the slot freed and offered to the first."""
    entries = [join(person, court) for person in people]
    free_by_cancel(taken)
    offer_freed()
    for entry in entries:
        entry.refresh_from_db()
    return entries


def test_the_hold_passes_to_the_next_in_line_exactly_when_it_runs_out(mailbox, taken, court, ada, bob):
    first, second = offered(taken, court, ada, bob)
    ends = first.offered_at + HOLD

    assert waitlist_pass_on(now=ends - timedelta(microseconds=1)) == 0
    assert (status_of(first), status_of(second)) == (Status.OFFERED, Status.WAITING)

    assert waitlist_pass_on(now=ends) == 1
    assert (status_of(first), status_of(second)) == (Status.LAPSED, Status.OFFERED)
    assert second.offered_at == ends
    assert second.offer_expires_at == ends + HOLD
    assert holder_of(court).offer_id == second.pk
    run_due_tasks()
    [mail] = mailbox.messages(to="bob@example.com")
    assert mail.subject.startswith(
        f"Centre Court is free on {date_format(tomorrow(), 'F j, Y')} at {slots_label(SLOT)}"
    )


def test_a_run_out_hold_with_nobody_next_frees_the_slot(taken, court, ada):
    [entry] = offered(taken, court, ada)

    assert waitlist_pass_on(now=entry.offer_expires_at) == 0

    assert status_of(entry) == Status.LAPSED
    assert not BookedSlot.objects.exists()


def test_a_run_out_hold_is_free_to_book_before_it_is_passed_on(taken, court, ada, bob, monkeypatch):
    [entry] = offered(taken, court, ada)
    later = entry.offer_expires_at
    day = entry.date  # tomorrow as it was: the hold may run out after midnight
    monkeypatch.setattr(timezone, "now", lambda: later)

    assert SLOT not in taken_slots(court_id=court.pk, date=day)
    booking = booking_request(user=bob, court=court, date=day, slots=[SLOT])

    assert holder_of(court, date=day).booking_id == booking.pk
    assert status_of(entry) == Status.LAPSED


# Booking the held slot


def test_the_person_offered_the_slot_books_it(taken, court, ada, bob):
    first, second = offered(taken, court, ada, bob)

    booking = booking_request(user=ada, court=court, date=tomorrow(), slots=[SLOT, "09:00-10:00"])

    assert booking.status == Booking.Status.PENDING
    assert holder_of(court).booking_id == booking.pk
    assert (status_of(first), status_of(second)) == (Status.BOOKED, Status.WAITING)


def test_nobody_else_can_book_a_held_slot(taken, court, ada, bob):
    offered(taken, court, ada)

    with pytest.raises(SlotTaken):
        booking_request(user=bob, court=court, date=tomorrow(), slots=[SLOT])

    assert holder_of(court).offer.user == ada


def test_a_late_payment_cannot_take_back_a_slot_held_for_someone(taken, court, ada):
    """An approved booking that expired unpaid: its slot went to the waitlist, so paying late
    cannot take it (the payment is refunded instead)."""
    approved = booking_approve(booking=taken, by=User.objects.create_user("boss@example.com", role="admin"))
    join(ada, court)
    Booking.objects.filter(pk=approved.pk).update(payment_due_at=timezone.now() - timedelta(minutes=1))
    bookings_expire()
    offer_freed()

    with pytest.raises(SlotTaken):
        booking_confirm(booking=approved, by=approved.user)


def test_a_booking_of_the_held_slot_cancelled_later_offers_it_to_the_next(taken, court, ada, bob):
    first, second = offered(taken, court, ada, bob)
    booking = booking_request(user=ada, court=court, date=tomorrow(), slots=[SLOT])

    booking_cancel(booking=booking, by=ada)
    offer_freed()

    assert (status_of(first), status_of(second)) == (Status.BOOKED, Status.OFFERED)


# Leaving


def test_leaving_while_offered_passes_the_slot_to_the_next_at_once(taken, court, ada, bob):
    first, second = offered(taken, court, ada, bob)

    waitlist_leave(user=ada, entry=first)
    assert status_of(first) == Status.LEFT
    assert not BookedSlot.objects.exists()
    offer_freed()

    assert status_of(second) == Status.OFFERED
    assert holder_of(court).offer_id == second.pk


def test_leaving_while_waiting_moves_the_others_up(taken, court, ada, bob):
    first, _second = join(ada, court), join(bob, court)

    waitlist_leave(user=ada, entry=first)

    assert status_of(first) == Status.LEFT
    assert [e.position for e in waitlist_of(user=bob)] == [1]
    assert holder_of(court).booking_id == taken.pk


def test_a_place_left_cannot_be_left_again(taken, court, ada):
    entry = join(ada, court)
    waitlist_leave(user=ada, entry=entry)

    with pytest.raises(Conflict):
        waitlist_leave(user=ada, entry=entry)


# The slot begins


def test_places_lapse_when_their_slot_begins(taken, court, ada, bob):
    first, second = join(ada, court), join(bob, court)
    free_by_cancel(taken)
    starts_at = Slot.parse(SLOT).starts_at(tomorrow())
    waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT], now=starts_at - timedelta(minutes=10))

    assert waitlist_pass_on(now=starts_at - timedelta(microseconds=1)) == 0
    assert (status_of(first), status_of(second)) == (Status.OFFERED, Status.WAITING)

    assert waitlist_pass_on(now=starts_at) == 0

    assert (status_of(first), status_of(second)) == (Status.LAPSED, Status.LAPSED)
    assert not BookedSlot.objects.exists()


def test_a_waiting_place_lapses_when_its_slot_begins_though_never_freed(taken, court, ada):
    entry = join(ada, court)
    starts_at = Slot.parse(SLOT).starts_at(tomorrow())

    waitlist_pass_on(now=starts_at - timedelta(microseconds=1))
    assert status_of(entry) == Status.WAITING

    waitlist_pass_on(now=starts_at)
    assert status_of(entry) == Status.LAPSED
    assert holder_of(court).booking_id == taken.pk


def test_a_free_slot_with_a_line_is_offered_by_the_periodic_run(taken, court, ada):
    """A slot freed while a place was being taken (no task then) is offered within a minute."""
    entry = join(ada, court)
    BookedSlot.objects.filter(booking=taken).delete()  # freed without the waitlist hearing of it

    assert waitlist_pass_on() == 1

    assert status_of(entry) == Status.OFFERED


def test_the_periodic_run_is_declared(settings):
    assert settings.PERIODIC_TASKS["bookings.waitlist.pass_on_waitlist_offers"] == 60


# The API


def api_join(client, court, *, slot=SLOT, date=None):
    body = {"courtId": court.pk, "date": (date or tomorrow()).isoformat(), "slot": slot}
    return client.post("/api/waitlist", body, content_type="application/json")


@pytest.fixture
def api_taken(court):
    """The slot taken by someone who is none of the `people`."""
    someone = User.objects.create_user("someone@example.com")
    return booking_request(user=someone, court=court, date=tomorrow(), slots=[SLOT])


@pytest.mark.parametrize(
    ("caller", "expected"),
    [("anonymous", 401), ("owner", 201), ("other", 201), ("member", 201), ("admin", 201)],
)
def test_anyone_signed_in_joins_a_line(people, court, api_taken, caller, expected):
    response = api_join(people[caller], court)

    assert response.status_code == expected, response.content
    if expected == 201:
        body = response.json()
        assert set(body) == {
            "id",
            "courtId",
            "courtName",
            "date",
            "slot",
            "status",
            "position",
            "offerExpiresAt",
            "bookUrl",
        }
        assert body["courtId"] == court.pk
        assert body["courtName"] == "Centre Court"
        assert (body["slot"], body["status"], body["position"]) == (SLOT, "waiting", 1)
        assert (body["offerExpiresAt"], body["bookUrl"]) == (None, None)


@pytest.mark.parametrize(
    ("slot", "days", "field"), [("07:00-08:00", 1, "slot"), (SLOT, -1, "date"), (SLOT, 400, "date")]
)
def test_a_join_with_a_bad_slot_or_day_answers_400_per_field(people, court, api_taken, slot, days, field):
    response = api_join(people["owner"], court, slot=slot, date=timezone.localdate() + timedelta(days=days))

    assert response.status_code == 400
    assert field in response.json()


def test_a_join_refused_by_the_line_answers_409(people, court, api_taken):
    assert api_join(people["owner"], court, slot="09:00-10:00").status_code == 409  # free
    assert api_join(people["owner"], court).status_code == 201
    assert api_join(people["owner"], court).status_code == 409  # twice


def test_a_join_for_an_unknown_court_answers_404(people, court):
    body = {"courtId": court.pk + 1000, "date": tomorrow().isoformat(), "slot": SLOT}

    assert people["owner"].post("/api/waitlist", body, content_type="application/json").status_code == 404


@pytest.mark.parametrize(
    ("caller", "expected"),
    [("anonymous", None), ("owner", ["ada"]), ("other", []), ("member", []), ("admin", [])],
)
def test_each_person_lists_only_their_own_places(people, court, api_taken, caller, expected):
    api_join(people["owner"], court)

    response = people[caller].get("/api/waitlist")

    if expected is None:
        assert response.status_code == 401
        return
    assert response.status_code == 200
    assert [entry["slot"] for entry in response.json()] == [SLOT] * len(expected)
    assert response["X-Total-Count"] == str(len(expected))


@pytest.mark.parametrize(
    ("caller", "expected"),
    [("anonymous", 401), ("owner", 200), ("other", 404), ("member", 404), ("admin", 404)],
)
def test_only_its_owner_leaves_a_place(people, court, api_taken, caller, expected):
    entry_id = api_join(people["owner"], court).json()["id"]

    response = people[caller].delete(f"/api/waitlist/{entry_id}")

    assert response.status_code == expected
    left = WaitlistEntry.objects.get(pk=entry_id).status == Status.LEFT
    assert left == (expected == 200)
    if expected == 200:
        assert response.json()["status"] == "left"
        assert people["owner"].delete(f"/api/waitlist/{entry_id}").status_code == 409


def test_an_offered_place_shows_until_when_and_where_to_book(people, court, api_taken):
    entry_id = api_join(people["owner"], court).json()["id"]
    free_by_cancel(api_taken)
    offer_freed()

    [body] = people["owner"].get("/api/waitlist").json()

    entry = WaitlistEntry.objects.get(pk=entry_id)
    assert (body["status"], body["position"]) == ("offered", None)
    assert body["bookUrl"] == f"/schedule?date={tomorrow().isoformat()}"
    assert datetime.fromisoformat(body["offerExpiresAt"]) == entry.offer_expires_at


# The page


def test_the_waitlist_page_needs_a_sign_in(client):
    response = client.get("/dashboard/waitlist")

    assert response.status_code == 302
    assert response["Location"].startswith("/login?next=")


def test_the_waitlist_page_lists_ones_own_places_with_leave_and_book_now(people, court, api_taken):
    other_court = CourtFactory(name="Hall B", slots=["10:00-11:00"])
    booking_request(user=api_taken.user, court=other_court, date=tomorrow(), slots=["10:00-11:00"])
    api_join(people["owner"], court)
    api_join(people["owner"], other_court, slot="10:00-11:00")
    api_join(people["other"], other_court, slot="10:00-11:00")
    free_by_cancel(api_taken)
    offer_freed()
    entry = WaitlistEntry.objects.get(court=court)
    until = timezone.localtime(entry.offer_expires_at).strftime("%H:%M")

    page = people["owner"].get("/dashboard/waitlist").content.decode()

    assert "My Waitlist" in page
    assert "Held for you until <time datetime=" in page
    assert f">{until}</time>" in page
    assert f'href="/schedule?date={tomorrow().isoformat()}">Book now</a>' in page
    assert "1st in line" in page
    assert page.count('data-island="waitlist-action"') == 2
    assert f"/api/waitlist/{entry.pk}" in page
    other = people["other"].get("/dashboard/waitlist").content.decode()
    assert "1st in line" not in other
    assert "2nd in line" in other
    assert "Held for you" not in other


def test_the_waitlist_page_says_when_one_waits_for_nothing(people):
    page = people["member"].get("/dashboard/waitlist").content.decode()

    assert "You are not on any waitlist." in page


def test_a_day_that_has_started_lapses_the_day_before_s_places_too(taken, court, ada):
    """Places for a past day (the worker was down) lapse on the next run."""
    entry = join(ada, court)
    later = datetime.combine(tomorrow() + timedelta(days=1), time(12), tzinfo=timezone.get_current_timezone())

    waitlist_pass_on(now=later)

    assert status_of(entry) == Status.LAPSED


# The day sheet


def cell_state(court, viewer, now=None) -> str:
    sheet = day_sheet(date=tomorrow(), viewer=viewer, now=now)
    [row] = [row for row in sheet.rows if row.court == court]
    return next(cell.state for cell in row.cells if cell.slot == SLOT)


def test_a_held_slot_is_held_on_the_day_sheet_for_its_offeree_taken_to_the_others(taken, court, ada, bob):
    [entry] = offered(taken, court, ada)

    assert cell_state(court, ada) == CellState.OFFERED
    assert cell_state(court, ada, now=entry.offer_expires_at) == CellState.FREE  # run out
    assert cell_state(court, bob) == CellState.TAKEN
    assert cell_state(court, AnonymousUser()) == CellState.TAKEN
    assert cell_state(court, None) == CellState.TAKEN
    assert cell_state(court, bob, now=entry.offer_expires_at) == CellState.FREE  # run out


def test_admins_read_the_waitlists_in_django_admin(people, court, api_taken):
    entry_id = api_join(people["owner"], court).json()["id"]

    page = people["admin"].get("/admin/bookings/waitlistentry/")

    assert page.status_code == 200
    assert "ada@example.com" in page.content.decode()
    one = people["admin"].get(f"/admin/bookings/waitlistentry/{entry_id}/change/").content.decode()
    assert "Save" not in one  # to read only
    assert people["owner"].get("/admin/bookings/waitlistentry/").status_code == 302


def test_the_day_sheet_offers_the_waitlist_of_a_taken_cell(people, court, api_taken):
    page = people["owner"].get(f"/schedule?date={tomorrow().isoformat()}").content.decode()

    assert f'data-sheet-join-court="{court.pk}" data-sheet-join-slot="{SLOT}"' in page


def test_the_day_sheet_offers_no_waitlist_beyond_the_persons_window(people, court):
    policy = policy_get()
    policy.advance_days_member = 60
    policy.save()
    day = timezone.localdate() + timedelta(days=40)
    mia = User.objects.get(email="mia@example.com")
    booking_request(user=mia, court=court, date=day, slots=[SLOT])

    page = people["owner"].get(f"/schedule?date={day.isoformat()}").content.decode()

    assert "Bookings for this day open on" in page
    assert "join the waitlist" not in page
    assert "data-sheet-join-court" not in page
    assert api_join(people["owner"], court, date=day).status_code == 400


def test_the_day_sheet_offers_no_waitlist_for_a_taken_slot_that_has_begun(people):
    today = timezone.localdate()
    early = CourtFactory(name="Early", slots=["00:00-01:00"])
    someone = User.objects.create_user("someone@example.com")
    booking = Booking.objects.create(
        user=someone,
        court=early,
        court_name="Early",
        date=today,
        slots=["00:00-01:00"],
        starts_at=Slot.parse("00:00-01:00").starts_at(today),
        price=early.price,
        status=Booking.Status.CONFIRMED,
    )
    BookedSlot.objects.create(booking=booking, court=early, date=today, slot="00:00-01:00")

    page = people["owner"].get(f"/schedule?date={today.isoformat()}").content.decode()

    assert "Taken" in page
    assert "data-sheet-join-court" not in page
    assert api_join(people["owner"], early, date=today, slot="00:00-01:00").status_code == 400
