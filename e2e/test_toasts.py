"""The toasts that say something failed: each stays until it is closed (by pointer or keyboard),
and never covers the page's heading nor the dialog that follows it; a failure the page also says
beside its form does not stay."""

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.models import User
from bookings.tests.factories import make_booking, tomorrow
from courts.tests.factories import CourtFactory
from e2e.journeys import PHONE, sign_in
from e2e.test_payments import pay_with_a_declined_card
from payments.models import Coupon

pytestmark = pytest.mark.browser

# Longer than any toast that goes by itself (4 s).
PAST_THE_USUAL_TIME_MS = 5000


def failure_toast(page: Page, text: str) -> Locator:
    return page.locator("[data-rht-toaster]").get_by_role("status").filter(has_text=text)


def overlap(one: Locator, other: Locator) -> bool:
    a, b = one.bounding_box(), other.bounding_box()
    assert a is not None
    assert b is not None
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.fixture
def ann():
    return User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann")


@pytest.mark.parametrize("size", [{"width": 1366, "height": 768}, PHONE], ids=["desktop", "phone"])
def test_a_failure_stays_clear_of_the_heading_until_closed_by_keyboard(site: str, page: Page, ann, size):
    Coupon.objects.create(code="SPRING25", discount=25)
    page.set_viewport_size(size)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-coupons")
    Coupon.objects.all().delete()  # by another admin, meanwhile

    page.get_by_role("button", name="Delete SPRING25").click()
    page.get_by_role("button", name="Yes, delete it!").click()

    toast = failure_toast(page, "The coupon was not deleted.")
    expect(toast).to_be_visible()
    assert not overlap(toast, page.get_by_role("heading", level=1))
    page.wait_for_timeout(PAST_THE_USUAL_TIME_MS)
    expect(toast).to_be_visible()

    close = page.locator("[data-rht-toaster]").get_by_role("button", name="Close this message")
    close.focus()
    page.keyboard.press("Enter")

    expect(toast).to_have_count(0)


def test_a_failed_save_does_not_cover_the_success_dialog_that_follows(site: str, page: Page, ann):
    Coupon.objects.create(code="TAKEN", discount=10)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-coupons")
    page.get_by_label("Coupon Code").fill("TAKEN")
    page.get_by_label("Discount %").fill("20")
    page.get_by_role("button", name="Add").click()
    toast = failure_toast(page, "The coupon was not saved.")
    expect(toast).to_be_visible()

    page.get_by_label("Coupon Code").fill("SUMMER20")
    page.get_by_role("button", name="Add").click()

    expect(page.get_by_role("dialog", name="Success")).to_be_visible()
    # Gone as the dialog opens, long before a toast would go by itself (the dialog hides the rest
    # of the page from the accessibility tree: the toast is looked for by its text).
    expect(page.locator("[data-rht-toaster]").get_by_text("The coupon was not saved.")).to_have_count(
        0, timeout=500
    )


def test_a_declined_card_s_toast_goes_and_the_message_beside_the_card_stays(
    site: str, page: Page, localstripe
):
    pay_with_a_declined_card(site, page)

    toast = failure_toast(page, "Your card was declined.")
    expect(toast).to_be_visible()
    assert not overlap(toast, page.get_by_role("heading", level=1))
    page.wait_for_timeout(PAST_THE_USUAL_TIME_MS)

    expect(toast).to_have_count(0)
    expect(page.get_by_role("alert")).to_have_text("Your card was declined.")


def test_a_refused_booking_request_is_said_in_the_modal_and_its_toast_leaves_submit_free(
    site: str, page: Page
):
    User.objects.create_user("ada@example.com")
    court = CourtFactory(name="Centre Court", type="Tennis", slots=["08:00-09:00"])
    page.set_viewport_size(PHONE)
    sign_in(page, site, "ada@example.com", "/courts")
    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill(tomorrow().isoformat())
    modal.get_by_label("08:00-09:00").check()
    make_booking(court=court, date=tomorrow(), slots=["08:00-09:00"])  # by someone else, meanwhile

    modal.get_by_role("button", name="Submit Booking").click()

    expect(modal.get_by_role("alert")).to_contain_text("Failed to submit booking.")
    page.wait_for_timeout(PAST_THE_USUAL_TIME_MS)
    expect(failure_toast(page, "Failed to submit booking.")).to_have_count(0)
    expect(modal.get_by_role("alert")).to_contain_text("Failed to submit booking.")
