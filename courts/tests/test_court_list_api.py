"""GET /api/courts: every change to a court, however it is made, shows at once; conditional
requests get a 304 while nothing changed (Django's conditional_page); the slice contract of every
list holds (kernel/pagination.py)."""

import gzip
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from bookings.tests.factories import make_booking
from courts.services import court_create, court_delete, court_update
from courts.tests.factories import CourtFactory, admin_form

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [court["name"] for court in response.json()]


@pytest.fixture
def client():
    """An anonymous visitor."""
    return Client()


@pytest.fixture
def courts():
    return [CourtFactory(type="Tennis", name=f"Court {number}") for number in range(1, 4)]


def test_a_court_added_changed_archived_or_deleted_through_the_services_shows_at_once(client, courts):
    assert names(client.get("/api/courts")) == ["Court 1", "Court 2", "Court 3"]

    added = court_create(name="Court 4", type="Tennis", price=Decimal(10), image="/static/x.svg")
    assert names(client.get("/api/courts")) == ["Court 1", "Court 2", "Court 3", "Court 4"]

    court_update(court=courts[0], name="Centre Court", price=Decimal("44.50"))
    response = client.get("/api/courts")
    assert names(response)[0] == "Centre Court"
    assert response.json()[0]["price"] == "44.50"

    CourtFactory(type="Tennis", name="Court 5")
    assert "Court 5" in names(client.get("/api/courts"))

    booked = courts[1]
    make_booking(court=booked)
    assert court_delete(court=booked) is False  # archived: it has a booking
    assert "Court 2" not in names(client.get("/api/courts"))

    assert court_delete(court=added) is True
    assert names(client.get("/api/courts")) == ["Centre Court", "Court 3", "Court 5"]


def test_a_change_through_the_api_shows_at_once(client, courts, sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    assert len(client.get("/api/courts").json()) == 3

    admin.patch(f"/api/courts/{courts[2].pk}", {"name": "Court 0"}, content_type="application/json")
    assert names(client.get("/api/courts")) == ["Court 0", "Court 1", "Court 2"]

    admin.delete(f"/api/courts/{courts[0].pk}")
    assert names(client.get("/api/courts")) == ["Court 0", "Court 2"]


def test_a_change_in_django_admin_shows_at_once(client, courts, sign_in_as):
    """Django admin saves and deletes through the courts' services (its bulk delete one court at a
    time)."""
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    assert len(client.get("/api/courts").json()) == 3
    court = courts[0]

    admin.post(f"/admin/courts/court/{court.pk}/change/", admin_form(court, name="Renamed"))
    assert "Renamed" in names(client.get("/api/courts"))

    admin.post(
        "/admin/courts/court/",
        {"action": "delete_selected", "_selected_action": [courts[1].pk, courts[2].pk], "post": "yes"},
    )
    assert names(client.get("/api/courts")) == ["Renamed"]

    admin.post(f"/admin/courts/court/{court.pk}/delete/", {"post": "yes"})
    assert names(client.get("/api/courts")) == []


def test_a_matching_etag_gets_a_304_and_a_change_a_200_with_the_new_list(client, courts):
    first = client.get("/api/courts")
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert first["Cache-Control"] == "no-cache"

    again = client.get("/api/courts", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    weak = client.get("/api/courts", HTTP_IF_NONE_MATCH=f"W/{etag}")  # as after gzip
    assert weak.status_code == 304

    court_update(court=courts[0], name="Court 9")

    changed = client.get("/api/courts", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert names(changed) == ["Court 2", "Court 3", "Court 9"]
    assert changed["ETag"] != etag
    assert client.get("/api/courts", HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304


def test_a_signed_in_caller_gets_the_same_list_and_validators(client, courts, sign_in_as):
    anonymous = client.get("/api/courts")
    ada = sign_in_as("ada@example.com")

    signed_in = ada.get("/api/courts")

    assert signed_in.content == anonymous.content
    assert signed_in["ETag"] == anonymous["ETag"]
    assert ada.get("/api/courts", HTTP_IF_NONE_MATCH=anonymous["ETag"]).status_code == 304


def test_slices_keep_the_list_contract(client, courts):
    CourtFactory.create_batch(4, type="Tennis")  # seven in all
    whole = client.get("/api/courts").json()

    response = client.get("/api/courts", {"limit": 3, "offset": 3})

    assert response.json() == whole[3:6]
    assert response["X-Total-Count"] == "7"
    assert response["Content-Type"] == "application/json"
    found = re.findall(r'<http://testserver([^>]+)>; rel="(\w+)"', response["Link"])
    links = {rel: target for target, rel in found}
    assert links == {
        "first": "/api/courts?limit=3&offset=0",
        "prev": "/api/courts?limit=3&offset=0",
        "next": "/api/courts?limit=3&offset=6",
        "last": "/api/courts?limit=3&offset=6",
    }
    other = client.get("/api/courts", {"limit": 3, "offset": 0})
    assert other.json() == whole[:3]
    assert other["ETag"] != response["ETag"]
    past = client.get("/api/courts", {"offset": 50})
    assert (past.json(), past["X-Total-Count"]) == ([], "7")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"offset": -1}, "offset"),
        ({"limit": "x"}, "limit"),
        ({"offset": 10**9 + 1}, "offset"),
    ],
)
def test_bad_numbers_are_a_400_that_says_why(client, courts, query, field):
    response = client.get("/api/courts", query)

    assert response.status_code == 400
    assert field in response.json()


def test_the_api_reads_keep_their_security_headers(client, courts):
    response = client.get("/api/courts")

    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Allow"] == "GET, POST, HEAD, OPTIONS"


def test_writes_to_the_list_still_need_an_admin_and_csrf(client, courts, sign_in_as):
    assert client.post("/api/courts", {}, content_type="application/json").status_code == 401
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    checked = Client(enforce_csrf_checks=True)
    checked.cookies = admin.cookies
    response = checked.post(
        "/api/courts",
        {"name": "X", "type": "Tennis", "price": "5", "image": "/static/x.svg"},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_a_client_that_accepts_gzip_gets_the_list_compressed_with_a_weak_etag(client, courts):
    CourtFactory.create_batch(3, type="Squash")
    plain = client.get("/api/courts")

    compressed = client.get("/api/courts", HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert "Accept-Encoding" in compressed["Vary"]
    assert compressed["ETag"] == f"W/{plain['ETag']}"
    assert compressed["X-Total-Count"] == plain["X-Total-Count"] == "6"
    again = client.get("/api/courts", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=compressed["ETag"])
    assert again.status_code == 304


def test_an_api_read_neither_reads_nor_writes_the_session_nor_shows_a_message(courts, sign_in_as):
    """Django's session middleware is lazy: nothing on an API read asks for the session, so it is
    not read (no query, no Vary: Cookie) and not saved, and a message waiting for the next page
    stays for it."""
    ada = sign_in_as("ada@example.com")  # signing in leaves a greeting for the next page
    waiting = ada.cookies.get("messages")

    with CaptureQueriesContext(connection) as queries:
        response = ada.get("/api/courts")

    assert response.status_code == 200
    assert not any("django_session" in query["sql"] for query in queries)
    assert "Cookie" not in response.get("Vary", "")
    assert "sessionid" not in response.cookies
    assert "messages" not in response.cookies
    assert ada.cookies.get("messages") == waiting
