import re

import pytest
from playwright.sync_api import Page, expect

from content.models import ContactMessage
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}


def test_home_shows_the_hero(site: str, page: Page):
    page.goto(site + "/")

    expect(page.get_by_role("heading", level=1)).to_have_text("Manage Your Club Effortlessly")
    page.get_by_role("link", name="View Courts").click()
    expect(page).to_have_url(site + "/courts")


def test_join_now_is_offered_only_to_someone_signed_out(site: str, page: Page):
    page.goto(site + "/")
    expect(page.get_by_role("link", name="Join Now")).to_be_visible()

    sign_in(page, site, "sam@example.com", "/")

    expect(page.get_by_role("link", name="View Courts")).to_be_visible()
    expect(page.get_by_role("link", name="Join Now")).to_have_count(0)


@pytest.mark.parametrize("width", [390, 1366])
def test_a_court_image_that_fails_to_load_shows_a_placeholder(site: str, page: Page, width: int):
    # The site's browser tests reach no other host: this address fails as a gone image would.
    CourtFactory(name="Lost Court", type="Tennis", image="https://images.example.com/lost.jpg")
    CourtFactory(name="Centre Court", type="Tennis")
    page.set_viewport_size({"width": width, "height": 900})

    page.goto(site + "/courts")

    placeholder = page.get_by_role("img", name="Lost Court: image unavailable")
    expect(placeholder).to_be_visible()
    expect(placeholder).to_have_attribute("src", re.compile(r"/static/img/courts/placeholder\."))
    assert placeholder.evaluate("image => image.decode().then(() => image.naturalWidth)") > 0
    expect(page.get_by_role("img", name="Centre Court, a tennis court")).to_be_visible()


def test_courts_lists_the_courts_and_pages_through_them(site: str, page: Page):
    CourtFactory.create_batch(6, type="Tennis")
    CourtFactory(type="Volleyball", name="Beach Court")

    page.goto(site + "/courts")

    expect(page.get_by_role("heading", level=1)).to_have_text("Available Courts")
    court_types = page.get_by_test_id("court-grid").get_by_role("heading")
    expect(court_types).to_have_count(6)
    expect(page.get_by_role("button", name="Prev")).to_be_disabled()
    page.get_by_role("link", name="Next").click()
    expect(court_types).to_have_text(["Volleyball"])
    expect(page.get_by_text("Price per session: $20.00")).to_be_visible()
    expect(page.get_by_role("button", name="Next")).to_be_disabled()


def test_sending_the_support_form_shows_a_toast_and_clears_the_form(site: str, page: Page):
    page.goto(site + "/support")

    page.get_by_label("Name").fill("Ada Lovelace")
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Message").fill("The net on court 2 is torn.")
    page.get_by_role("button", name="Send Message").click()

    toast = page.locator("[data-rht-toaster]").get_by_role("status")
    expect(toast).to_have_text("Thank you! Your message has been sent. We'll reply within 24 hours.")
    expect(page.get_by_label("Name")).to_have_value("")
    assert ContactMessage.objects.filter(email="ada@example.com").count() == 1


def test_an_invalid_support_form_shows_the_errors_under_the_fields(site: str, page: Page):
    page.goto(site + "/support")

    page.get_by_label("Name").fill("Ada")
    page.get_by_label("Email").fill("not-an-email")
    page.get_by_role("button", name="Send Message").click()

    expect(page.get_by_label("Email")).to_have_accessible_description("Please enter a valid e-mail address.")
    expect(page.get_by_label("Message")).to_have_accessible_description("Please write your message.")
    expect(page.get_by_label("Name")).to_have_value("Ada")
    assert ContactMessage.objects.count() == 0


def test_at_phone_width_the_navbar_collapses_into_a_dropdown(site: str, page: Page):
    page.set_viewport_size(PHONE)
    page.goto(site + "/")

    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    page.get_by_label("Open the menu").click()
    dropdown = page.get_by_test_id("nav-dropdown")
    expect(dropdown.get_by_role("link")).to_have_text(
        ["Home", "Courts", "Matches", "Programs", "Schedule", "Support"]
    )
    dropdown.get_by_role("link", name="Support").click()
    expect(page).to_have_url(site + "/support")


def test_at_desktop_width_the_navbar_shows_its_links_inline(site: str, page: Page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site + "/")

    expect(page.get_by_role("navigation", name="Main").get_by_role("link")).to_have_text(
        ["Home", "Courts", "Matches", "Programs", "Schedule", "Support"]
    )
    expect(page.get_by_label("Open the menu")).to_be_hidden()
