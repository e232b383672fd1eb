import re
from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_playwright import CreateContextCallback

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser


@pytest.fixture
def court():
    return CourtFactory(
        name="Centre Court",
        type="Tennis",
        price=Decimal("15.00"),
        slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"],
    )


@pytest.fixture
def accounts():
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)


def test_a_user_books_two_slots_others_see_them_taken_an_admin_approves_the_user_can_pay(
    site: str, page: Page, new_context: CreateContextCallback, court, accounts
):
    day = (timezone.localdate() + timedelta(days=2)).isoformat()
    sign_in(page, site, "ada@example.com", "/courts")

    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    expect(modal).to_be_visible()
    expect(modal.get_by_label("Court type")).to_have_value("Tennis")
    expect(modal.get_by_test_id("booking-places")).to_have_text(
        "Up to 4 players, you included: once it is made, choose who plays on its page (My Bookings)."
    )
    modal.get_by_label("Date").fill(day)
    modal.get_by_label("08:00-09:00").check()
    expect(modal.get_by_text("Total Price: $15.00")).to_be_visible()
    modal.get_by_label("09:00-10:00").check()
    expect(modal.get_by_text("Total Price: $30.00")).to_be_visible()
    with page.expect_request(lambda asked: asked.method == "POST" and "/api/bookings" in asked.url) as sent:
        modal.get_by_role("button", name="Submit Booking").click()

    # The booking takes the court's name from the court: the island sends none.
    assert "courtName" not in sent.value.post_data_json
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Booking request sent.")
    expect(modal).to_be_hidden()
    page.goto(site + "/dashboard/pending-bookings")
    expect(page.get_by_role("row", name=re.compile("Centre Court"))).to_contain_text("08:00–10:00")

    # Another user opening the same court and date finds both slots taken.
    bob = new_context().new_page()
    sign_in(bob, site, "bob@example.com", "/courts")
    bob.get_by_role("button", name="Book Now").click()
    bob_modal = bob.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    bob_modal.get_by_label("Date").fill(day)
    expect(bob_modal.get_by_label("08:00-09:00 (booked)")).to_be_disabled()
    expect(bob_modal.get_by_label("09:00-10:00 (booked)")).to_be_disabled()
    expect(bob_modal.get_by_label("10:00-11:00")).to_be_enabled()

    # The admin approves.
    ann = new_context().new_page()
    sign_in(ann, site, "ann@example.com", "/dashboard/manage-bookings-approval")
    ann.get_by_role("row", name=re.compile("ada@example.com")).get_by_role("button", name="Approve").click()
    expect(ann.get_by_role("dialog")).to_contain_text("Booking approved successfully.")
    expect(ann.get_by_text("No pending bookings available.")).to_be_visible(timeout=10_000)

    page.goto(site + "/dashboard/approved-bookings")
    row = page.get_by_role("row", name=re.compile("Centre Court"))
    booking = Booking.objects.get()
    expect(row.get_by_role("link", name="Pay")).to_have_attribute(
        "href", f"/dashboard/payment-page/{booking.pk}"
    )
    assert booking.status == "approved"


def test_the_modal_asks_for_a_slot_and_closes_with_escape(site: str, page: Page, court, accounts):
    sign_in(page, site, "ada@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=1)).isoformat())

    modal.get_by_role("button", name="Submit Booking").click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("Please select at least one slot.")
    expect(modal.get_by_role("alert")).to_have_text("Please select at least one slot.")
    assert Booking.objects.count() == 0
    page.keyboard.press("Escape")
    expect(modal).to_be_hidden()


def test_the_modal_names_the_court_among_halls_of_one_type(site: str, page: Page, accounts):
    for name in ("North Hall", "South Hall"):
        CourtFactory(name=name, type="Badminton", slots=["08:00-09:00"])
    sign_in(page, site, "ada@example.com", "/courts")

    for name in ("North Hall", "South Hall"):
        page.get_by_role("listitem").filter(has_text=name).get_by_role("button", name="Book Now").click()
        modal = page.get_by_role("dialog")
        expect(modal.get_by_role("heading", level=2)).to_have_text(f"Booking: {name} (Badminton)")
        modal.get_by_role("button", name="Close", exact=True).click()
        expect(modal).to_be_hidden()


def background(field) -> str:
    return field.evaluate("element => getComputedStyle(element).backgroundColor")


def test_the_fields_a_person_cannot_change_look_and_behave_read_only(site: str, page: Page, court, accounts):
    sign_in(page, site, "ada@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog")
    editable = modal.get_by_label("Date")

    for label, value in (("Court type", "Tennis"), ("Price per slot ($)", "15.00")):
        field = modal.get_by_label(label)
        expect(field).to_have_attribute("readonly", "")
        expect(field).not_to_be_editable()
        field.click()
        page.keyboard.type("9")
        expect(field).to_have_value(value)
        assert background(field) != background(editable)


def test_the_slot_error_goes_once_a_slot_is_ticked(site: str, page: Page, court, accounts):
    sign_in(page, site, "ada@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog")
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=1)).isoformat())
    modal.get_by_role("button", name="Submit Booking").click()
    expect(modal.get_by_role("alert")).to_have_text("Please select at least one slot.")

    modal.get_by_label("08:00-09:00").check()

    expect(modal.get_by_role("alert")).to_have_count(0)


def test_a_user_cancels_a_pending_booking_after_confirming(site: str, page: Page, court, accounts):
    sign_in(page, site, "ada@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=1)).isoformat())
    modal.get_by_label("10:00-11:00").check()
    modal.get_by_role("button", name="Submit Booking").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Booking request sent.")

    page.goto(site + "/dashboard/pending-bookings")
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("dialog")).to_contain_text("Do you want to cancel this pending booking?")
    page.get_by_role("button", name="Yes, cancel it!").click()
    expect(page.get_by_role("dialog")).to_contain_text("Your booking has been cancelled.")
    page.get_by_role("button", name="OK").click()

    expect(page.get_by_text("No pending bookings found.")).to_be_visible()
    assert Booking.objects.get().status == "cancelled"


def test_when_the_session_is_gone_an_island_sends_the_person_to_sign_in_and_back(
    site: str, page: Page, court, accounts
):
    sign_in(page, site, "ada@example.com", "/dashboard/pending-bookings")
    make_booking(user=User.objects.get(email="ada@example.com"), court=court)
    page.reload()
    page.context.clear_cookies(
        name="club_session"
    )  # the session ends (expired, revoked, signed out elsewhere)

    page.get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Yes, cancel it!").click()

    expect(page).to_have_url(re.compile(r"/login\?next=%2Fdashboard%2Fpending-bookings$"))


def test_slots_that_have_begun_today_are_shown_as_started_and_cannot_be_picked(
    site: str, page: Page, court, accounts, monkeypatch
):
    # The site's clock (the live server runs in this process) at 09:30 today, in the club's zone.
    today = timezone.localdate()
    half_past_nine = timezone.make_aware(datetime.combine(today, time(9, 30)))
    monkeypatch.setattr(timezone, "now", lambda: half_past_nine)
    sign_in(page, site, "ada@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")

    modal.get_by_label("Date").fill(today.isoformat())

    expect(modal.get_by_label("08:00-09:00 (started)")).to_be_disabled()
    expect(modal.get_by_label("09:00-10:00 (started)")).to_be_disabled()
    expect(modal.get_by_label("10:00-11:00")).to_be_enabled()
