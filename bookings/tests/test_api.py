from datetime import date, time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.services import booking_price
from bookings.tests.factories import make_booking, tomorrow
from courts.models import PriceBand
from courts.tests.factories import CourtFactory
from kernel.slots import Slot

pytestmark = pytest.mark.django_db
Status = Booking.Status

KINDS = ["anonymous", "owner", "other", "member", "admin"]


@pytest.fixture
def court():
    return CourtFactory(name="Centre Court", price=Decimal("15.00"), slots=["08:00-09:00", "09:00-10:00"])


def ada():
    return User.objects.get(email="ada@example.com")


def request_body(court, **change):
    return {
        "userEmail": "ada@example.com",
        "courtId": court.pk,
        "courtName": "whatever the client says",
        "price": 30,
        "slots": ["08:00-09:00", "09:00-10:00"],
        "date": tomorrow().isoformat(),
        **change,
    }


# --- POST /api/bookings ----------------------------------------------------------------------


def test_the_owner_requests_a_pending_booking_priced_and_named_by_the_server(people, court):
    response = people["owner"].post("/api/bookings", request_body(court), content_type="application/json")

    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["price"], body["courtName"], body["userEmail"]) == (
        "pending",
        "30.00",
        "Centre Court",
        "ada@example.com",
    )


def test_slots_costing_more_than_a_booking_holds_answer_400_under_slots(people):
    dear = CourtFactory(price=Decimal("99999999.99"), slots=["08:00-09:00", "09:00-10:00"])
    body = {"courtId": dear.pk, "slots": dear.slots, "date": tomorrow().isoformat()}

    response = people["owner"].post("/api/bookings", body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {
        "slots": ["These slots cost $199,999,999.98 together, more than one booking can: choose fewer."]
    }
    assert Booking.objects.count() == 0


def test_a_signed_out_visitor_cannot_book(people, court):
    response = people["anonymous"].post("/api/bookings", request_body(court), content_type="application/json")

    assert response.status_code == 401
    assert Booking.objects.count() == 0


def test_nobody_books_in_someone_elses_name(people, court):
    response = people["other"].post("/api/bookings", request_body(court), content_type="application/json")

    assert response.status_code == 403
    assert Booking.objects.count() == 0


def test_the_owner_books_in_their_own_name_written_in_any_case(people, court):
    body = request_body(court, userEmail=" Ada@Example.COM ")

    response = people["owner"].post("/api/bookings", body, content_type="application/json")

    assert response.status_code == 201
    assert response.json()["userEmail"] == "ada@example.com"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"price": 1}, "price"),
        ({"date": (timezone.localdate() - timedelta(days=1)).isoformat()}, "date"),
        ({"date": "31/12/2026"}, "date"),
        ({"slots": ["23:00-24:00"]}, "slots"),
        ({"slots": []}, "slots"),
        ({"courtId": "x"}, "courtId"),
    ],
)
def test_a_bad_request_answers_400_for_its_field(people, court, change, field):
    response = people["owner"].post(
        "/api/bookings", request_body(court, **change), content_type="application/json"
    )

    assert response.status_code == 400
    assert field in response.json()
    assert Booking.objects.count() == 0


def test_an_unknown_court_answers_404(people, court):
    response = people["owner"].post(
        "/api/bookings", request_body(court, courtId=court.pk + 99), content_type="application/json"
    )

    assert response.status_code == 404


def test_a_taken_slot_answers_409(people, court):
    make_booking(court=court, slots=["09:00-10:00"])

    response = people["owner"].post("/api/bookings", request_body(court), content_type="application/json")

    assert response.status_code == 409
    assert response.json() == {"detail": "That slot is already booked."}


# --- GET /api/bookings/{status} --------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("status", ["pending", "approved", "confirmed"])
def test_each_caller_lists_what_they_may_see(people, court, kind, status):
    booking = make_booking(user=ada(), court=court, status=status)

    response = people[kind].get(f"/api/bookings/{status}")

    expected = {"anonymous": None, "owner": [booking.pk], "other": [], "member": [], "admin": [booking.pk]}[
        kind
    ]
    if expected is None:
        assert response.status_code == 401
    else:
        assert response.status_code == 200
        assert [b["id"] for b in response.json()] == expected


