import re
from decimal import Decimal

import pytest
import yaml
from django.test import Client

from accounts.models import User
from bookings.tests.factories import make_booking, tomorrow
from courts.models import Court
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db

VALID = {
    "name": "North Court",
    "type": "Tennis",
    "price": "25.50",
    "image": "https://images.example.com/north.jpg",
    "slots": ["08:00-09:00", "09:00-10:00"],
}
# A court added without slots (they are optional).
SPEC_FORM = {key: value for key, value in VALID.items() if key != "slots"}


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
        ({"price": "10000.01"}, "price"),
        ({"name": "x" * 101}, "name"),
        ({"image": "not a url"}, "image"),
        ({"slots": ["8-9"]}, "slots"),
        ({"slots": ["08:00-10:00", "09:00-11:00"]}, "slots"),
        ({"slots": "08:00-09:00"}, "slots"),
        ({"places": 0}, "places"),
        ({"places": 13}, "places"),
        ({"places": "two"}, "places"),
    ],
)
def test_bad_court_input_answers_400_per_field(sign_in_as, change, field):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    response = admin.post("/api/courts", {**VALID, **change}, content_type="application/json")

    assert response.status_code == 400
    assert field in response.json()
    assert Court.objects.count() == 0


def test_a_price_above_the_courts_bound_is_refused_under_price_and_a_bands_under_its_band(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    band = {"weekdays": [0], "starts": "17:00", "ends": "21:00", "price": "10000.01"}

    court = admin.post("/api/courts", {**VALID, "price": "20000"}, content_type="application/json")
    banded = admin.post("/api/courts", {**VALID, "priceBands": [band]}, content_type="application/json")

    assert (court.status_code, banded.status_code) == (400, 400)
    refusal = "Ensure this value is less than or equal to 10000."
    assert court.json() == {"price": [refusal]}
    assert banded.json() == {"priceBands": [f"Band 1: price: {refusal}"]}
    assert Court.objects.count() == 0


def test_a_court_has_places_for_four_players_unless_an_admin_says_otherwise(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    doubles = admin.post("/api/courts", VALID, content_type="application/json")
    singles = admin.post("/api/courts", {**VALID, "places": 2}, content_type="application/json")

    assert (doubles.json()["places"], singles.json()["places"]) == (4, 2)
    changed = admin.patch(singles.json()["url"], {"places": 1}, content_type="application/json")
    assert changed.json()["places"] == 1


def test_a_court_added_without_slots_has_none_until_an_admin_adds_them(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    created = admin.post("/api/courts", SPEC_FORM, content_type="application/json")

    assert created.status_code == 201, created.content
    assert created.json()["slots"] == []
    changed = admin.patch(created.json()["url"], {"slots": ["08:00-09:00"]}, content_type="application/json")
    assert changed.json()["slots"] == ["08:00-09:00"]


def test_slots_may_be_sent_as_available_slots(sign_in_as):
    """Clients may name them availableSlots."""
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    created = admin.post(
        "/api/courts", {**SPEC_FORM, "availableSlots": ["10:00-11:00"]}, content_type="application/json"
    )
    changed = admin.patch(
        created.json()["url"], {"availableSlots": ["11:00-12:00"]}, content_type="application/json"
    )

    assert (created.status_code, created.json()["slots"]) == (201, ["10:00-11:00"])
    assert (changed.status_code, changed.json()["slots"]) == (200, ["11:00-12:00"])


@pytest.mark.parametrize(
    "slots",
    [
        {"availableSlots": ["8-9"]},
        {"availableSlots": "08:00-09:00"},
        {"slots": ["08:00-09:00"], "availableSlots": ["09:00-10:00"]},
    ],
)
def test_bad_available_slots_answer_400_under_that_name(sign_in_as, slots):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    response = admin.post("/api/courts", {**SPEC_FORM, **slots}, content_type="application/json")

    assert response.status_code == 400
    assert list(response.json()) == ["availableSlots"]
    assert Court.objects.count() == 0


def test_the_schema_says_what_a_court_input_must_look_like(client):
    """Generated courts (e2e/test_fuzzing.py) pass the validators only if the schema gives the image
    its shape and the price its minimum; otherwise each is refused with a 400, and an error in the
    service behind them (a court without slots) goes unseen."""
    court = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]["CourtInputRequest"]

    properties = court["properties"]
    assert (properties["price"]["type"], properties["price"]["minimum"]) == ("number", 0.01)
    for image in ("/static/img/courts/tennis.svg", "https://images.example.com/north.jpg"):
        assert re.search(properties["image"]["pattern"], image)
    assert not re.search(properties["image"]["pattern"], "not a url")
    assert re.search(properties["slots"]["items"]["pattern"], "08:00-09:00")
    assert not re.search(properties["slots"]["items"]["pattern"], "8-9")
    assert "slots" not in court["required"]


def test_a_court_with_bookings_is_archived_not_deleted(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    booking = make_booking()

    response = admin.delete(f"/api/courts/{booking.court_id}")

    assert response.json() == {"deleted": False, "archived": True}
    booking.refresh_from_db()
    assert booking.court.is_archived
    assert Client().get("/api/courts").json() == []


def test_only_admins_restore_an_archived_court(caller):
    kind, client = caller
    court = CourtFactory(name="Busy Court", is_archived=True)
    expected = {"anonymous": 401, "user": 403, "member": 403, "admin": 200}[kind]

    response = client.post(f"/api/courts/{court.pk}/restore")

    court.refresh_from_db()
    assert response.status_code == expected
    assert court.is_archived is (kind != "admin")
    listed = [c["name"] for c in Client().get("/api/courts").json()]
    assert ("Busy Court" in listed) is (kind == "admin")
    if kind == "admin":
        assert response.json()["name"] == "Busy Court"
        assert response.json()["url"] == f"/api/courts/{court.pk}"


def test_a_restored_court_can_be_changed_and_booked_again(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    booking = make_booking()
    admin.delete(f"/api/courts/{booking.court_id}")

    restored = admin.post(f"/api/courts/{booking.court_id}/restore")
    changed = admin.patch(f"/api/courts/{booking.court_id}", {"price": "30"}, content_type="application/json")

    assert restored.json()["hasBookings"] is True
    assert (changed.status_code, changed.json()["price"]) == (200, "30.00")
    court = Court.objects.get(pk=booking.court_id)
    assert make_booking(court=court, slots=court.slots[1:2]).court == court  # refused while archived


def test_restoring_an_open_court_leaves_it_open_and_an_unknown_one_answers_404(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    court = CourtFactory()

    again = admin.post(f"/api/courts/{court.pk}/restore")
    unknown = admin.post(f"/api/courts/{court.pk + 1}/restore")

    assert (again.status_code, again.json()["id"]) == (200, court.pk)
    assert unknown.status_code == 404


def test_an_admins_court_says_whether_deleting_it_would_archive_it(sign_in_as):
    """Manage Courts' delete question says what will happen: hasBookings is the rule court_delete
    applies."""
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    created = admin.post("/api/courts", VALID, content_type="application/json").json()
    booked = make_booking().court

    changed = admin.patch(f"/api/courts/{booked.pk}", {"price": "30"}, content_type="application/json")

    assert created["hasBookings"] is False
    assert changed.json()["hasBookings"] is True
    assert admin.delete(created["url"]).json() == {"deleted": True, "archived": False}
    assert admin.delete(f"/api/courts/{booked.pk}").json() == {"deleted": False, "archived": True}


def test_the_public_list_does_not_say_which_courts_have_bookings(client):
    make_booking()

    assert {"hasBookings", "restoreUrl"}.isdisjoint(client.get("/api/courts").json()[0])


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


def test_listing_courts_costs_the_same_queries_however_many(client, django_assert_num_queries):
    CourtFactory()
    with django_assert_num_queries(2):  # the courts, their bands; the total is the short slice's end
        assert len(client.get("/api/courts").json()) == 1

    CourtFactory.create_batch(30)

    with django_assert_num_queries(2):
        assert len(client.get("/api/courts", {"limit": 100}).json()) == 31
    with django_assert_num_queries(3):  # and the total, counted
        assert len(client.get("/api/courts", {"limit": 5, "offset": 5}).json()) == 5
