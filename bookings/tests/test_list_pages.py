"""The booking list pages at a club's size: numbered pages of 25 with the total, filters kept
from page to page, messages under a filter that cannot be used, and a cost that does not grow
with the number of bookings."""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.tests.test_pages import rows
from courts.tests.factories import CourtFactory
from kernel.slots import Slot

pytestmark = pytest.mark.django_db
Status = Booking.Status
FIRST_DAY = timezone.localdate() + timedelta(days=1)


def bookings_of(email: str, count: int, *, court=None, status=Status.CONFIRMED, first_day: date = FIRST_DAY):
    """`count` one-slot bookings of the person with `email`, on consecutive days (records only)."""
    user, _ = User.objects.get_or_create(email=email)
    court = court or CourtFactory(slots=["08:00-09:00"])
    days = [first_day + timedelta(days=number) for number in range(count)]
    return Booking.objects.bulk_create(
        Booking(
            user=user,
            court=court,
            court_name=court.name,
            date=day,
            slots=court.slots[:1],
            price=10,
            status=status,
            starts_at=Slot.parse(court.slots[0]).starts_at(day),
        )
        for day in days
    )


def test_a_long_list_comes_in_pages_of_25_numbered_on_from_page_to_page(admin):
    bookings_of("ada@example.com", 30)

    first = admin.get("/dashboard/manage-bookings").content.decode()
    second = admin.get("/dashboard/manage-bookings", {"page": 2}).content.decode()

    assert [row[0] for row in rows(first)] == [str(number) for number in range(1, 26)]
    assert "1\N{EN DASH}25 of 30 bookings" in first
    assert 'href="?page=2" rel="next"' in first
    assert [row[0] for row in rows(second)] == ["26", "27", "28", "29", "30"]
    assert "26\N{EN DASH}30 of 30 bookings" in second


def test_the_page_links_keep_the_search(admin):
    bookings_of("ada@example.com", 30, court=CourtFactory(name="Glass Court", slots=["08:00-09:00"]))

    html = admin.get("/dashboard/manage-bookings", {"title": "glass"}).content.decode()

    assert 'href="?title=glass&amp;page=2" rel="next"' in html


def test_an_admin_finds_bookings_by_part_of_an_e_mail_and_by_dates(admin):
    bookings_of("ada@example.com", 3)
    bookings_of("bob@example.com", 3)

    by_email = admin.get("/dashboard/manage-bookings", {"email": "BOB@"}).content.decode()
    by_dates = admin.get(
        "/dashboard/manage-bookings",
        {"date_from": FIRST_DAY + timedelta(days=1), "date_to": FIRST_DAY + timedelta(days=1)},
    ).content.decode()

    assert {row[4] for row in rows(by_email)} == {"bob@example.com"}
    assert len(rows(by_email)) == 3
    assert sorted(row[4] for row in rows(by_dates)) == ["ada@example.com", "bob@example.com"]


def test_the_status_filter_shows_bookings_in_another_status(admin):
    bookings_of("ada@example.com", 2)
    bookings_of("bob@example.com", 1, status=Status.CANCELLED)

    html = admin.get("/dashboard/manage-bookings", {"status": "cancelled"}).content.decode()

    assert [(row[4], row[6]) for row in rows(html)] == [("bob@example.com", "Cancelled")]


def test_dates_the_wrong_way_round_are_explained_under_the_field(admin):
    bookings_of("ada@example.com", 2)

    html = admin.get(
        "/dashboard/manage-bookings", {"date_from": "2031-09-01", "date_to": "2031-08-01"}
    ).content.decode()

    assert "The last day comes on or after the first (2031-09-01)." in html
    assert len(rows(html)) == 2  # the unusable filter filters nothing


def test_approvals_are_filtered_by_court_and_date(admin):
    centre, glass = (
        CourtFactory(name="Centre", slots=["08:00-09:00"]),
        CourtFactory(name="Glass", slots=["08:00-09:00"]),
    )
    bookings_of("ada@example.com", 3, court=centre, status=Status.PENDING)
    bookings_of("bob@example.com", 3, court=glass, status=Status.PENDING)

    by_court = admin.get("/dashboard/manage-bookings-approval", {"court": glass.pk}).content.decode()
    by_day = admin.get("/dashboard/manage-bookings-approval", {"date": FIRST_DAY}).content.decode()

    assert {row[2] for row in rows(by_court)} == {"Glass"}
    assert sorted(row[2] for row in rows(by_day)) == ["Centre", "Glass"]


@pytest.mark.parametrize(
    "path",
    ["/dashboard/manage-bookings", "/dashboard/manage-bookings-approval", "/dashboard/confirmed-bookings"],
)
def test_a_list_page_costs_the_same_queries_for_3_bookings_as_for_300(sign_in_as, path):
    member = sign_in_as("ada@example.com", User.Role.MEMBER)
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    caller = member if path == "/dashboard/confirmed-bookings" else admin
    status = Status.PENDING if path.endswith("approval") else Status.CONFIRMED

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert caller.get(path).status_code == 200
        return len(captured)

    bookings_of("ada@example.com", 3, status=status)
    queries()  # the first visit to My Confirmed Bookings makes the person's calendar feed
    few = queries()
    bookings_of("ada@example.com", 297, status=status, first_day=FIRST_DAY + timedelta(days=3))
    many = queries()

    assert many == few


def test_a_members_payment_history_comes_in_pages(sign_in_as):
    from payments.models import Payment

    member = sign_in_as("ada@example.com", User.Role.MEMBER)
    bookings = bookings_of("ada@example.com", 30)
    Payment.objects.bulk_create(
        Payment(
            booking=booking,
            user=booking.user,
            amount=booking.price,
            currency="usd",
            status=Payment.Status.SUCCEEDED,
            payment_intent_id=f"pi_{booking.pk}",
        )
        for booking in bookings
    )

    first = member.get("/dashboard/payment-history").content.decode()
    second = member.get("/dashboard/payment-history", {"page": 2}).content.decode()

    assert "1\N{EN DASH}25 of 30 payments" in first
    assert first.count("<tr>") - 1 == 25  # the heading's row, and 25 payments
    assert "26\N{EN DASH}30 of 30 payments" in second


@pytest.mark.parametrize(
    ("path", "status", "column"),
    [
        ("/dashboard/manage-bookings", Status.CONFIRMED, 4),
        ("/dashboard/manage-bookings-approval", Status.PENDING, 1),
    ],
)
def test_the_admins_lists_name_each_person_beside_their_e_mail_at_the_same_cost(admin, path, status, column):
    def page() -> tuple[str, int]:
        with CaptureQueriesContext(connection) as captured:
            html = admin.get(path).content.decode()
        return html, len(captured)

    User.objects.create_user("grace@example.com", name="Grace Hopper")
    bookings_of("grace@example.com", 1, status=status)
    html, few = page()
    for number in range(20):
        User.objects.create_user(f"player{number}@example.com", name=f"Player {number}")
        bookings_of(f"player{number}@example.com", 1, status=status)
    _, many = page()

    assert rows(html)[0][column] == "Grace Hoppergrace@example.com"
    assert '<span class="font-medium">Grace Hopper</span>' in html  # the name first, the address under it
    assert many == few
