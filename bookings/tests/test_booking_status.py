"""What became of a booking, as its owner sees it: every status (rejected, cancelled and expired
ones too) with when it changed and the admin's reason, the payment deadline of an approval, and a
page per booking with its history."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking, BookingStatusChange
from bookings.selectors import policy_get
from bookings.services import booking_cancel, booking_reject, policy_update
from bookings.tests.factories import approved_at, lift_hour_limits, make_booking

pytestmark = pytest.mark.django_db

Status = Booking.Status


def owner_of(people) -> User:
    return User.objects.get(email="ada@example.com")


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_an_admin_rejects_with_a_reason_and_the_owner_reads_it(people):
    booking = make_booking(user=owner_of(people))

    response = people["admin"].patch(
        f"/api/bookings/reject/{booking.pk}",
        {"reason": "  The court is closed for repairs that day.  "},
        content_type="application/json",
    )

    assert response.status_code == 200
    assert response.json()["status"] == "rejected"
    page = text(people["owner"].get("/dashboard/my-bookings"))
    assert "Rejected" in page
    assert "The court is closed for repairs that day." in page


def test_a_rejection_without_a_reason_says_so_and_a_reason_too_long_is_a_400(people):
    booking = make_booking(user=owner_of(people))

    too_long = people["admin"].patch(
        f"/api/bookings/reject/{booking.pk}", {"reason": "x" * 501}, content_type="application/json"
    )
    assert too_long.status_code == 400
    assert "reason" in too_long.json()
    assert Booking.objects.get(pk=booking.pk).status == Status.PENDING  # nothing changed

    assert people["admin"].patch(f"/api/bookings/reject/{booking.pk}").status_code == 200
    assert "No reason given." in text(people["owner"].get("/dashboard/my-bookings"))


def test_a_booking_the_club_cancelled_shows_the_clubs_reason_on_my_bookings(people):
    owner = owner_of(people)
    admin = User.objects.get(email="ann@example.com")
    booking_cancel(booking=make_booking(user=owner), by=admin, reason="The floor is being repaired.")
    booking_cancel(booking=make_booking(user=owner), by=admin)
    booking_cancel(booking=make_booking(user=owner), by=owner)

    page = text(people["owner"].get("/dashboard/my-bookings"))

    assert "Cancelled by the club: The floor is being repaired." in page
    assert page.count("Cancelled by the club") == 2  # with a reason, and without one; not her own


def test_the_owner_sees_every_booking_whatever_became_of_it(people):
    owner = owner_of(people)
    admin = User.objects.get(email="ann@example.com")
    pending = make_booking(user=owner)
    booking_reject(booking=make_booking(user=owner), by=admin, reason="Team practice.")
    booking_cancel(booking=make_booking(user=owner), by=owner)
    overdue = make_booking(user=owner, status=Status.APPROVED)
    Booking.objects.filter(pk=overdue.pk).update(
        **approved_at(timezone.now() - timedelta(hours=policy_get().payment_window_hours + 1))
    )
    make_booking(user=User.objects.get(email="bob@example.com"))  # someone else's

    page = text(people["owner"].get("/dashboard/my-bookings"))

    for status in ("Pending", "Rejected", "Cancelled", "Expired"):
        assert f" {status} " in page
    assert "Team practice." in page
    assert page.count("Court ") >= 4
    assert "4 bookings" in page
    assert (
        f'href="/dashboard/bookings/{pending.pk}"'
        in people["owner"].get("/dashboard/my-bookings").content.decode()
    )


def statuses(response) -> list[str]:
    """The status badges of a page, in order."""
    return re.findall(r'<span class="badge [^"]+">(\w+)</span>', response.content.decode())


def test_the_owner_filters_their_bookings_by_status(people):
    owner = owner_of(people)
    make_booking(user=owner)
    booking_cancel(booking=make_booking(user=owner), by=owner)
    assert sorted(statuses(people["owner"].get("/dashboard/my-bookings"))) == ["Cancelled", "Pending"]

    filtered = people["owner"].get("/dashboard/my-bookings", {"status": "cancelled"})

    assert statuses(filtered) == ["Cancelled"]
    assert "1 booking" in text(filtered)


def test_my_bookings_costs_the_same_queries_for_5_or_30_bookings(people):
    policy_update(open_bookings_limit=100)
    lift_hour_limits()
    owner = owner_of(people)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            response = people["owner"].get("/dashboard/my-bookings")
        assert f" {Booking.objects.filter(user=owner).count()} bookings" in text(response)
        return len(captured)

    for _ in range(5):
        make_booking(user=owner)
    few = queries()
    for _ in range(25):
        make_booking(user=owner)
    assert queries() == few


def test_an_approved_booking_shows_its_payment_deadline_on_the_list_and_the_payment_page(people):
    booking = make_booking(user=owner_of(people), status=Status.APPROVED)
    deadline = timezone.localtime(booking.approved_at + timedelta(hours=policy_get().payment_window_hours))

    listed = text(people["owner"].get("/dashboard/approved-bookings"))
    paying = text(people["owner"].get(f"/dashboard/payment-page/{booking.pk}"))

    for page in (listed, paying):
        assert "Pay by" in page
        assert str(deadline.year) in page
        assert re.search(r"\(in (23 hours|1 day)", page)


def test_the_booking_page_shows_its_history_to_the_owner_and_admins_only(people):
    owner = owner_of(people)
    admin = User.objects.get(email="ann@example.com")
    booking = booking_reject(booking=make_booking(user=owner), by=admin, reason="Closed for a tournament.")
    url = f"/dashboard/bookings/{booking.pk}"

    mine = text(people["owner"].get(url))
    assert "History" in mine
    assert re.search(r"Pending You .*Rejected An admin Closed for a tournament\.", mine)
    assert "ann@example.com" not in mine  # who the admin was is the club's business

    staff = text(people["admin"].get(url))
    assert "ann@example.com" in staff
    assert "ada@example.com" in staff

    assert people["other"].get(url).status_code == 404
    assert people["member"].get(url).status_code == 404
    anonymous = people["anonymous"].get(url)
    assert anonymous.status_code == 302
    assert "/login" in anonymous["Location"]


def test_the_history_row_keeps_the_reason(people):
    booking = make_booking(user=owner_of(people))

    booking_reject(booking=booking, by=User.objects.get(email="ann@example.com"), reason=" Too late. ")

    assert BookingStatusChange.objects.filter(booking=booking).last().reason == "Too late."
