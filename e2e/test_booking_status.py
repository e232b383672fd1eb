"""What became of a booking, in a browser: an admin rejects with a reason after confirming; its
owner finds it, the reason and its history, on a phone too."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_playwright import CreateContextCallback

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import requests_under_way, sign_in, wait_until_settled

pytestmark = pytest.mark.browser


@pytest.fixture
def ada():
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    return User.objects.create_user("ada@example.com")


def test_an_admin_rejects_with_a_reason_and_the_owner_finds_it_on_a_phone(
    site: str, page: Page, new_context: CreateContextCallback, ada
):
    booking = make_booking(user=ada, court=CourtFactory(name="Hall B", type="Badminton"))
    sign_in(page, site, "ann@example.com", "/dashboard/manage-bookings-approval")

    page.get_by_role("row", name=re.compile("ada@example.com")).get_by_role("button", name="Reject").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Reject this booking?")
    dialog.get_by_label("Reason (optional)").fill("The hall is closed for a tournament.")
    dialog.get_by_role("button", name="Yes, reject it!").click()
    expect(page.get_by_text("Booking rejected successfully.")).to_be_visible()
    expect(page.get_by_text("No pending bookings available.")).to_be_visible()

    phone = new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_in(phone, site, "ada@example.com", "/dashboard/my-bookings")
    row = phone.get_by_role("row", name=re.compile("Hall B"))
    expect(row).to_contain_text("Rejected")
    expect(row).to_contain_text("The hall is closed for a tournament.")

    row.get_by_role("link", name="Hall B").click()
    expect(phone).to_have_url(f"{site}/dashboard/bookings/{booking.pk}")
    history = phone.get_by_role("table")
    expect(history.get_by_role("row")).to_have_count(3)  # the header, requested, rejected
    expect(history.get_by_role("row").last).to_contain_text("An admin")
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.REJECTED


def test_an_admin_who_changes_their_mind_keeps_the_request(site: str, page: Page, ada):
    make_booking(user=ada)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-bookings-approval")

    page.get_by_role("button", name="Reject").click()
    page.get_by_role("button", name="No, keep it").click()

    expect(page.get_by_role("button", name="Reject")).to_be_visible()
    assert Booking.objects.get().status == Booking.Status.PENDING


def test_the_owner_sees_when_an_approved_booking_must_be_paid(site: str, page: Page, ada):
    booking = make_booking(user=ada, status=Booking.Status.APPROVED)
    sign_in(page, site, "ada@example.com", "/dashboard/approved-bookings")

    expect(page.get_by_role("row", name=re.compile(booking.court_name))).to_contain_text(
        re.compile(r"\(in (23\shours|1\sday)")
    )
    under_way = requests_under_way(page)
    page.get_by_role("link", name="Pay").click()
    expect(page.locator("#pay-by")).to_contain_text(re.compile(r"\(in (23\shours|1\sday)"))
    # The payment form's request for its PaymentIntent has been answered: none of the page's
    # requests still writes a payment while the test's database is emptied.
    wait_until_settled(page, under_way)
