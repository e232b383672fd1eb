"""Each list, and each of its filters, has an index to read instead of the whole table. With
sequential scans priced out (the tables here are tiny, so PostgreSQL would rather read them
whole), EXPLAIN shows the index each list query is answered from."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.selectors import user_list
from bookings.models import Booking
from bookings.schedule import day_sheet
from bookings.selectors import booking_list
from courts.tests.factories import CourtFactory
from payments.models import Payment
from payments.selectors import payment_list

pytestmark = pytest.mark.django_db
Status = Booking.Status


@pytest.fixture
def club():
    """A club of 40 members with 50 bookings each (the busiest, 500), paid where confirmed, 400
    other users, and fresh statistics."""
    from bookings.tests.test_list_pages import bookings_of

    people = [User.objects.create_user(f"person{number}@example.com", role="member") for number in range(40)]
    User.objects.bulk_create(User(email=f"visitor{number}@example.com") for number in range(400))
    court = CourtFactory(slots=["08:00-09:00"])
    for number, person in enumerate(people):
        status = Status.PENDING if number % 10 == 0 else Status.CONFIRMED
        count = 500 if number == 1 else 50
        bookings = bookings_of(person.email, count, court=CourtFactory(slots=["08:00-09:00"]), status=status)
        Payment.objects.bulk_create(
            Payment(booking=booking, user=person, amount=10, currency="usd", status="succeeded")
            for booking in bookings
            if booking.status == Status.CONFIRMED
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return {
        "admin": User.objects.create_user("ann@example.com", role=User.Role.ADMIN),
        "ada": people[1],
        "court": court,
    }


def explain(rows) -> str:
    """The plan of `rows`, with sequential scans priced out of it."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    return rows.explain()


@pytest.mark.parametrize(
    ("rows", "index"),
    [
        (lambda admin, ada, court: booking_list(viewer=admin, status=Status.CONFIRMED)[:25], "booking_list"),
        (
            lambda admin, ada, court: booking_list(
                viewer=admin, status=Status.CONFIRMED, date_from="2031-01-01"
            )[:25],
            "booking_list",
        ),
        (
            lambda admin, ada, court: booking_list(viewer=ada, status=Status.CONFIRMED)[:25],
            "booking_list_by_user",
        ),
        (
            lambda admin, ada, court: booking_list(viewer=admin, status=Status.PENDING, court=court)[:25],
            "bookings_booking_court_id_",
        ),
        (lambda admin, ada, court: payment_list(viewer=admin)[:100], "payment_list"),
        (lambda admin, ada, court: payment_list(viewer=ada)[:100], "payment_list_by_user"),
        (lambda admin, ada, court: user_list()[:25], "user_list"),
        (lambda admin, ada, court: user_list(role=User.Role.MEMBER)[:25], "user_list_by_role"),
    ],
    ids=[
        "confirmed bookings",
        "confirmed bookings from a date",
        "a person's bookings",
        "approvals of a court",
        "payments",
        "a person's payments",
        "users",
        "members",
    ],
)
def test_a_list_is_read_from_its_index(club, rows, index):
    plan = explain(rows(club["admin"], club["ada"], club["court"]))

    assert f" {index}" in plan, plan


@pytest.mark.parametrize(
    ("rows", "index"),
    [
        (lambda admin: payment_list(viewer=admin), "payment_list_total"),
        (lambda admin: booking_list(viewer=admin, status=Status.CONFIRMED), "booking_list_total"),
    ],
    ids=["everyone's payments", "everyone's confirmed bookings"],
)
def test_the_total_of_an_admins_list_is_counted_from_an_index_of_its_own(club, rows, index):
    with CaptureQueriesContext(connection) as queries:
        rows(club["admin"]).count()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + queries[0]["sql"])
        plan = "\n".join(line for (line,) in cursor.fetchall())

    assert f" {index} " in plan, plan


def test_the_day_sheet_reads_the_bookings_of_its_day_from_an_index(club):
    with CaptureQueriesContext(connection) as queries:
        day_sheet(date=date(2031, 1, 1), viewer=club["admin"])
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + queries[-1]["sql"])
        plan = "\n".join(line for (line,) in cursor.fetchall())

    assert " booking_by_date" in plan, plan
