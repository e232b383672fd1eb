"""GET /api/courts from a serialisation kept per app process for the list's current version:
every change to a court, however it is made, shows at once (to anonymous readers of another
process within COURT_LIST_RECHECK_SECONDS); conditional requests get a 304 while nothing changed;
the slice contract of every list holds (club/pagination.py)."""

import gzip
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from bookings.tests.factories import make_booking
from courts import selectors
from courts.models import Court, CourtListVersion
from courts.services import court_create, court_delete, court_update
from courts.tests.factories import CourtFactory, admin_form

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [court["name"] for court in response.json()]


@pytest.fixture
def client():
    """An anonymous visitor (no credentials: the list's short path)."""
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


def change_elsewhere(court: Court, name: str) -> None:
    """A change made by another app process: the row and the version, without this process's
    signals."""
    Court.objects.filter(pk=court.pk).update(name=name)
    CourtListVersion.objects.filter(pk=1).update(version=f"1-{name}")


@pytest.fixture
def clock(monkeypatch):
    """The monotonic clock the kept list is dated by, moved by hand."""
    now = [1000.0]
    monkeypatch.setattr(selectors.time, "monotonic", lambda: now[0])
    return now


def test_a_change_made_by_another_process_reaches_anonymous_readers_within_the_recheck_time(
    client, courts, clock, settings
):
    settings.COURT_LIST_RECHECK_SECONDS = 1.0
    assert len(client.get("/api/courts").json()) == 3

    change_elsewhere(courts[0], "Changed elsewhere")
    clock[0] += 0.9
    assert "Changed elsewhere" not in names(client.get("/api/courts"))  # kept: read 0.9 s ago

    clock[0] += 0.2
    assert "Changed elsewhere" in names(client.get("/api/courts"))


def test_a_signed_in_reader_gets_a_change_made_by_another_process_at_once(client, courts, clock, sign_in_as):
    ada = sign_in_as("ada@example.com")
    assert len(client.get("/api/courts").json()) == 3

    change_elsewhere(courts[0], "Changed elsewhere")

    assert "Changed elsewhere" in names(ada.get("/api/courts"))
    assert "Changed elsewhere" in names(client.get("/api/courts"))  # the version was read again


def test_a_change_with_the_same_version_is_not_served(client, courts, settings):
    """What tells a process that the list changed is the version, nothing else: a write that skips
    court_list_changed (a bulk update) is served once the version changes."""
    settings.COURT_LIST_RECHECK_SECONDS = 0
    assert len(client.get("/api/courts").json()) == 3
    Court.objects.filter(pk=courts[0].pk).update(name="Changed elsewhere")  # no signal here
    assert "Changed elsewhere" not in names(client.get("/api/courts"))  # kept: same version

    CourtListVersion.objects.filter(pk=1).update(version="1-elsewhere")
    assert "Changed elsewhere" in names(client.get("/api/courts"))


def test_a_matching_etag_gets_a_304_and_a_change_a_200_with_the_new_list(client, courts):
    first = client.get("/api/courts")
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert first["Last-Modified"]
    assert first["Cache-Control"] == "no-cache"

    again = client.get("/api/courts", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    weak = client.get("/api/courts", HTTP_IF_NONE_MATCH=f"W/{etag}")  # as after gzip
    assert weak.status_code == 304
    since = client.get("/api/courts", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304

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


def test_a_kept_list_costs_anonymous_readers_no_query_and_others_the_version(
    client, courts, clock, django_assert_num_queries, sign_in_as
):
    client.get("/api/courts")
    with django_assert_num_queries(0):
        assert client.get("/api/courts").status_code == 200
    with django_assert_num_queries(0):
        assert client.get("/api/courts", {"limit": 2, "offset": 1}).status_code == 200
    etag = client.get("/api/courts")["ETag"]
    with django_assert_num_queries(0):
        assert client.get("/api/courts", HTTP_IF_NONE_MATCH=etag).status_code == 304

    clock[0] += 5
    with django_assert_num_queries(1):  # the version, once the recheck time has passed
        assert client.get("/api/courts").status_code == 200

    CourtFactory(type="Tennis", name="Court 4")
    with django_assert_num_queries(2):  # the version, then the list afresh
        assert len(client.get("/api/courts").json()) == 4

    ada = sign_in_as("ada@example.com")
    with CaptureQueriesContext(connection) as queries:
        assert ada.get("/api/courts").status_code == 200
    read = [query["sql"] for query in queries if CourtListVersion._meta.db_table in query["sql"]]
    assert len(read) == 1  # the version, beside the signed-in person's own record


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


def test_the_kept_serialisation_is_reset_when_the_version_row_is_gone(client, courts, settings):
    settings.COURT_LIST_RECHECK_SECONDS = 0
    assert len(client.get("/api/courts").json()) == 3
    CourtListVersion.objects.all().delete()
    Court.objects.filter(pk=courts[0].pk).update(name="Court 0")

    assert names(client.get("/api/courts"))[0] == "Court 0"
    assert CourtListVersion.objects.filter(pk=1).exists()


def test_a_client_that_accepts_gzip_gets_the_list_compressed_with_a_weak_etag(client, courts):
    CourtFactory.create_batch(3, type="Squash")
    plain = client.get("/api/courts")

    compressed = client.get("/api/courts", HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert compressed["Vary"] == plain["Vary"] == "Accept-Encoding"
    assert compressed["ETag"] == f"W/{plain['ETag']}"
    assert compressed["X-Total-Count"] == plain["X-Total-Count"] == "6"
    again = client.get("/api/courts", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=compressed["ETag"])
    assert again.status_code == 304
