"""Forms that say what they accept: each input carries the server's bounds, and a refused save puts
the problems at the top of the form, each linked to its field, with the message under the field."""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.models import User
from bookings.selectors import policy_get
from courts.models import Court
from e2e.journeys import sign_in
from payments.models import Coupon

pytestmark = pytest.mark.browser


@pytest.fixture
def admin(site: str, page: Page) -> Page:
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    return page


def expect_bounds(field: Locator, **bounds: str) -> None:
    for attribute, value in bounds.items():
        expect(field).to_have_attribute(attribute, value)


def follow_link_to(summary: Locator, link: str, field: Locator) -> None:
    """The summary's link whose name starts with `link` takes the keyboard to `field`, in view."""
    summary.get_by_role("link", name=re.compile(f"^{re.escape(link)}")).click()
    expect(field).to_be_focused()
    expect(field).to_be_in_viewport()


def test_club_rules_say_their_bounds_and_a_refusal_is_summed_up_at_the_top(admin: Page, site: str):
    page = admin
    sign_in(page, site, "ann@example.com", "/dashboard/club-rules")
    refund = page.get_by_label("Refund before the cut-off (%)")
    expect_bounds(refund, min="0", max="100")
    expect_bounds(page.get_by_label("Days ahead a member may book"), min="0", max="365")
    hold = page.get_by_label("Instant booking: minutes the slots are held while the person pays")
    expect_bounds(hold, min="2", max="120")

    refund.fill("120")
    hold.fill("1")
    page.get_by_role("button", name="Save the rules").click()

    summary = page.get_by_role("alert").filter(has_text="2 problems")
    expect(summary).to_be_focused()
    expect(summary).to_be_in_viewport()
    first_rules = page.locator("form fieldset").first.bounding_box()
    summary_box = summary.bounding_box()
    assert first_rules
    assert summary_box
    assert summary_box["y"] < first_rules["y"]
    expect(refund).to_have_accessible_description("Ensure this value is less than or equal to 100.")
    follow_link_to(summary, "Refund before the cut-off (%)", refund)
    follow_link_to(summary, "Instant booking", hold)
    assert policy_get().refund_percent == 100


def test_a_refused_court_is_summed_up_at_the_top_of_its_dialog(admin: Page, site: str):
    page = admin
    sign_in(page, site, "ann@example.com", "/dashboard/manage-courts")
    page.get_by_role("button", name="Add Court").click()
    form = page.get_by_role("dialog", name="Add New Court")
    price = form.get_by_label("Price", exact=True)
    expect_bounds(price, min="0.01", max="10000", step="0.01")
    expect_bounds(form.get_by_label("Name"), maxlength="100")
    expect_bounds(form.get_by_label("Image URL"), maxlength="500")

    form.get_by_label("Name").fill("North Court")
    form.get_by_label("Type").fill("Tennis")
    price.fill("20000")
    form.get_by_label("Image URL").fill("https://images.example.com/north.jpg")
    form.get_by_role("button", name="New band").click()
    expect_bounds(form.get_by_label("Price ($)"), min="0.01", max="10000")
    form.get_by_label("Price ($)").fill("10000.01")
    form.get_by_role("button", name="Add").click()

    summary = form.get_by_role("alert").filter(has_text="2 problems")
    expect(summary).to_be_focused()
    expect(price).to_have_accessible_description("Ensure this value is less than or equal to 10000.")
    follow_link_to(summary, "Price:", price)
    follow_link_to(summary, "Peak times", form.get_by_role("group", name="Peak times"))
    assert not Court.objects.exists()


def test_a_refused_coupon_is_summed_up_at_the_top_of_its_form(admin: Page, site: str):
    page = admin
    sign_in(page, site, "ann@example.com", "/dashboard/manage-coupons")
    code, discount = page.get_by_label("Coupon Code"), page.get_by_label("Discount %")
    uses = page.get_by_label("Uses in all (empty for no limit)")
    expect_bounds(code, maxlength="40", required="")
    expect_bounds(discount, min="1", max="100", step="1", required="")
    expect_bounds(uses, min="1", max="100000")
    expect_bounds(page.get_by_label("Description"), maxlength="200")

    code.fill("SPRING")
    discount.fill("150")
    uses.fill("200000")
    page.get_by_role("button", name="Add").click()

    summary = page.get_by_role("alert").filter(has_text="2 problems")
    expect(summary).to_be_focused()
    expect(discount).to_have_accessible_description("The discount is a whole percent from 1 to 100.")
    expect(uses).to_have_accessible_description("Ensure this value is less than or equal to 100000.")
    follow_link_to(summary, "Discount %", discount)
    follow_link_to(summary, "Uses in all", uses)
    assert not Coupon.objects.exists()
