"""The confirmation dialogs (sweetalert2) use the site's theme: its buttons are the site's buttons."""

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.models import User
from e2e.journeys import sign_in
from payments.models import Coupon

pytestmark = pytest.mark.browser

# The background of a button of the site with `classes`, drawn beside the dialog to compare.
SITE_BUTTON = """classes => {
    const probe = document.createElement("button");
    probe.className = classes;
    document.body.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
}"""


def assert_site_button(page: Page, button: Locator, classes: str) -> None:
    expect(button).to_be_visible()
    for name in classes.split():
        expect(button).to_contain_class(name)
    expect(button).to_have_css("background-color", page.evaluate(SITE_BUTTON, classes))


def test_the_delete_question_and_its_answer_have_the_site_s_buttons(site: str, page: Page):
    Coupon.objects.create(code="SPRING20", discount=20)
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-coupons")

    page.get_by_role("button", name="Delete SPRING20").click()

    question = page.get_by_role("dialog", name="Are you sure?")
    assert_site_button(page, question.get_by_role("button", name="Yes, delete it!"), "btn btn-error")
    assert_site_button(page, question.get_by_role("button", name="Cancel"), "btn")
    question.get_by_role("button", name="Yes, delete it!").click()

    answer = page.get_by_role("dialog", name="Deleted")
    assert_site_button(page, answer.get_by_role("button", name="OK"), "btn btn-primary")
