"""The limits that keep a court fair: no slot that has begun, a cap on one person's open bookings,
requests that expire when nobody decides on them, and no approval for a closed court."""

import threading
from collections import Counter
from datetime import date, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.selectors import policy_get
from bookings.services import (
    Conflict,
    booking_approve,
    booking_cancel,
    booking_request,
    bookings_expire,
    policy_update,
)
from bookings.tests.factories import approved_at, lift_hour_limits, make_booking, tomorrow
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db
Status = Booking.Status
SLOTS = ["08:00-09:00", "19:00-20:00", "20:00-21:00", "21:00-22:00"]


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com")


@pytest.fixture
def court():
    return CourtFactory(name="Centre Court", slots=SLOTS)


@pytest.mark.parametrize("slot", ["08:00-09:00", "21:00-22:00"])
def test_a_slot_that_began_earlier_today_in_the_clubs_time_zone_is_refused(
    ada, court, evening_in_new_york, slot
):
    with pytest.raises(ValidationError) as refused:
        booking_request(user=ada, court=court, date=evening_in_new_york, slots=[slot])

    assert refused.value.message_dict == {"slots": [f"Too late to book: {slot} has already started."]}
    assert Booking.objects.count() == 0


def test_tomorrows_early_slot_is_still_bookable_late_in_the_evening(ada, court, evening_in_new_york):
    booking = booking_request(user=ada, court=court, date=date(2026, 6, 2), slots=["08:00-09:00"])

    assert booking.status == Status.PENDING


def test_availability_names_the_slots_that_have_begun(client, court, evening_in_new_york):
    response = client.get(f"/api/courts/{court.pk}/availability?date=2026-06-01")
    tomorrows = client.get(f"/api/courts/{court.pk}/availability?date=2026-06-02")

    assert response.status_code == 200
    assert response.json()["past"] == SLOTS
    assert tomorrows.json()["past"] == []


def test_one_person_holds_at_most_the_open_booking_limit(ada, court):
    policy_update(open_bookings_limit=2)
    first = booking_request(user=ada, court=court, date=tomorrow(), slots=[SLOTS[0]])
    booking_request(user=ada, court=court, date=tomorrow(), slots=[SLOTS[1]])

    with pytest.raises(Conflict, match="You already have 2 open bookings"):
        booking_request(user=ada, court=court, date=tomorrow(), slots=[SLOTS[2]])

    booking_cancel(booking=first, by=ada)
    assert booking_request(user=ada, court=court, date=tomorrow(), slots=[SLOTS[2]]).status == Status.PENDING


def test_confirmed_and_overdue_bookings_do_not_count_as_open(ada, court):
    policy_update(open_bookings_limit=1)
    make_booking(user=ada, court=court, slots=[SLOTS[0]], status=Status.CONFIRMED)
    overdue = make_booking(user=ada, court=court, slots=[SLOTS[1]], status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(**approved_at(timezone.now() - timedelta(days=2)))

    assert booking_request(user=ada, court=court, date=tomorrow(), slots=[SLOTS[2]]).status == Status.PENDING


def test_the_api_answers_409_with_the_reason_past_the_limit(people, court):
    policy_update(open_bookings_limit=1)

    def request(slot):
        body = {"courtId": court.pk, "slots": [slot], "date": tomorrow().isoformat()}
        return people["owner"].post("/api/bookings", body, content_type="application/json")

    assert request(SLOTS[0]).status_code == 201
    refused = request(SLOTS[1])

    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("You already have 1 open bookings")


@pytest.mark.django_db(transaction=True)
def test_simultaneous_requests_of_one_person_never_pass_the_limit(emulator):
    lift_hour_limits()  # an hour each: only the number of open bookings is counted here
    court = CourtFactory(slots=[f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 20)])
    token = emulator.sign_up("ada@example.com")["idToken"]
    start = threading.Barrier(len(court.slots))
    statuses = []

    def request(slot: str) -> None:
        try:
            client = Client(headers={"Authorization": f"Bearer {token}"})
            body = {"courtId": court.pk, "slots": [slot], "date": tomorrow().isoformat()}
            start.wait()
            statuses.append(client.post("/api/bookings", body, content_type="application/json").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=request, args=(slot,)) for slot in court.slots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert Counter(statuses) == {201: policy_get().open_bookings_limit, 409: len(court.slots) - 4}
    assert Booking.objects.count() == policy_get().open_bookings_limit


def test_a_request_nobody_decides_on_expires_after_the_decision_window(ada, court):
    policy_update(decision_window_hours=48)
    waited = make_booking(user=ada, court=court, date=tomorrow() + timedelta(days=5), slots=[SLOTS[0]])
    Booking.objects.filter(pk=waited.pk).update(created_at=timezone.now() - timedelta(hours=49))
    recent = make_booking(user=ada, court=court, date=tomorrow() + timedelta(days=5), slots=[SLOTS[1]])

    assert bookings_expire() == 1

    assert dict(Booking.objects.values_list("pk", "status")) == {waited.pk: "expired", recent.pk: "pending"}
    assert not BookedSlot.objects.filter(booking=waited).exists()
    assert waited.history.last().from_status == "pending"


def test_a_request_nobody_decided_on_expires_when_its_first_slot_begins(ada, court, monkeypatch):
    booking = make_booking(user=ada, court=court, slots=["19:00-20:00", "20:00-21:00"])
    start = timezone.make_aware(datetime.combine(booking.date, datetime.min.time())) + timedelta(hours=19)
    monkeypatch.setattr(timezone, "now", lambda: start - timedelta(minutes=1))
    assert bookings_expire() == 0

    monkeypatch.setattr(timezone, "now", lambda: start)

    assert bookings_expire() == 1
    booking.refresh_from_db()
    assert booking.status == Status.EXPIRED


def test_approving_a_request_past_its_deadline_expires_it_and_says_so(ada, court):
    booking = make_booking(user=ada, court=court, slots=[SLOTS[0]])
    Booking.objects.filter(pk=booking.pk).update(created_at=timezone.now() - timedelta(days=3))
    booking.refresh_from_db()

    with pytest.raises(Conflict, match="waited too long for a decision"):
        booking_approve(booking=booking, by=ada)

    booking.refresh_from_db()
    assert booking.status == Status.EXPIRED


def test_a_request_for_an_archived_court_cannot_be_approved(people, court):
    booking = make_booking(court=court)
    court.is_archived = True
    court.save()

    response = people["admin"].patch(f"/api/bookings/approve/{booking.pk}")

    assert response.status_code == 409
    assert "closed for booking" in response.json()["detail"]
    booking.refresh_from_db()
    assert booking.status == Status.PENDING
