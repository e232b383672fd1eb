from decimal import Decimal

import pytest
from django.test import Client

from accounts.models import User
from bookings.tests.factories import make_booking, tomorrow
from courts.models import Court
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db

ROLES = {"user": User.Role.USER, "member": User.Role.MEMBER, "admin": User.Role.ADMIN}
VALID = {
    "name": "North Court",
    "type": "Tennis",
    "price": "25.50",
    "image": "https://images.example.com/north.jpg",
    "slots": ["08:00-09:00", "09:00-10:00"],
}


@pytest.fixture(params=["anonymous", "user", "member", "admin"])
def caller(request, sign_in_as):
    kind = request.param
    return kind, Client() if kind == "anonymous" else sign_in_as(f"{kind}@example.com", ROLES[kind])


def test_anyone_lists_the_open_courts(caller):
    _, client = caller
    CourtFactory(name="Open", price=Decimal("12"))
    CourtFactory(name="Gone", is_archived=True)

    response = client.get("/api/courts")

    assert response.status_code == 200
    assert [(c["name"], c["price"]) for c in response.json()] == [("Open", "12.00")]


def test_only_admins_add_change_and_delete_courts(caller):
    kind, client = caller
    court = CourtFactory()
    expected = {"anonymous": 401, "user": 403, "member": 403, "admin": None}[kind]

    created = client.post("/api/courts", VALID, content_type="application/json")
    changed = client.patch(f"/api/courts/{court.pk}", {"price": "30"}, content_type="application/json")
    deleted = client.delete(f"/api/courts/{court.pk}")

    if expected:
        assert (created.status_code, changed.status_code, deleted.status_code) == (expected,) * 3
        assert Court.objects.count() == 1
    else:
        assert (created.status_code, changed.status_code, deleted.status_code) == (201, 200, 200)
        assert created.json()["name"] == "North Court"
        assert changed.json()["price"] == "30.00"
        assert deleted.json() == {"deleted": True, "archived": False}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"type": "  "}, "type"),
        ({"price": "0"}, "price"),
        ({"price": "-5"}, "price"),
        ({"price": "ten"}, "price"),
        ({"image": "not a url"}, "image"),
        ({"slots": ["8-9"]}, "slots"),
        ({"slots": ["08:00-10:00", "09:00-11:00"]}, "slots"),
        ({"slots": "08:00-09:00"}, "slots"),
    ],
)
def test_bad_court_input_answers_400_per_field(sign_in_as, change, field):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    response = admin.post("/api/courts", {**VALID, **change}, content_type="application/json")

    assert response.status_code == 400
    assert field in response.json()
    assert Court.objects.count() == 0


def test_a_court_with_bookings_is_archived_not_deleted(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    booking = make_booking()

    response = admin.delete(f"/api/courts/{booking.court_id}")

    assert response.json() == {"deleted": False, "archived": True}
    booking.refresh_from_db()
    assert booking.court.is_archived
    assert Client().get("/api/courts").json() == []


def test_availability_lists_the_taken_slots_of_a_day(caller):
    _, client = caller
    court = CourtFactory(slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"])
    make_booking(court=court, slots=["09:00-10:00"])

    response = client.get(f"/api/courts/{court.pk}/availability", {"date": tomorrow().isoformat()})

    assert response.status_code == 200
    assert response.json()["taken"] == ["09:00-10:00"]
    assert response.json()["slots"] == court.slots


@pytest.mark.parametrize("date", ["", "tomorrow", "2026-13-01"])
def test_availability_needs_a_date(client, date):
    court = CourtFactory()

    response = client.get(f"/api/courts/{court.pk}/availability", {"date": date})

    assert response.status_code == 400
    assert "date" in response.json()


def test_listing_courts_costs_one_query_however_many(client, django_assert_num_queries):
    CourtFactory.create_batch(30)

    with django_assert_num_queries(1):
        assert len(client.get("/api/courts").json()) == 30
