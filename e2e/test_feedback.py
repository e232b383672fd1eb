"""A failure looks the same on every page: a toast saying what failed, with the server's reason,
above whatever dialog is open; never a browser alert, never an error dialog of its own.

Each test makes the action fail the way it fails for real: someone else changed the record in
the meantime (another admin, the person on another device)."""

import pytest
from playwright.sync_api import Dialog, Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from content.models import Announcement
from courts.models import Court
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from payments.models import Coupon

pytestmark = pytest.mark.browser


@pytest.fixture
def people():
    User.objects.create_user("ada@example.com")
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)


@pytest.fixture
def browser_alerts(page: Page) -> list[str]:
    """The messages of the browser's own alert boxes the page opens (dismissed at once)."""
    messages: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        messages.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    return messages


def expect_failure_toast(page: Page, text: str) -> None:
    """An error toast says `text`, and nothing covers it: it is what a pointer at it would reach
    (Playwright's hit-target check), so it is seen, and read out, above an open modal dialog."""
    message = page.locator("[data-rht-toaster]").get_by_role("status").filter(has_text=text)
    expect(message).to_be_visible()
    message.click(trial=True, timeout=2000)
    expect(page.get_by_role("dialog").filter(has_text="That did not work")).to_have_count(0)


def test_cancelling_a_booking_already_cancelled_elsewhere_is_a_toast_not_an_alert(
    site: str, page: Page, people, browser_alerts
):
    booking = make_booking(user=User.objects.get(email="ada@example.com"))
    sign_in(page, site, "ada@example.com", "/dashboard/pending-bookings")
    Booking.objects.filter(pk=booking.pk).update(status=Booking.Status.CANCELLED)

    page.get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Yes, cancel it!").click()

    expect_failure_toast(page, "Failed to cancel the booking.")
    assert browser_alerts == []


def test_approving_a_booking_cancelled_meanwhile_is_a_toast_with_the_reason(site: str, page: Page, people):
    booking = make_booking(user=User.objects.get(email="ada@example.com"))
    sign_in(page, site, "ann@example.com", "/dashboard/manage-bookings-approval")
    Booking.objects.filter(pk=booking.pk).update(status=Booking.Status.CANCELLED)

    page.get_by_role("button", name="Approve").click()

    expect_failure_toast(page, "The booking was not approved.")


def test_a_court_deleted_meanwhile_is_reported_above_the_open_modal(site: str, page: Page, people):
    CourtFactory(name="North Court")
    sign_in(page, site, "ann@example.com", "/dashboard/manage-courts")
    page.get_by_role("button", name="Edit North Court").click()
    form = page.get_by_role("dialog", name="Update Court")
    Court.objects.all().delete()

    form.get_by_label("Price").fill("30")
    form.get_by_role("button", name="Update").click()

    expect_failure_toast(page, "Action failed.")
    expect(form).to_be_visible()  # the form stays open, with what was typed
    expect(form.get_by_label("Price")).to_have_value("30")


def test_a_coupon_deleted_meanwhile_is_a_toast_not_an_error_dialog(site: str, page: Page, people):
    Coupon.objects.create(code="SPRING25", discount=25)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-coupons")
    Coupon.objects.all().delete()

    page.get_by_role("button", name="Delete SPRING25").click()
    page.get_by_role("button", name="Yes, delete it!").click()

    expect_failure_toast(page, "The coupon was not deleted.")
    expect(page.get_by_role("row", name="SPRING25")).to_be_visible()  # still listed: nothing changed here


def test_an_announcement_deleted_meanwhile_is_a_toast_not_an_error_dialog(site: str, page: Page, people):
    Announcement.objects.create(text="Courts close early on Friday.")
    sign_in(page, site, "ann@example.com", "/dashboard/make-announcements")
    Announcement.objects.all().delete()

    page.get_by_role("button", name="Delete").click()
    page.get_by_role("button", name="Yes, delete it!").click()

    expect_failure_toast(page, "The announcement was not deleted.")
