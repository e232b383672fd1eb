"""The day sheet's cells act, in a browser: an admin approves and cancels bookings from them, and
a person joins the waitlist of a taken cell and leaves it."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking, WaitlistEntry
from bookings.tests.factories import make_booking, tomorrow
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser

SLOTS = ["08:00-09:00", "09:00-10:00"]


@pytest.fixture
def requests(transactional_db):
    court = CourtFactory(name="Centre", type="Tennis", slots=SLOTS)
    ada = User.objects.create_user("ada@example.com")
    return [make_booking(user=ada, court=court, slots=[slot]) for slot in SLOTS]


def test_an_admin_approves_one_request_and_cancels_another_from_their_cells(site: str, page: Page, requests):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    first, second = requests
    sign_in(page, site, "ann@example.com", f"/schedule?date={tomorrow().isoformat()}")
    sheet = page.get_by_test_id("schedule")

    sheet.get_by_role("button", name=f"Approve (Centre, {SLOTS[0]})").click()
    expect(page.get_by_role("dialog")).to_contain_text("Booking approved successfully.")
    expect(
        sheet.get_by_role(
            "cell", name=re.compile(f"ada@example.com Approved Cancel \\(Centre, {SLOTS[0]}\\)")
        )
    ).to_be_visible()
    sheet.get_by_role("button", name=f"Cancel (Centre, {SLOTS[1]})").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, cancel it!").click()
    done = page.get_by_role("dialog", name="Cancelled!")
    expect(done).to_contain_text("The booking has been cancelled.")  # not "Your booking": it is Ada's
    done.get_by_role("button", name="OK").click()
    expect(sheet.get_by_role("button", name=f"Free (Centre, {SLOTS[1]})")).to_be_visible()

    statuses = dict(Booking.objects.values_list("pk", "status"))
    assert statuses == {first.pk: Booking.Status.APPROVED, second.pk: Booking.Status.CANCELLED}


def test_a_person_joins_the_waitlist_of_a_taken_cell(site: str, page: Page, requests):
    User.objects.create_user("bob@example.com")
    sign_in(page, site, "bob@example.com", f"/schedule?date={tomorrow().isoformat()}")

    page.get_by_role("button", name=f"Join waitlist (Centre, {SLOTS[0]})").click()

    joined = page.get_by_role("dialog", name="You are on the waitlist")
    joined.get_by_role("button", name="OK").click()
    entry = WaitlistEntry.objects.get()
    assert (entry.user.email, entry.slot, entry.status) == ("bob@example.com", SLOTS[0], "waiting")
    # The sheet, reloaded now or later, says so and offers to leave, not to join again.
    page.reload()
    cell = page.get_by_test_id("schedule").get_by_role(
        "cell", name=f"On the waitlist Leave (Centre, {SLOTS[0]})"
    )
    expect(cell).to_be_visible()
    expect(page.get_by_role("button", name=f"Join waitlist (Centre, {SLOTS[0]})")).to_have_count(0)
    page.goto(site + "/dashboard/waitlist")
    expect(page.get_by_role("row", name=re.compile(SLOTS[0]))).to_be_visible()

    page.go_back()
    page.get_by_role("button", name=f"Leave (Centre, {SLOTS[0]})").click()
    page.get_by_role("dialog", name="Leave this waitlist?").get_by_role(
        "button", name="Yes, leave it"
    ).click()
    expect(page.get_by_role("button", name=f"Join waitlist (Centre, {SLOTS[0]})")).to_be_visible()
    entry.refresh_from_db()
    assert entry.status == WaitlistEntry.Status.LEFT
