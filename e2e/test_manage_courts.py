import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.tests.factories import make_booking
from courts.models import Court
from courts.tests.factories import CourtFactory

pytestmark = pytest.mark.browser


@pytest.fixture
def admin_page(site: str, page: Page, emulator) -> Page:
    emulator.sign_up("ann@example.com", "secret-pass-1")
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    page.goto(f"{site}/login?next=/dashboard/manage-courts")
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_label("Password").fill("secret-pass-1")
    page.get_by_role("button", name="Login").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Manage Courts")
    return page


def test_an_admin_adds_edits_and_deletes_a_court(admin_page: Page):
    page = admin_page
    page.get_by_role("button", name="Add Court").click()
    form = page.get_by_role("dialog", name="Add New Court")
    form.get_by_role("button", name="Add").click()
    expect(form.get_by_label("Name")).to_have_accessible_description("This field is required.")

    form.get_by_label("Name").fill("North Court")
    form.get_by_label("Type").fill("Tennis")
    form.get_by_label("Price").fill("25.5")
    form.get_by_label("Image URL").fill("https://images.example.com/north.jpg")
    form.get_by_label("Slots").fill("08:00-09:00\n09:00-10:00")
    form.get_by_role("button", name="Add").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("New court added")
    expect(page.get_by_role("row", name=re.compile("North Court"))).to_contain_text("25.50")
    assert Court.objects.get().slots == ["08:00-09:00", "09:00-10:00"]

    page.get_by_role("button", name="Edit North Court").click()
    form = page.get_by_role("dialog", name="Update Court")
    form.get_by_label("Price").fill("-3")
    form.get_by_role("button", name="Update").click()
    expect(form.get_by_label("Price")).to_have_accessible_description("The price must be a positive number.")
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Action failed")
    form.get_by_label("Price").fill("30")
    form.get_by_role("button", name="Update").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Court updated")
    expect(page.get_by_role("row", name=re.compile("North Court"))).to_contain_text("30.00")

    page.get_by_role("button", name="Delete North Court").click()
    expect(page.get_by_role("dialog", name="Are you sure?")).to_contain_text(
        "You won't be able to revert this!"
    )
    page.get_by_role("button", name="Yes, delete it!").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Court deleted")
    expect(page.get_by_text("No courts yet.")).to_be_visible()
    assert Court.objects.count() == 0


def test_deleting_a_court_with_bookings_archives_it(admin_page: Page, site: str):
    court = CourtFactory(name="Busy Court")
    make_booking(court=court)
    admin_page.reload()

    admin_page.get_by_role("button", name="Delete Busy Court").click()
    admin_page.get_by_role("button", name="Yes, delete it!").click()

    expect(admin_page.locator("[data-rht-toaster]")).to_contain_text("archived")
    court.refresh_from_db()
    assert court.is_archived
    admin_page.goto(site + "/courts")
    expect(admin_page.get_by_text("Busy Court")).to_have_count(0)
