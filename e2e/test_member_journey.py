"""A member's round of the site, on a phone and on a desktop: book a court through the modal, find
a rejected booking and its reason, see an approval's payment deadline, pay, open the receipt, and
reset a forgotten password."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from pytest_playwright import CreateContextCallback

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_reject
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import PASSWORD
from e2e.test_payments import fill_card

pytestmark = pytest.mark.browser

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}


@pytest.mark.parametrize("screen", WIDTHS)
def test_a_member_s_round_of_the_site(
    site: str, new_context: CreateContextCallback, emulator, localstripe, screen
):
    emulator.sign_up("mia@example.com", PASSWORD, name="Mia Park")
    mia = User.objects.create_user("mia@example.com", role=User.Role.MEMBER, name="Mia Park")
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    hall = CourtFactory(name="Hall B", type="Badminton", price=Decimal("12.00"))
    CourtFactory(name="Hall A", type="Badminton", price=Decimal("12.00"))
    booking_reject(booking=make_booking(user=mia, court=hall), by=admin, reason="Closed for a tournament.")
    approved = make_booking(user=mia, court=hall, slots=[hall.slots[1]], status=Booking.Status.APPROVED)
    page = new_context(viewport=WIDTHS[screen]).new_page()

    # Signing in straight to a list whose rows are islands: the greeting still shows.
    page.goto(f"{site}/login?next=/dashboard/approved-bookings")
    page.get_by_label("Email").fill("mia@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Login").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Login Successful!")
    row = page.get_by_role("row", name=re.compile("Hall B"))
    expect(row).to_contain_text(re.compile(r"\(in (23\shours|1\sday)"))

    page.goto(f"{site}/dashboard/my-bookings")
    rejected = page.get_by_role("row", name=re.compile("Rejected"))
    expect(rejected).to_contain_text("Closed for a tournament.")

    # The modal names the court among two halls of one type, and its slot error goes once a slot is ticked.
    page.goto(f"{site}/courts")
    page.get_by_role("listitem").filter(has_text="Hall A").get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Hall A (Badminton)")
    expect(modal).to_be_visible()
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=1)).isoformat())
    modal.get_by_role("button", name="Submit Booking").click()
    expect(modal.get_by_role("alert")).to_have_text("Please select at least one slot.")
    modal.get_by_label("08:00-09:00").check()
    expect(modal.get_by_role("alert")).to_have_count(0)
    modal.get_by_role("button", name="Close", exact=True).click()

    page.goto(f"{site}/dashboard/payment-page/{approved.pk}")
    expect(page.locator("#pay-by")).to_contain_text(re.compile(r"\(in (23\shours|1\sday)"))
    pay = page.get_by_role("button", name="Pay $12.00")
    expect(pay).to_be_enabled()
    fill_card(page, "4242424242424242")
    pay.click()
    expect(page).to_have_url(f"{site}/dashboard/confirmed-bookings")

    page.goto(f"{site}/dashboard/payment-history")
    page.get_by_role("row", name=re.compile("Hall B")).get_by_role("link", name=re.compile("Receipt")).click()
    receipt = page.get_by_role("article")
    expect(receipt).to_contain_text("$12.00 USD")
    expect(receipt).to_contain_text("ending in 4242")

    if screen == "phone":
        page.get_by_role("button", name="Open the dashboard menu").click()
    page.get_by_role("button", name="Logout").click()
    page.goto(f"{site}/login")
    page.get_by_role("link", name="Forgot password?").click()
    page.get_by_label("Email").fill("mia@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("status")).to_contain_text("we have sent it a link")
    page.goto(emulator.oob_links("mia@example.com", "PASSWORD_RESET")[-1] + "&newPassword=new-pass-42")
    page.goto(f"{site}/login?next=/dashboard")
    page.get_by_label("Email").fill("mia@example.com")
    page.get_by_label("Password").fill("new-pass-42")
    page.get_by_role("button", name="Login").click()
    expect(page).to_have_url(f"{site}/dashboard")
