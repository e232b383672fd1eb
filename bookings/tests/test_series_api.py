"""POST /api/series (with ?dryRun=1), GET and DELETE /api/series/{id}, for each kind of caller:
anonymous, the organiser, another user, a member, an admin."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking, Series
from bookings.services import policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db
SLOT = "19:00-20:00"


def in_days(days: int):
    return timezone.localdate() + timedelta(days=days)


@pytest.fixture
def clients(sign_in_as):
    policy_update(advance_days_member=60, advance_days_user=60)
    return {
        "anonymous": Client(),
        "organiser": sign_in_as("ada@example.com", name="Ada Lovelace"),
        "other": sign_in_as("bob@example.com", name="Bob Stone"),
        "member": sign_in_as("max@example.com", User.Role.MEMBER, name="Max Hill"),
        "admin": sign_in_as("ann@example.com", User.Role.ADMIN, name="Ann Admin"),
    }


@pytest.fixture
def court():
    return CourtFactory(name="Centre", price=Decimal("20.00"), slots=["18:00-19:00", SLOT])


def body(court, **fields) -> dict:
    """Weekly, from in two days for four weeks."""
    return {
        "courtId": court.pk,
        "slots": [SLOT],
        "firstDate": str(in_days(2)),
        "everyWeeks": 1,
        "lastDate": str(in_days(23)),
        **fields,
    }


def test_the_dry_run_lists_the_dates_and_books_nothing(clients, court):
    make_booking(court=court, date=in_days(9), slots=[SLOT])

    response = clients["organiser"].post("/api/series?dryRun=1", body(court), content_type="application/json")

    assert response.status_code == 200
    answer = response.json()
    assert [(one["date"], one["refusal"]) for one in answer["dates"]] == [
        (str(in_days(2)), ""),
        (str(in_days(9)), "Already taken at 19:00–20:00."),
        (str(in_days(16)), ""),
        (str(in_days(23)), ""),
    ]
    assert (answer["bookable"], answer["total"]) == (3, "60.00")
    assert not Series.objects.exists()


def test_booking_the_rest_answers_the_series_with_its_bookings(clients, court):
    make_booking(court=court, date=in_days(9), slots=[SLOT])

    response = clients["organiser"].post(
        "/api/series", body(court, skipDates=[str(in_days(9))]), content_type="application/json"
    )

    assert response.status_code == 201
    series = response.json()
    assert (series["repeats"], series["userEmail"], series["courtName"]) == (
        "Weekly",
        "ada@example.com",
        "Centre",
    )
    assert [(one["date"], one["status"]) for one in series["occurrences"]] == [
        (str(in_days(2)), "pending"),
        (str(in_days(16)), "pending"),
        (str(in_days(23)), "pending"),
    ]


def test_a_date_refused_but_not_skipped_is_a_conflict_listing_the_dates_again(clients, court):
    make_booking(court=court, date=in_days(16), slots=[SLOT])

    response = clients["organiser"].post("/api/series", body(court), content_type="application/json")

    assert response.status_code == 409
    answer = response.json()
    assert "can no longer be had" in answer["detail"]
    assert [one["date"] for one in answer["dates"] if one["refusal"]] == [str(in_days(16))]
    assert not Series.objects.exists()


@pytest.mark.parametrize("dry_run", ["?dryRun=1", ""])
def test_bad_input_is_a_400_per_field(clients, court, dry_run):
    response = clients["organiser"].post(
        f"/api/series{dry_run}",
        body(court, firstDate="someday", everyWeeks=9, slots=["07:00-08:00"]),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert set(response.json()) == {"firstDate"}
    response = clients["organiser"].post(
        f"/api/series{dry_run}",
        body(court, everyWeeks=9, slots=["07:00-08:00"]),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "slots": ["Not a slot of this court: 07:00-08:00."],
        "everyWeeks": ["From 1 (weekly) to 4 weeks apart."],
    }


def test_an_unknown_court_is_a_404(clients, court):
    response = clients["organiser"].post(
        "/api/series?dryRun=1", body(court, courtId=court.pk + 99), content_type="application/json"
    )
    assert response.status_code == 404


@pytest.mark.parametrize(("caller", "code"), [("anonymous", 401), ("member", 201), ("admin", 201)])
def test_who_may_book_a_series(clients, court, caller, code):
    response = clients[caller].post("/api/series", body(court), content_type="application/json")

    assert response.status_code == code
    if code == 201:
        assert Booking.objects.filter(series__isnull=False).count() == 4


@pytest.fixture
def series(clients, court) -> dict:
    response = clients["organiser"].post("/api/series", body(court), content_type="application/json")
    assert response.status_code == 201
    return response.json()


@pytest.mark.parametrize(
    ("caller", "code"),
    [("anonymous", 401), ("organiser", 200), ("other", 404), ("member", 404), ("admin", 200)],
)
def test_who_may_see_a_series(clients, series, caller, code):
    response = clients[caller].get(f"/api/series/{series['id']}")

    assert response.status_code == code
    if code == 200:
        assert len(response.json()["occurrences"]) == 4


@pytest.mark.parametrize(
    ("caller", "code"),
    [("anonymous", 401), ("organiser", 200), ("other", 404), ("member", 404), ("admin", 200)],
)
def test_who_may_cancel_the_rest_of_a_series(clients, series, caller, code):
    third = series["occurrences"][2]["date"]

    response = clients[caller].delete(f"/api/series/{series['id']}?dateFrom={third}")

    assert response.status_code == code
    statuses = list(Booking.objects.order_by("date").values_list("status", flat=True))
    if code == 200:
        assert [one["status"] for one in response.json()["occurrences"]] == ["pending"] * 2 + [
            "cancelled"
        ] * 2
        assert statuses == ["pending"] * 2 + ["cancelled"] * 2
    else:
        assert statuses == ["pending"] * 4


def test_cancelling_without_a_date_cancels_every_booking_not_begun(clients, series):
    response = clients["organiser"].delete(f"/api/series/{series['id']}")

    assert response.status_code == 200
    assert {one["status"] for one in response.json()["occurrences"]} == {"cancelled"}
    response = clients["organiser"].delete(f"/api/series/{series['id']}?dateFrom=soon")
    assert response.status_code == 400
    assert set(response.json()) == {"dateFrom"}


@pytest.mark.parametrize(
    ("caller", "code", "cancels"),
    [
        ("anonymous", 302, False),
        ("organiser", 200, True),
        ("other", 404, False),
        ("member", 404, False),
        ("admin", 200, True),
    ],
)
def test_a_dates_page_shows_its_series_and_the_cancel_buttons(clients, series, caller, code, cancels):
    second = series["occurrences"][1]

    response = clients[caller].get(f"/dashboard/bookings/{second['id']}")

    assert response.status_code == code
    if code != 200:
        return
    page = response.content.decode()
    assert "Weekly series" in page
    weekday = f"{in_days(2):%A}"
    assert f'Centre, every {weekday} at <span style="white-space:nowrap">19:00–20:00</span>, from' in page
    assert ": 4 bookings, each paid and cancelled on its own." in page
    assert page.count('<tr aria-current="page"') == 1
    assert ("Cancel this one" in page, "cancel-series" in page) == (cancels, cancels)
    assert f"/api/series/{series['id']}?dateFrom={second['date']}" in page


@pytest.mark.parametrize(
    ("caller", "code"),
    [("anonymous", 401), ("organiser", 403), ("other", 403), ("member", 403), ("admin", 200)],
)
def test_only_an_admin_approves_a_series(clients, series, caller, code):
    response = clients[caller].patch(f"/api/series/{series['id']}/approve")

    assert response.status_code == code
    expected = "approved" if code == 200 else "pending"
    assert set(Booking.objects.values_list("status", flat=True)) == {expected}
