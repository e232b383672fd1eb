"""Blocks in the browser: an admin blocks a court for maintenance from the day sheet, weekly, over an
existing booking (listed first, then cancelled), and everyone sees the cells blocked with the
reason; the admin lifts the block again from a cell."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Block, Booking
from bookings.tests.factories import make_booking, tomorrow
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from e2e.test_accessibility import serious_violations

pytestmark = pytest.mark.browser

SLOTS = ["08:00-09:00", "09:00-10:00", "10:00-11:00"]


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    # axe is injected inline, which the site's Content Security Policy refuses (test_accessibility).
    return {**browser_context_args, "bypass_csp": True}


def test_an_admin_blocks_a_court_for_maintenance_over_an_existing_booking(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    ada = User.objects.create_user("ada@example.com")
    court = CourtFactory(name="Centre", type="Tennis", slots=SLOTS)
    week_on = tomorrow() + timedelta(weeks=1)
    booking = make_booking(
        user=ada, court=court, date=week_on, slots=SLOTS[:1], status=Booking.Status.APPROVED
    )
    sign_in(page, site, "ann@example.com", f"/schedule?date={tomorrow().isoformat()}")

    page.get_by_role("button", name=f"Free (Centre, {SLOTS[0]})").click()
    page.get_by_role("button", name=f"Free (Centre, {SLOTS[1]})").click()
    page.get_by_role("button", name="Block", exact=True).click()
    form = page.get_by_role("dialog", name="Block Centre")
    form.get_by_label("Reason (shown in the schedule)").fill("Maintenance")
    form.get_by_label("Weekly until (optional: leave empty for this day only)").fill(week_on.isoformat())
    form.get_by_role("button", name="Block", exact=True).click()

    # The booking in the way is listed before anything happens.
    conflicts = page.get_by_role("dialog", name="Bookings in the way")
    expect(conflicts).to_contain_text(f"ada@example.com: {week_on:%B %-d, %Y}, 08:00–09:00 (approved)")
    assert serious_violations(page) == []
    assert Block.objects.count() == 0
    conflicts.get_by_role("button", name="Cancel them (full refunds)").click()

    sheet = page.get_by_test_id("schedule")
    expect(sheet.get_by_role("cell", name="Blocked Maintenance Unblock")).to_have_count(2)
    assert serious_violations(page) == []
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CANCELLED
    block = Block.objects.get()
    assert (block.slots, block.until, block.reason) == (SLOTS[:2], week_on, "Maintenance")

    # Everyone sees the week after closed too, with the reason, and cannot book it.
    page.goto(f"{site}/schedule?date={week_on.isoformat()}")
    expect(sheet.get_by_text("Maintenance")).to_have_count(2)
    expect(page.get_by_role("button", name=f"Free (Centre, {SLOTS[0]})")).to_have_count(0)

    # The admin lifts the block from one of its cells: every day of it is free again.
    page.get_by_role("button", name=f"Unblock (Centre, {SLOTS[0]})").click()
    page.get_by_role("dialog", name="Unblock?").get_by_role("button", name="Yes, unblock").click()
    expect(page.get_by_role("button", name=f"Free (Centre, {SLOTS[0]})")).to_be_visible()
    assert Block.objects.count() == 0


def test_a_court_named_with_markup_is_shown_as_it_is_in_the_block_dialog(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    name = "<meta http-equiv='refresh' content='0;url=/forbidden'>Centre"
    CourtFactory(name=name, type="Tennis", slots=SLOTS)
    schedule = f"{site}/schedule?date={tomorrow().isoformat()}"
    sign_in(page, site, "ann@example.com", schedule.removeprefix(site))

    page.get_by_role("button", name=f"Free ({name}, {SLOTS[0]})").click()
    page.get_by_role("button", name="Block", exact=True).click()

    form = page.get_by_role("dialog", name=f"Block {name}")
    expect(form).to_be_visible()
    page.wait_for_timeout(500)  # a meta refresh of 0 s would have navigated by now
    assert page.url == schedule
    form.get_by_role("button", name="Cancel").click()


def test_leaving_out_the_slots_in_the_way_keeps_the_booking_and_visitors_read_why(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    ada = User.objects.create_user("ada@example.com")
    court = CourtFactory(name="Centre", type="Tennis", slots=SLOTS)
    week_on = tomorrow() + timedelta(weeks=1)
    booking = make_booking(user=ada, court=court, date=week_on, slots=SLOTS[1:2])
    sign_in(page, site, "ann@example.com", f"/schedule?date={tomorrow().isoformat()}")

    for slot in SLOTS:
        page.get_by_role("button", name=f"Free (Centre, {slot})").click()
    page.get_by_role("button", name="Block", exact=True).click()
    form = page.get_by_role("dialog", name="Block Centre")
    form.get_by_label("Reason (shown in the schedule)").fill("Tournament")
    form.get_by_label("Weekly until (optional: leave empty for this day only)").fill(week_on.isoformat())
    form.get_by_role("button", name="Block", exact=True).click()
    page.get_by_role("dialog", name="Bookings in the way").get_by_role(
        "button", name="Leave those slots out"
    ).click()
    expect(page.get_by_test_id("schedule").get_by_text("Tournament")).to_have_count(3)

    booking.refresh_from_db()
    assert booking.status == Booking.Status.PENDING
    page.context.clear_cookies()
    page.goto(f"{site}/schedule?date={week_on.isoformat()}")
    row = page.get_by_role("row", name=re.compile("^Centre"))
    expect(row.get_by_role("cell", name="Blocked Tournament", exact=True)).to_have_count(2)
    expect(row.get_by_role("cell", name="Taken", exact=True)).to_have_count(1)
