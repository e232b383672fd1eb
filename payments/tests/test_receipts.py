"""What was paid, everywhere: the confirmed lists show the amount paid (with the list price and the
coupon when they differ), payment history names the booking, and each payment has a receipt with
the card's last four digits as Stripe reports them."""

import re
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from kernel.days import day
from payments.models import Coupon, Payment
from payments.tests.helpers import intent, save

pytestmark = pytest.mark.django_db


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def paid(people, localstripe) -> Payment:
    """Ada's $30 booking of Hall B, paid $24 with SPRING20 by the card ending in 5556 (localstripe)."""
    court = CourtFactory(name="Hall B", type="Badminton", price=Decimal("30.00"), slots=["08:00-09:00"])
    booking = make_booking(
        user=User.objects.get(email="ada@example.com"), court=court, status=Booking.Status.APPROVED
    )
    Coupon.objects.create(code="SPRING20", discount=20)
    secret = intent(people["owner"], booking, couponCode="SPRING20").json()["clientSecret"]
    localstripe.pay(secret, "4000056655665556")
    assert save(people["owner"], secret).status_code == 200
    return Payment.objects.get(booking=booking)


def test_the_card_s_last_four_digits_are_recorded_as_stripe_reports_them(paid):
    assert paid.card_last4 == "5556"


def test_the_confirmed_lists_show_what_was_paid_the_list_price_and_the_coupon(people, paid):
    mine = text(people["owner"].get("/dashboard/confirmed-bookings"))
    club = text(people["admin"].get("/dashboard/manage-bookings"))

    for page in (mine, club):
        assert "$24.00 list price $30.00 · SPRING20 (20% off)" in page


def test_a_booking_paid_in_full_shows_one_amount(people, localstripe):
    court = CourtFactory(price=Decimal("12.00"), slots=["08:00-09:00"])
    booking = make_booking(
        user=User.objects.get(email="ada@example.com"), court=court, status=Booking.Status.APPROVED
    )
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)
    save(people["owner"], secret)

    page = text(people["admin"].get("/dashboard/manage-bookings"))

    assert "$12.00" in page
    assert "list price" not in page


def test_payment_history_names_the_booking_and_the_coupon_not_ids(people, paid):
    page = text(people["owner"].get("/dashboard/payment-history"))

    assert "Hall B" in page
    assert "08:00–09:00" in page
    assert "SPRING20 (20% off)" in page
    assert "$24.00" in page
    assert "Booking ID" not in page
    assert paid.payment_intent_id not in page
    assert (
        f'href="/dashboard/payments/{paid.pk}/receipt"'
        in people["owner"].get("/dashboard/payment-history").content.decode()
    )


def test_the_receipt_shows_the_club_the_booking_the_amount_the_coupon_and_the_card(people, paid, settings):
    page = text(people["owner"].get(f"/dashboard/payments/{paid.pk}/receipt"))

    assert f"Receipt #{paid.pk}" in page
    assert settings.SITE_NAME in page
    assert settings.CLUB_CONTACT["address"] in page
    for shown in ("Hall B", "08:00–09:00", "$30.00", "SPRING20 (20% off)", "$24.00 USD", "ending in 5556"):
        assert shown in page


@pytest.mark.parametrize(
    ("kind", "status_code"), [("owner", 200), ("admin", 200), ("other", 404), ("member", 404)]
)
def test_a_receipt_is_for_its_payer_and_the_admins_only(people, paid, kind, status_code):
    assert people[kind].get(f"/dashboard/payments/{paid.pk}/receipt").status_code == status_code


def test_a_receipt_asks_an_anonymous_visitor_to_sign_in(people, paid):
    response = people["anonymous"].get(f"/dashboard/payments/{paid.pk}/receipt")

    assert response.status_code == 302
    assert "/login" in response["Location"]


def test_payment_history_and_the_receipt_write_the_moment_paid_alike_in_the_club_s_time_zone(
    people, paid, settings
):
    settings.TIME_ZONE = "America/New_York"
    # 02:05 UTC is still the evening before in New York.
    Payment.objects.filter(pk=paid.pk).update(paid_at=datetime(2026, 3, 4, 2, 5, tzinfo=UTC))

    history = text(people["owner"].get("/dashboard/payment-history"))
    receipt = text(people["owner"].get(f"/dashboard/payments/{paid.pk}/receipt"))

    for page in (history, receipt):
        assert "March 3, 2026, 9:05 PM" in page
        assert day(paid.booking.date) in page
