import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.tests.factories import make_booking
from courts.models import Court
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser


@pytest.fixture
def admin_page(site: str, page: Page) -> Page:
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-courts")
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


def test_the_delete_question_says_whether_the_court_will_be_deleted_or_archived(admin_page: Page):
    page = admin_page
    CourtFactory(name="Free Court")
    make_booking(court=CourtFactory(name="Busy Court"))
    page.reload()

    page.get_by_role("button", name="Delete Free Court").click()
    question = page.get_by_role("dialog", name="Are you sure?")
    expect(question).to_contain_text("You won't be able to revert this!")
    expect(question).not_to_contain_text("archived")
    page.get_by_role("button", name="Cancel").click()
    expect(question).to_have_count(0)

    page.get_by_role("button", name="Delete Busy Court").click()
    expect(question).to_contain_text("This court has bookings, so it will be archived, not deleted")
    expect(question).not_to_contain_text("You won't be able to revert this!")
    page.get_by_role("button", name="Cancel").click()
    assert Court.objects.filter(is_archived=False).count() == 2


def test_a_court_with_bookings_is_archived_then_restored_from_the_archived_view(admin_page: Page, site: str):
    page = admin_page
    court = CourtFactory(name="Busy Court")
    make_booking(court=court)
    page.reload()
    expect(page.get_by_role("tab", name="Open")).to_have_attribute("aria-selected", "true")

    page.get_by_role("button", name="Delete Busy Court").click()
    page.get_by_role("button", name="Yes, delete it!").click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("Court archived: its bookings keep it")
    expect(page.get_by_text("No courts yet.")).to_be_visible()
    court.refresh_from_db()
    assert court.is_archived
    page.goto(site + "/courts")
    expect(page.get_by_text("Busy Court")).to_have_count(0)

    page.goto(site + "/dashboard/manage-courts")
    page.get_by_role("tab", name="Archived").click()
    archived = page.get_by_role("tabpanel", name="Archived")
    expect(archived.get_by_role("row", name=re.compile("Busy Court"))).to_be_visible()
    archived.get_by_role("button", name="Restore Busy Court").click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("Court restored")
    expect(archived.get_by_text("No archived courts.")).to_be_visible()
    page.get_by_role("tab", name="Open").click()
    expect(page.get_by_role("row", name=re.compile("Busy Court"))).to_be_visible()
    court.refresh_from_db()
    assert not court.is_archived
    page.goto(site + "/courts")
    expect(page.get_by_role("heading", name=court.type)).to_be_visible()
    expect(page.get_by_text("Busy Court")).to_be_visible()


@pytest.mark.parametrize("width", [390, 1366])
def test_an_admin_thumbnail_that_fails_to_load_shows_a_placeholder(admin_page: Page, width: int):
    page = admin_page
    # The site's browser tests reach no other host: this address fails as a gone image would.
    CourtFactory(name="Lost Court", type="Tennis", image="https://images.example.com/lost.jpg")
    CourtFactory(name="Centre Court", type="Tennis")
    page.set_viewport_size({"width": width, "height": 900})
    page.reload()

    row = page.get_by_role("row", name=re.compile("Lost Court"))
    placeholder = row.get_by_role("img", name="Lost Court: image unavailable")
    expect(placeholder).to_be_visible()
    expect(placeholder).to_have_attribute("src", re.compile(r"/static/img/courts/placeholder\."))
    assert placeholder.evaluate("image => image.decode().then(() => image.naturalWidth)") > 0
    expect(page.get_by_role("img", name="Centre Court, a tennis court")).to_be_visible()
    expect(row.get_by_role("button", name="Delete Lost Court")).to_be_visible()


def test_the_court_form_previews_the_image(admin_page: Page):
    page = admin_page
    page.get_by_role("button", name="Add Court").click()
    form = page.get_by_role("dialog", name="Add New Court")
    expect(form.get_by_role("img")).to_have_count(0)

    form.get_by_label("Image URL").fill("/static/img/courts/squash.svg")
    preview = form.get_by_role("img", name="Preview of the image")
    expect(preview).to_be_visible()
    assert preview.evaluate("image => image.decode().then(() => image.naturalWidth)") > 0

    form.get_by_label("Image URL").fill("https://images.example.com/missing.jpg")
    failed = form.get_by_role("img", name="Preview: the image at this address does not load")
    expect(failed).to_be_visible()
    expect(failed).to_have_attribute("src", re.compile(r"/static/img/courts/placeholder\."))

    page.keyboard.press("Escape")
    CourtFactory(name="Centre Court", type="Tennis", image="/static/img/courts/tennis.svg")
    page.reload()
    page.get_by_role("button", name="Edit Centre Court").click()
    form = page.get_by_role("dialog", name="Update Court")
    expect(form.get_by_role("img", name="Preview of the image")).to_have_attribute(
        "src", re.compile(r"/static/img/courts/tennis\.")
    )
