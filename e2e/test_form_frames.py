"""Forms' fieldsets and text areas show where they begin and end: a border of a colour other than
the background behind them, and room inside."""

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.models import User
from e2e.journeys import PASSWORD, sign_in_on_the_login_page

pytestmark = pytest.mark.browser

# The element's border and padding, and the colour of the first ancestor with a background.
FRAME = """element => {
    const style = getComputedStyle(element);
    let behind = element.parentElement;
    while (behind && getComputedStyle(behind).backgroundColor === "rgba(0, 0, 0, 0)") {
        behind = behind.parentElement;
    }
    return {
        width: parseFloat(style.borderTopWidth),
        style: style.borderTopStyle,
        colour: style.borderTopColor,
        background: behind ? getComputedStyle(behind).backgroundColor : "rgb(255, 255, 255)",
        padding: parseFloat(style.paddingTop) + parseFloat(style.paddingLeft),
    };
}"""


def assert_framed(element: Locator) -> None:
    expect(element).to_be_visible()
    frame = element.evaluate(FRAME)
    assert frame["width"] > 0, frame
    assert frame["style"] != "none", frame
    assert frame["colour"] not in (frame["background"], "rgba(0, 0, 0, 0)"), frame
    assert frame["padding"] > 0, frame


def test_the_admin_forms_fieldsets_and_the_slots_textarea_are_framed(site: str, page: Page, emulator):
    # A password account, through /login: the profile page then offers its password form.
    emulator.sign_up("ann@example.com", PASSWORD)
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    sign_in_on_the_login_page(page, site, "ann@example.com", "/dashboard/manage-courts")

    page.get_by_role("button", name="Add Court").click()
    dialog = page.get_by_role("dialog", name="Add New Court")
    assert_framed(dialog.locator("fieldset"))
    assert_framed(dialog.get_by_label("Slots"))

    page.goto(site + "/dashboard/manage-coupons")
    assert_framed(page.get_by_role("group", name="New coupon"))

    page.goto(site + "/dashboard/membership-plans")
    assert_framed(page.get_by_role("group", name="New plan"))

    page.goto(site + "/dashboard/profile")
    assert_framed(page.locator("form fieldset").first)


def test_the_support_forms_message_box_is_framed(site: str, page: Page):
    page.goto(site + "/support")

    assert_framed(page.get_by_label("Message"))
