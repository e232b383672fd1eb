"""A block and bookings racing for the same slot meet at PostgreSQL: exactly one of them holds it,
never two, whichever commits first."""

from collections import Counter

import pytest

from accounts.models import User
from bookings.blocks import block_create
from bookings.models import Block, BookedSlot, Booking
from bookings.services import booking_request
from bookings.tests.factories import tomorrow
from courts.tests.factories import CourtFactory
from kernel.errors import Conflict
from testing import concurrency

ROUNDS = 8
BOOKERS = 4
BLOCKERS = 2


def at_once(calls: list) -> list[str]:
    """Runs the calls at the same moment, as separate app processes would; answers "won" or "lost"
    (a Conflict) for each."""
    answers = concurrency.at_once(calls, timeout=60)
    assert not [a for a in answers if isinstance(a, BaseException) and not isinstance(a, Conflict)]
    return ["lost" if isinstance(answer, Conflict) else "won" for answer in answers]


def blocking(admin: User, court, slot: str):
    return lambda: block_create(by=admin, court=court, date=tomorrow(), slots=[slot], reason="Works")


def booking(person: User, court, slot: str):
    return lambda: booking_request(user=person, court=court, date=tomorrow(), slots=[slot])


@pytest.mark.django_db(transaction=True)
def test_a_block_and_bookings_racing_for_a_slot_never_both_hold_it():
    slots = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 8 + ROUNDS)]
    court = CourtFactory(slots=slots)
    admins = [User.objects.create_user(f"admin{n}@example.com", role="admin") for n in range(BLOCKERS)]
    people = [User.objects.create_user(f"racer{n}@example.com") for n in range(BOOKERS * ROUNDS)]
    winners = Counter()

    for round, slot in enumerate(slots):
        bookers = people[round * BOOKERS : (round + 1) * BOOKERS]
        calls = [blocking(admin, court, slot) for admin in admins]
        calls += [booking(person, court, slot) for person in bookers]
        outcomes = at_once(calls)

        assert "" not in outcomes, "every call ended, won or refused"
        assert outcomes.count("won") == 1, outcomes
        holder = BookedSlot.objects.get(court=court, date=tomorrow(), slot=slot)
        won_by_a_block = outcomes.index("won") < BLOCKERS
        assert (holder.block_id is not None) == won_by_a_block
        winners["block" if won_by_a_block else "booking"] += 1

    assert BookedSlot.objects.count() == ROUNDS
    assert Block.objects.count() == winners["block"]
    assert Booking.objects.count() == winners["booking"]
