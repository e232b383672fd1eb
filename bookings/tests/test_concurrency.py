"""No double booking, under load: many app processes racing for one slot meet at PostgreSQL."""

import threading
from collections import Counter

import pytest
from django.db import connections
from django.test import Client

from bookings.models import BookedSlot, Booking
from bookings.tests.factories import tomorrow
from courts.tests.factories import CourtFactory

RACERS = 24


@pytest.mark.django_db(transaction=True)
def test_of_many_simultaneous_requests_for_one_slot_exactly_one_wins(emulator):
    court = CourtFactory(slots=["08:00-09:00"])
    tokens = [emulator.sign_up(f"racer{n}@example.com")["idToken"] for n in range(RACERS)]
    start = threading.Barrier(RACERS)
    statuses = []

    def race(token: str) -> None:
        # Each thread has its own database connection, as separate app processes would.
        try:
            client = Client(headers={"Authorization": f"Bearer {token}"})
            body = {"courtId": court.pk, "slots": ["08:00-09:00"], "date": tomorrow().isoformat()}
            start.wait()
            statuses.append(client.post("/api/bookings", body, content_type="application/json").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=race, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert Counter(statuses) == {201: 1, 409: RACERS - 1}
    assert Booking.objects.count() == 1
    assert BookedSlot.objects.count() == 1