@pytest.mark.parametrize(
    ("kind", "status_code"), [("owner", 200), ("other", 403), ("member", 403), ("admin", 200)]
)
def test_asking_for_someone_elses_list_needs_to_be_them_or_an_admin(people, court, kind, status_code):
    make_booking(user=ada(), court=court)

    response = people[kind].get("/api/bookings/pending", {"email": "ada@example.com"})

    assert response.status_code == status_code
    if status_code == 200:
        assert len(response.json()) == 1


def test_admins_search_confirmed_bookings_by_court_title(people):
    make_booking(court=CourtFactory(name="Centre Court"), status=Status.CONFIRMED)
    make_booking(court=CourtFactory(name="Glass Court"), status=Status.CONFIRMED)

    response = people["admin"].get("/api/bookings/confirmed", {"title": "glass"})

    assert [b["courtName"] for b in response.json()] == ["Glass Court"]


def test_a_list_of_1000_bookings_is_served_a_slice_at_a_time_in_a_constant_number_of_queries(
    people, django_assert_max_num_queries
):
    user, court = ada(), CourtFactory(slots=[f"{h:02d}:00-{h + 1:02d}:00" for h in range(8)])
    dates = [timezone.localdate() + timedelta(days=d) for d in range(1, 126)]
    bookings = Booking.objects.bulk_create(
        Booking(
            user=user,
            court=court,
            court_name="C",
            date=day,
            slots=[slot],
            price=10,
            starts_at=Slot.parse(slot).starts_at(day),
        )
        for day in dates
        for slot in court.slots
    )
    assert len(bookings) == 1000

    # the caller's record (with whether their cookie was signed out), the slice with its users and
    # courts, and the count of the whole list
    with django_assert_max_num_queries(3):
        response = people["admin"].get("/api/bookings/pending")

    assert len(response.json()) == 25
    assert response["X-Total-Count"] == "1000"


# --- GET /api/bookings/approved/{id}, DELETE /api/bookings/{id} ------------------------------


@pytest.mark.parametrize(
    ("kind", "status_code"),
    [("anonymous", 401), ("owner", 200), ("other", 404), ("member", 404), ("admin", 200)],
)
def test_an_approved_booking_is_shown_to_its_owner_and_admins(people, court, kind, status_code):
    booking = make_booking(user=ada(), court=court, status=Status.APPROVED)

    response = people[kind].get(f"/api/bookings/approved/{booking.pk}")

    assert response.status_code == status_code


def test_a_pending_booking_is_not_shown_as_approved(people, court):
    booking = make_booking(user=ada(), court=court)

    assert people["owner"].get(f"/api/bookings/approved/{booking.pk}").status_code == 404


@pytest.mark.parametrize(
    ("kind", "status_code"),
    [("anonymous", 401), ("owner", 200), ("other", 404), ("member", 404), ("admin", 200)],
)
@pytest.mark.parametrize("status", [Status.PENDING, Status.APPROVED])
def test_the_owner_or_an_admin_cancels_and_the_slots_are_released(people, court, kind, status_code, status):
    booking = make_booking(user=ada(), court=court, status=status)

    response = people[kind].delete(f"/api/bookings/{booking.pk}")

    assert response.status_code == status_code
    booking.refresh_from_db()
    assert (booking.status == Status.CANCELLED) == (status_code == 200)
    assert BookedSlot.objects.filter(booking=booking).exists() == (status_code != 200)


@pytest.mark.parametrize("status", [Status.REJECTED, Status.CANCELLED, Status.EXPIRED])
def test_a_booking_that_has_ended_cannot_be_cancelled(people, court, status):
    booking = make_booking(user=ada(), court=court, status=status)

    response = people["owner"].delete(f"/api/bookings/{booking.pk}")

    assert response.status_code == 409
    assert "cannot be cancelled" in response.json()["detail"]


