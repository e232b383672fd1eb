"""The club's rules in a browser: under instant booking a person books and pays in one visit; a
paid booking cancelled before the cut-off is refunded, in the payment history and the mailbox."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.services import policy_update
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from e2e.test_payments import booking_confirmed, fill_card
from payments.models import Refund
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def book_from_the_modal(page: Page, site: str) -> None:
    page.goto(site + "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=2)).isoformat())
    modal.get_by_label("08:00-09:00").check()
    modal.get_by_role("button", name="Submit Booking").click()


def pay_on_the_payment_page(page: Page, amount: str) -> None:
    pay = page.get_by_role("button", name=f"Pay {amount}")
    expect(pay).to_be_enabled()
    fill_card(page, "4242424242424242")
    with booking_confirmed() as confirmed:
        pay.click()
        expect(page.locator("[data-rht-toaster]")).to_contain_text("Payment successful!")
        assert confirmed.wait(10)


@pytest.fixture
def court():
    return CourtFactory(name="Centre Court", type="Tennis", price=Decimal("20.00"), slots=["08:00-09:00"])


def test_instant_booking_holds_the_slot_and_pays_in_one_step(site: str, page: Page, localstripe, court):
    policy_update(approval_required=False, checkout_hold_minutes=10)
    User.objects.create_user("ada@example.com")
    sign_in(page, site, "ada@example.com", "/courts")

    book_from_the_modal(page, site)

    expect(page).to_have_url(re.compile(re.escape(site) + r"/dashboard/payment-page/\d+$"))
    booking = Booking.objects.get()
    assert page.url == site + f"/dashboard/payment-page/{booking.pk}"
    expect(page.get_by_role("heading", name="Pay for: Centre Court")).to_be_visible()
    pay_on_the_payment_page(page, "$20.00")
    expect(page).to_have_url(site + "/dashboard/confirmed-bookings")
    expect(page.get_by_role("row", name=re.compile("Centre Court"))).to_contain_text("Confirmed")
    assert list(booking.history.values_list("to_status", flat=True)) == ["approved", "confirmed"]


def test_a_paid_booking_cancelled_before_the_cutoff_is_refunded_in_history_and_mailbox(
    site: str, page: Page, localstripe, mailbox, court
):
    policy_update(approval_required=False, cancel_cutoff_hours=24, refund_percent=100, late_refund_percent=0)
    User.objects.create_user("ada@example.com")
    sign_in(page, site, "ada@example.com", "/courts")
    book_from_the_modal(page, site)
    pay_on_the_payment_page(page, "$20.00")

    page.goto(site + "/dashboard/confirmed-bookings")
    page.get_by_role("row", name=re.compile("Centre Court")).get_by_role("button", name="Cancel").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("100% of the $20.00 paid is refunded to the card.")
    dialog.get_by_role("button", name="Yes, cancel it!").click()
    expect(page.get_by_role("dialog")).to_contain_text("The booking has been cancelled.")
    assert Booking.objects.get().status == Booking.Status.CANCELLED

    run_due_tasks()  # the worker makes the refund at Stripe

    assert Refund.objects.get().status == Refund.Status.SUCCEEDED
    page.goto(site + "/dashboard/payment-history")
    expect(page.get_by_role("row", name=re.compile(r"Centre Court"))).to_contain_text("Refunded $20.00")
    page.goto(site + "/local/mail")
    expect(page.get_by_role("link", name=re.compile(r"Refund of \$20\.00: Centre Court"))).to_be_visible()
