"""A member finds what they paid and its receipt, on a phone and on a desktop."""

import re
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from pytest_playwright import CreateContextCallback

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from payments.models import Coupon, Payment

pytestmark = pytest.mark.browser


@pytest.fixture
def payment() -> Payment:
    """Mia's $30 booking of Hall B, paid $24 with SPRING20 by a card ending in 4242."""
    mia = User.objects.create_user("mia@example.com", role=User.Role.MEMBER)
    court = CourtFactory(name="Hall B", type="Badminton", price=Decimal("30.00"), slots=["08:00-09:00"])
    booking = make_booking(user=mia, court=court, status=Booking.Status.CONFIRMED)
    return Payment.objects.create(
        booking=booking,
        user=mia,
        amount=Decimal("24.00"),
        currency="usd",
        coupon=Coupon.objects.create(code="SPRING20", discount=20),
        discount=20,
        payment_intent_id="pi_receipt",
        status=Payment.Status.SUCCEEDED,
        card_last4="4242",
        paid_at=timezone.now(),
    )


@pytest.mark.parametrize("width", [390, 1366])
def test_a_member_opens_the_receipt_of_a_payment_from_their_history(
    site: str, new_context: CreateContextCallback, payment, width
):
    page = new_context(viewport={"width": width, "height": 844 if width == 390 else 900}).new_page()
    sign_in(page, site, "mia@example.com", "/dashboard/payment-history")
    row = page.get_by_role("row", name=re.compile("Hall B"))
    expect(row).to_contain_text("SPRING20 (20% off)")
    expect(row).to_contain_text("$24.00")

    row.get_by_role("link", name=re.compile("Receipt")).click()

    expect(page).to_have_url(f"{site}/dashboard/payments/{payment.pk}/receipt")
    receipt = page.get_by_role("article")
    expect(receipt.get_by_role("heading", name=f"Receipt #{payment.pk}")).to_be_visible()
    for shown in ("Hall B", "$30.00", "SPRING20 (20% off)", "$24.00 USD", "ending in 4242"):
        expect(receipt).to_contain_text(shown)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
