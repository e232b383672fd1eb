import re

import pytest

from accounts.models import User
from bookings.models import Booking
from bookings.services import policy_update
from bookings.tests.factories import lift_hour_limits, make_booking
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.django_db
Status = Booking.Status


def rows(html: str) -> list[list[str]]:
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S)
    if not body:
        return []
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    ]


@pytest.fixture
def ada(sign_in_as):
    return sign_in_as("ada@example.com", User.Role.MEMBER)


def ada_user():
    return User.objects.get(email="ada@example.com")


def test_my_pending_bookings_list_court_date_slots_price_and_a_cancel_button(ada):
    lift_hour_limits()
    slots = ["08:00-09:00", "09:00-10:00", "11:00-12:00"]
    court = CourtFactory(name="Centre Court", price=10, slots=slots)
    booking = make_booking(user=ada_user(), court=court, slots=slots)
    make_booking(court=CourtFactory(name="Someone else's"))

    html = ada.get("/dashboard/pending-bookings").content.decode()

    assert [r[0] for r in rows(html)] == ["Centre Court"]
    # Slots that follow on read as one range; a line breaks between ranges, never inside one.
    assert rows(html)[0][2] == "08:00–10:00, 11:00–12:00"
    assert '<span style="white-space:nowrap">08:00–10:00</span>' in html
    assert "$30.00" in html
    assert f'"url": "/api/bookings/{booking.pk}"' in html
    assert '"action": "cancel-pending"' in html


@pytest.mark.parametrize(
    ("path", "empty"),
    [
        ("/dashboard/pending-bookings", "No pending bookings found."),
        ("/dashboard/approved-bookings", "No approved bookings found."),
        ("/dashboard/confirmed-bookings", "No confirmed bookings found."),
    ],
)
def test_empty_lists_say_so(ada, path, empty):
    assert empty in ada.get(path).content.decode()


def test_my_approved_bookings_have_a_pay_link_and_a_cancel_button(ada):
    booking = make_booking(user=ada_user(), status=Status.APPROVED)

    html = ada.get("/dashboard/approved-bookings").content.decode()

    assert f'href="/dashboard/payment-page/{booking.pk}">Pay</a>' in html
    assert '"action": "cancel-approved"' in html


def test_my_confirmed_bookings_show_their_status(ada):
    make_booking(user=ada_user(), status=Status.CONFIRMED)

    html = ada.get("/dashboard/confirmed-bookings").content.decode()

    assert rows(html)[0][0] == "1"
    assert rows(html)[0][-3:-1] == ["Confirmed", "Add to calendar"]
    assert '"action": "cancel-confirmed"' in rows(html)[0][-1]


def test_the_approvals_page_lists_everyones_pending_bookings_with_approve_and_reject(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    first = make_booking()
    make_booking()

    html = admin.get("/dashboard/manage-bookings-approval").content.decode()

    assert len(rows(html)) == 2
    assert f'"url": "/api/bookings/approve/{first.pk}"' in html
    assert f'"url": "/api/bookings/reject/{first.pk}"' in html


def test_the_approvals_page_says_when_nothing_waits(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)

    assert (
        "No pending bookings available." in admin.get("/dashboard/manage-bookings-approval").content.decode()
    )


def test_manage_bookings_lists_confirmed_bookings_and_searches_by_court_title(sign_in_as):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    make_booking(court=CourtFactory(name="Centre Court"), status=Status.CONFIRMED)
    make_booking(court=CourtFactory(name="Glass Court"), status=Status.CONFIRMED)
    make_booking(court=CourtFactory(name="Pending Court"))

    everything = admin.get("/dashboard/manage-bookings").content.decode()
    searched = admin.get("/dashboard/manage-bookings", {"title": "GLASS"}).content.decode()
    nothing = admin.get("/dashboard/manage-bookings", {"title": "zzz"}).content.decode()

    assert 'placeholder="Search by court title..."' in everything
    assert [r[1] for r in rows(everything)] == ["Centre Court", "Glass Court"]
    assert [r[1] for r in rows(searched)] == ["Glass Court"]
    assert "No confirmed bookings found." in nothing


def test_a_booking_page_costs_a_constant_number_of_queries(ada, django_assert_max_num_queries):
    policy_update(open_bookings_limit=10)
    lift_hour_limits()
    court = CourtFactory(slots=[f"{h:02d}:00-{h + 1:02d}:00" for h in range(10)])
    for slot in court.slots:
        make_booking(user=ada_user(), court=court, slots=[slot])

    with django_assert_max_num_queries(4):
        ada.get("/dashboard/pending-bookings")