# --- PATCH /api/bookings/{approve,reject}/{id} -------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "status_code"),
    [("anonymous", 401), ("owner", 403), ("other", 403), ("member", 403), ("admin", 200)],
)
@pytest.mark.parametrize(("action", "result"), [("approve", "approved"), ("reject", "rejected")])
def test_only_admins_approve_or_reject(people, court, kind, status_code, action, result):
    booking = make_booking(user=ada(), court=court)

    response = people[kind].patch(f"/api/bookings/{action}/{booking.pk}")

    assert response.status_code == status_code
    booking.refresh_from_db()
    assert booking.status == (result if status_code == 200 else "pending")


@pytest.mark.parametrize("action", ["approve", "reject"])
def test_deciding_twice_answers_409(people, court, action):
    booking = make_booking(user=ada(), court=court, status=Status.APPROVED)

    response = people["admin"].patch(f"/api/bookings/{action}/{booking.pk}")

    assert response.status_code == 409
    assert response.json()["detail"].startswith("This booking is approved and cannot be")


def test_deciding_on_an_unknown_booking_answers_404(people):
    assert people["admin"].patch("/api/bookings/approve/999999").status_code == 404


# --- GET /api/courts/{id}/availability -------------------------------------------------------------


@pytest.mark.parametrize(
    ("caller", "queries"),
    # the court, and the slots its bookings hold that day; for a signed-in caller also their record
    # (with whether their cookie was signed out) and the plan whose prices they pay
    [("anonymous", 2), ("owner", 4), ("member", 4), ("admin", 4)],
)
def test_availability_costs_a_few_queries_whoever_asks(people, caller, queries, django_assert_num_queries):
    court = CourtFactory(slots=["08:00-09:00", "09:00-10:00"])
    make_booking(court=court, slots=["09:00-10:00"])

    with django_assert_num_queries(queries):
        response = people[caller].get(
            f"/api/courts/{court.pk}/availability", {"date": tomorrow().isoformat()}
        )

    assert response.json()["taken"] == ["09:00-10:00"]


def test_availability_prices_each_slot_of_the_day_as_the_server_charges_it(client):
    court = CourtFactory(price=Decimal("20.00"), slots=["16:00-17:00", "17:00-18:00"])
    PriceBand.objects.create(
        court=court, weekdays=[0, 1, 2, 3, 4], starts=time(17), ends=time(22), price=Decimal("26.50")
    )
    monday, saturday = date(2027, 1, 4), date(2027, 1, 9)

    def prices(day: date) -> dict:
        return client.get(f"/api/courts/{court.pk}/availability", {"date": day.isoformat()}).json()["prices"]

    assert prices(monday) == {"16:00-17:00": "20.00", "17:00-18:00": "26.50"}
    assert prices(saturday) == {"16:00-17:00": "20.00", "17:00-18:00": "20.00"}
    assert booking_price(court=court, date=monday, slots=court.slots) == Decimal("46.50")


def test_availability_names_each_slot_priced_otherwise_than_the_court_peak_or_off_peak(client):
    court = CourtFactory(price=Decimal("20.00"), slots=["07:00-08:00", "12:00-13:00", "17:00-18:00"])
    for starts, ends, price in ((time(6), time(9), "15.00"), (time(17), time(22), "26.50")):
        PriceBand.objects.create(
            court=court, weekdays=[0, 1, 2, 3, 4], starts=starts, ends=ends, price=Decimal(price)
        )
    monday, saturday = date(2027, 1, 4), date(2027, 1, 9)

    def kinds(day: date) -> dict:
        answer = client.get(f"/api/courts/{court.pk}/availability", {"date": day.isoformat()}).json()
        return answer["priceKinds"]

    assert kinds(monday) == {"07:00-08:00": "off-peak", "17:00-18:00": "peak"}
    assert kinds(saturday) == {}
