"""A membership's payments where a person and the admins read payments: Payment History and the
receipt name the plan and the period paid, Django admin tells them from the bookings', and the API
lists them with their membership and period."""

import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from accounts.models import User
from bookings.tests.factories import make_booking
from memberships.tests.factories import make_membership, make_plan
from payments.models import Payment
from payments.tests.helpers import paid, paid_period, refunded

pytestmark = pytest.mark.django_db
PAID_AT = datetime(2026, 12, 5, 15, tzinfo=UTC)


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def membership_paid(people, settings) -> Payment:
    """Ada's month of the Club plan, paid $30 on 5 December 2026 by the card ending in 4242, $5 of it
    refunded."""
    settings.TIME_ZONE = "UTC"
    ada = User.objects.get(email="ada@example.com")
    membership = make_membership(user=ada, plan=make_plan(name="Club", period="monthly", price=Decimal("30")))
    payment = paid_period(membership, "30.00", PAID_AT, card_last4="4242")
    refunded(payment, "5.00", PAID_AT)
    return payment


def test_payment_history_names_the_plan_and_the_period_paid(people, membership_paid):
    page = text(people["owner"].get("/dashboard/payment-history"))

    assert "Club membership December 5, 2026 – January 5, 2027" in page  # the table's cells
    assert "Club membership, December 5, 2026 – January 5, 2027" in page  # a card's line
    assert "$30.00" in page
    assert "Refunded $5.00 on December 5, 2026" in page
    assert "Receipt for Club membership, December 5, 2026 – January 5, 2027" in page


def test_payment_history_lists_bookings_and_memberships_together(people, membership_paid):
    ada = User.objects.get(email="ada@example.com")
    paid(make_booking(user=ada), "12.00", datetime(2026, 12, 6, tzinfo=UTC))

    html = people["owner"].get("/dashboard/payment-history").content.decode()

    cells = re.findall(r'<td data-label="For">([^<]*)</td>', html)
    assert cells == [Payment.objects.get(booking__isnull=False).booking.court_name, "Club membership"]


def test_a_membership_s_receipt_names_the_plan_the_period_and_the_amount(people, membership_paid):
    page = text(people["owner"].get(f"/dashboard/payments/{membership_paid.pk}/receipt"))

    for shown in (
        "Membership Club",
        "Period December 5, 2026 – January 5, 2027",
        "Amount paid $30.00 USD",
        "ending in 4242",
        "Partially refunded",
    ):
        assert shown in page
    assert "Court" not in page


@pytest.mark.parametrize(
    ("kind", "status_code"), [("owner", 200), ("admin", 200), ("other", 404), ("member", 404)]
)
def test_a_membership_s_receipt_is_for_its_payer_and_the_admins_only(
    people, membership_paid, kind, status_code
):
    assert people[kind].get(f"/dashboard/payments/{membership_paid.pk}/receipt").status_code == status_code


def test_a_membership_s_receipt_asks_an_anonymous_visitor_to_sign_in(people, membership_paid):
    response = people["anonymous"].get(f"/dashboard/payments/{membership_paid.pk}/receipt")

    assert response.status_code == 302
    assert response["Location"].startswith("/login")


def test_django_admin_lists_a_membership_s_payment_by_what_it_paid_for_and_filters_by_kind(
    people, membership_paid
):
    booking_payment = paid(make_booking(), "12.00", PAID_AT)
    admin = people["admin"]

    memberships = admin.get("/admin/payments/payment/?kind=membership").content.decode()
    bookings = admin.get("/admin/payments/payment/?kind=booking").content.decode()
    found = admin.get(f"/admin/payments/payment/?q={membership_paid.stripe_invoice_id}").content.decode()

    assert "Club for ada@example.com (active)" in memberships
    assert f"/admin/payments/payment/{booking_payment.pk}/change/" not in memberships
    assert f"/admin/payments/payment/{booking_payment.pk}/change/" in bookings
    assert f"/admin/payments/payment/{membership_paid.pk}/change/" not in bookings
    assert f"/admin/payments/payment/{membership_paid.pk}/change/" in found


@pytest.mark.parametrize(
    ("kind", "listed"),
    [("anonymous", None), ("owner", True), ("other", False), ("member", False), ("admin", True)],
)
def test_the_api_lists_a_membership_s_payment_with_its_membership_and_period(
    people, membership_paid, kind, listed
):
    response = people[kind].get("/api/payments")

    if listed is None:
        assert response.status_code == 401
        return
    found = [payment for payment in response.json() if payment["id"] == membership_paid.pk]
    assert bool(found) is listed
    if listed:
        assert {key: found[0][key] for key in ("bookingId", "membershipId", "periodStart", "periodEnd")} == {
            "bookingId": None,
            "membershipId": membership_paid.membership_id,
            "periodStart": "2026-12-05T15:00:00Z",
            "periodEnd": "2027-01-05T15:00:00Z",
        }
