"""The limits that keep one person from holding the club without paying: hours of unpaid bookings
a day and a week, and a wait before they request again the slots they have just let go (by
withdrawing or cancelling, or by letting the payment window or checkout hold run out)."""

import threading
from collections import Counter
from datetime import date, timedelta

import pytest
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.services import Conflict, booking_cancel, booking_reject, booking_request, policy_update
from bookings.tests.factories import tomorrow
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db
Status = Booking.Status

WHOLE_DAY = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 21)]  # 13 slots


@pytest.fixture
def clock(evening_in_new_york, monkeypatch):
    """The New York evening (Monday 1 June 2026, 21:30), moved on with `clock(minutes=…)`."""
    start = timezone.now()

    def move(**elapsed):
        monkeypatch.setattr(timezone, "now", lambda: start + timedelta(**elapsed))

    return move


@pytest.fixture
def court():
    return CourtFactory(name="Centre Court", slots=WHOLE_DAY)


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com")


def request(client, court, day, slots):
    body = {"courtId": court.pk, "date": day.isoformat(), "slots": slots}
    return client.post("/api/bookings", body, content_type="application/json")


# --- Hours of unpaid bookings -------------------------------------------------------------------


def test_one_new_account_cannot_hold_four_courts_for_a_whole_day(sign_in_as):
    newcomer = sign_in_as("new@example.com")  # e-mail not verified, no booking ever paid
    courts = [CourtFactory(name=f"Court {number}", slots=WHOLE_DAY) for number in range(1, 5)]

    answers = [request(newcomer, court, tomorrow(), WHOLE_DAY) for court in courts]

    assert [answer.status_code for answer in answers] == [409] * 4
    assert answers[0].json()["detail"] == (
        "You may hold at most 3 hours of unpaid bookings a day, and these slots make 13: choose fewer slots."
    )
    assert not BookedSlot.objects.exists()
    # Three hours is a normal booking.
    assert request(newcomer, courts[0], tomorrow(), WHOLE_DAY[:3]).status_code == 201
    refused = request(newcomer, courts[1], tomorrow(), WHOLE_DAY[:1])
    assert refused.status_code == 409
    assert "you hold 3 on" in refused.json()["detail"]


def test_unpaid_hours_are_limited_a_week_and_paid_ones_do_not_count(ada, court, clock):
    tuesday, wednesday, thursday = date(2026, 6, 2), date(2026, 6, 3), date(2026, 6, 4)
    first = booking_request(user=ada, court=court, date=tuesday, slots=WHOLE_DAY[:3])
    booking_request(user=ada, court=court, date=wednesday, slots=WHOLE_DAY[:3])

    with pytest.raises(Conflict) as refused:
        booking_request(user=ada, court=court, date=thursday, slots=WHOLE_DAY[:1])

    assert str(refused.value) == (
        "You may hold at most 6 hours of unpaid bookings a week, and you hold 6 in the week of "
        "June 1, 2026 already: choose fewer slots, or pay for or cancel one of them first."
    )
    # The next week is another week; a paid booking is no longer open.
    assert booking_request(user=ada, court=court, date=date(2026, 6, 8), slots=WHOLE_DAY[:3])
    Booking.objects.filter(pk=first.pk).update(status=Status.CONFIRMED)
    assert booking_request(user=ada, court=court, date=thursday, slots=WHOLE_DAY[:3])


def test_an_admin_sets_or_lifts_the_unpaid_hours(ada, court):
    policy_update(daily_open_hours_limit=None, weekly_open_hours_limit=None)

    assert booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY).status == Status.PENDING


@pytest.mark.django_db(transaction=True)
def test_simultaneous_requests_of_one_person_never_pass_the_unpaid_hours(emulator):
    policy_update(open_bookings_limit=100)
    court = CourtFactory(slots=WHOLE_DAY)
    token = emulator.sign_up("ada@example.com")["idToken"]
    start = threading.Barrier(len(WHOLE_DAY))
    statuses = []

    def one_hour(slot: str) -> None:
        try:
            client = Client(headers={"Authorization": f"Bearer {token}"})
            start.wait()
            statuses.append(request(client, court, tomorrow(), [slot]).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one_hour, args=(slot,)) for slot in WHOLE_DAY]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert Counter(statuses) == {201: 3, 409: len(WHOLE_DAY) - 3}
    assert BookedSlot.objects.count() == 3


# --- The wait before requesting again -----------------------------------------------------------


def test_slots_a_person_cancelled_wait_before_they_request_them_again(people, court, clock):
    owner = people["owner"]
    booked = request(owner, court, date(2026, 6, 2), WHOLE_DAY[:2])
    booking_cancel(
        booking=Booking.objects.get(pk=booked.json()["id"]), by=User.objects.get(email="ada@example.com")
    )

    clock(minutes=9, seconds=59)
    again = request(owner, court, date(2026, 6, 2), WHOLE_DAY[1:3])

    assert again.status_code == 409
    assert again.json()["detail"] == (
        "You let 09:00-10:00 go less than 10 minutes ago: so that others can take it first, you can "
        "request it again from June 1, 2026, 9:40 PM."
    )
    # Other slots at once; the same ones once the wait is over.
    assert request(owner, court, date(2026, 6, 2), WHOLE_DAY[2:3]).status_code == 201
    clock(minutes=10)
    assert request(owner, court, date(2026, 6, 2), WHOLE_DAY[:2]).status_code == 201


def test_others_take_slots_let_go_at_once(ada, court, clock):
    booking_cancel(
        booking=booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1]), by=ada
    )
    bob = User.objects.create_user("bob@example.com")

    assert booking_request(user=bob, court=court, date=tomorrow(), slots=WHOLE_DAY[:1])


def test_slots_the_club_released_can_be_requested_again_at_once(ada, court, clock):
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    booking_reject(
        booking=booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1]), by=admin
    )
    booking_cancel(
        booking=booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1]), by=admin
    )

    assert booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1])


def test_a_checkout_hold_that_ran_out_is_not_renewed_at_once(ada, court, clock):
    policy_update(approval_required=False, checkout_hold_minutes=10)
    held = booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1])
    assert held.status == Status.APPROVED

    clock(minutes=10, seconds=1)  # the hold ran out at 21:40
    with pytest.raises(Conflict) as refused:
        booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1])

    assert str(refused.value) == (
        "You let 08:00-09:00 go less than 10 minutes ago: so that others can take it first, you can "
        "request it again from June 1, 2026, 9:50 PM."
    )
    clock(minutes=20)
    renewed = booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1])
    assert renewed.status == Status.APPROVED
    assert Booking.objects.get(pk=held.pk).status == Status.EXPIRED


def test_without_a_wait_slots_let_go_can_be_requested_again_at_once(ada, court, clock):
    policy_update(rerequest_cooldown_minutes=None)
    booking_cancel(
        booking=booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1]), by=ada
    )

    assert booking_request(user=ada, court=court, date=tomorrow(), slots=WHOLE_DAY[:1])
