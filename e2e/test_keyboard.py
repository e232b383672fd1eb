"""The site by keyboard alone: a modal dialog takes focus to its first field, keeps Tab inside
itself, closes with Esc and gives focus back to what opened it; a field that cannot be changed is
no tab stop; the dashboard on a phone has no invisible tab stop."""

from decimal import Decimal

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.models import User
from courts.tests.factories import CourtFactory
from e2e.journeys import PHONE, sign_in

pytestmark = pytest.mark.browser


# What has focus, named as a person would name it: its label, or its text.
FOCUSED = """() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "(nothing)";
    const label = element.labels?.[0]?.innerText ?? element.getAttribute("aria-label") ?? "";
    return (label || element.innerText || element.tagName).trim();
}"""


def focused(page: Page) -> str:
    return page.evaluate(FOCUSED)


def tab_stops(page: Page, count: int) -> list[str]:
    """What Tab reaches, `count` presses in a row; a control reached again at once (the parts of a
    date field: month, day, year) is named once."""
    reached: list[str] = []
    for _ in range(count):
        page.keyboard.press("Tab")
        if not reached or reached[-1] != focused(page):
            reached.append(focused(page))
    return reached


def expect_focus_inside(dialog: Locator) -> None:
    expect(dialog.locator(":focus")).to_have_count(1)


def test_the_booking_modal_takes_focus_to_its_first_field_keeps_it_and_gives_it_back(site: str, page: Page):
    User.objects.create_user("ada@example.com", name="Ada")
    CourtFactory(name="Centre Court", type="Tennis", price=Decimal("20"), slots=["08:00-09:00"])
    sign_in(page, site, "ada@example.com", "/courts")
    opener = page.get_by_role("button", name="Book Now")
    expect(opener).to_be_enabled()

    opener.focus()
    page.keyboard.press("Enter")

    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    expect(modal.get_by_label("Date")).to_be_focused()
    # The court's type and price are shown, not tab stops; Tab goes round the modal's controls.
    assert tab_stops(page, 7) == ["Date", "Repeat these slots", "Submit Booking", "Close", "Date"]
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "Submit Booking"
    expect_focus_inside(modal)

    page.keyboard.press("Escape")

    expect(modal).to_be_hidden()
    expect(opener).to_be_focused()


def test_the_court_form_takes_focus_to_its_first_field_and_keeps_it(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann")
    sign_in(page, site, "ann@example.com", "/dashboard/manage-courts")
    opener = page.get_by_role("button", name="Add Court")

    opener.focus()
    page.keyboard.press("Enter")

    form = page.get_by_role("dialog", name="Add New Court")
    expect(form.get_by_label("Name")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "Add"
    page.keyboard.press("Tab")
    assert focused(page) == "Name"

    page.keyboard.press("Escape")

    expect(form).to_be_hidden()
    expect(opener).to_be_focused()


def test_on_a_phone_the_first_tab_stops_of_the_dashboard_are_all_visible(site: str, page: Page):
    User.objects.create_user("ada@example.com", name="Ada")
    page.set_viewport_size(PHONE)
    sign_in(page, site, "ada@example.com", "/dashboard/my-bookings")
    menu_button = page.get_by_role("button", name="Open the dashboard menu")
    expect(menu_button).to_have_attribute("aria-expanded", "false")

    # The skip link, then the menu button: nothing unseen between them, and no link of the closed menu.
    assert tab_stops(page, 2) == ["Skip to content", "Open the dashboard menu"]
    expect(menu_button).to_be_focused()
    for _ in range(6):
        page.keyboard.press("Tab")
        expect(page.locator("#dashboard-menu :focus")).to_have_count(0)
        assert page.evaluate("document.activeElement.checkVisibility({visibilityProperty: true})")
