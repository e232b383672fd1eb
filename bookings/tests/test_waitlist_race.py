"""One offer per freed slot, under load: many workers offering, passing on and freeing the same slot
at once (each thread with its own database connection, as separate processes would) meet at
PostgreSQL's one-holder-per-slot constraint."""

import contextlib
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, WaitlistEntry
from bookings.services import SlotTaken, booking_cancel, booking_request
from bookings.tests.factories import tomorrow
from bookings.waitlist import slot_freed, waitlist_leave, waitlist_offer, waitlist_pass_on
from courts.tests.factories import CourtFactory
from notifications.models import Notification
from testing.concurrency import at_once

SLOT = "08:00-09:00"
RACERS = 16
Status = WaitlistEntry.Status


def race(*calls: Callable[[], object]) -> list[BaseException]:
    """Runs the calls at the same moment, as separate app processes would; answers the errors raised."""
    return [answer for answer in at_once(list(calls), timeout=60) if isinstance(answer, BaseException)]


@pytest.fixture
def line():
    """A slot taken by Ann's booking, and five people waiting for it, in order."""
    court = CourtFactory(slots=[SLOT])
    ann = User.objects.create_user("ann@example.com")
    booking = booking_request(user=ann, court=court, date=tomorrow(), slots=[SLOT])
    people = [User.objects.create_user(f"waiter{n}@example.com") for n in range(5)]
    entries = [
        WaitlistEntry.objects.create(user=person, court=court, date=tomorrow(), slot=SLOT)
        for person in people
    ]
    return court, booking, entries


def offer(court) -> Callable[[], int]:
    return lambda: waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT])


def free(court) -> Callable[[], None]:
    """What a block lifted, or a booking given up, does: the freeing transaction, then its task."""

    def call() -> None:
        with transaction.atomic():
            slot_freed(court_id=court.pk, date=tomorrow(), slots=[SLOT])
        waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT])

    return call


def assert_one_offer_to(entry) -> None:
    offered = WaitlistEntry.objects.filter(status=Status.OFFERED)
    assert list(offered.values_list("pk", flat=True)) == [entry.pk]
    assert list(BookedSlot.objects.values_list("offer_id", flat=True)) == [entry.pk]
    assert Notification.objects.filter(event="waitlist_offer", about=f"waitlist:{entry.pk}").count() == 1
    assert Notification.objects.filter(event="waitlist_offer").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_freed_slot_offered_by_many_workers_at_once_is_offered_once_to_the_first(line):
    court, booking, entries = line
    booking_cancel(booking=booking, by=booking.user)

    calls = [offer(court), free(court), lambda: waitlist_pass_on()] * (RACERS // 3)
    errors = race(*calls)

    assert errors == []
    assert_one_offer_to(entries[0])
    assert WaitlistEntry.objects.filter(status=Status.WAITING).count() == len(entries) - 1


@pytest.mark.django_db(transaction=True)
def test_a_cancellation_racing_the_offers_ends_in_one_offer(line):
    """The offers start while the booking still holds the slot: those before its cancellation
    commits find it held; the cancellation's own task (and any later run) offers it once."""
    court, booking, entries = line

    errors = race(lambda: booking_cancel(booking=booking, by=booking.user), *[offer(court)] * (RACERS - 1))
    for _ in range(2):  # the worker, after the race: the cancellation's task, and the periodic run
        waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT])
        waitlist_pass_on()

    assert errors == []
    assert_one_offer_to(entries[0])


@pytest.mark.django_db(transaction=True)
def test_a_run_out_offer_passed_on_by_many_workers_at_once_goes_to_the_next_once(line):
    court, booking, entries = line
    booking_cancel(booking=booking, by=booking.user)
    waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT])
    later = timezone.now() + timedelta(minutes=30)

    errors = race(*[lambda: waitlist_pass_on(now=later)] * (RACERS // 2), *[offer(court)] * (RACERS // 2))

    assert errors == []
    assert WaitlistEntry.objects.get(pk=entries[0].pk).status == Status.LAPSED
    offered = WaitlistEntry.objects.filter(status=Status.OFFERED)
    assert list(offered.values_list("pk", flat=True)) == [entries[1].pk]
    assert list(BookedSlot.objects.values_list("offer_id", flat=True)) == [entries[1].pk]
    assert Notification.objects.filter(event="waitlist_offer").count() == 2  # the first's, and this one


@pytest.mark.django_db(transaction=True)
def test_leaving_an_offer_while_others_book_and_offer_ends_with_one_holder(line):
    """The offered person leaves while others try to book the slot and workers offer it: whoever
    wins, the slot has one holder, and at most one offer stands."""
    court, booking, entries = line
    booking_cancel(booking=booking, by=booking.user)
    waitlist_offer(court_id=court.pk, date=tomorrow(), slots=[SLOT])
    bookers = [User.objects.create_user(f"booker{n}@example.com") for n in range(4)]

    def book(person):
        def call():
            with contextlib.suppress(SlotTaken):  # refused while the slot is held
                booking_request(user=person, court=court, date=tomorrow(), slots=[SLOT])

        return call

    first = WaitlistEntry.objects.get(pk=entries[0].pk)
    errors = race(
        lambda: waitlist_leave(user=first.user, entry=first),
        *[book(person) for person in bookers],
        *[offer(court)] * 6,
    )

    assert errors == []
    assert BookedSlot.objects.count() == 1
    assert WaitlistEntry.objects.filter(status=Status.OFFERED).count() <= 1
    holder = BookedSlot.objects.get()
    if holder.offer_id:
        assert holder.offer.status == Status.OFFERED
