"""The dashboards on a phone (390 by 844 px): every list reads without scrolling sideways and each
row's actions are on screen and usable; the menu works by keyboard; the page's title shows once."""

import re
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from content.models import Announcement, ContactMessage
from courts.tests.factories import CourtFactory
from e2e.journeys import PHONE, assert_on_screen, sign_in
from memberships.tests.factories import make_plan
from payments.models import Coupon
from payments.tests.helpers import paid

pytestmark = pytest.mark.browser

LONG_EMAIL = "alexandra.konstantinopoulou.the.third@example-sports-club.com"


@pytest.fixture
def club():
    """An admin, and a member with a long address who has a booking in every state that has a list."""
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann Admin")
    member = User.objects.create_user(LONG_EMAIL, role=User.Role.MEMBER, name="Alexandra Konstantinopoulou")
    court = CourtFactory(name="Centre Court With A Long Name", price=Decimal("30.00"))
    make_booking(user=member, court=court, slots=[court.slots[0]])
    make_booking(user=member, court=court, slots=[court.slots[1]], status=Booking.Status.APPROVED)
    confirmed = make_booking(
        user=member, court=court, slots=[court.slots[2]], status=Booking.Status.CONFIRMED
    )
    paid(confirmed, "30.00", timezone.now(), card_last4="4242")
    Coupon.objects.create(code="SPRING20", discount=20)
    make_plan()
    Announcement.objects.create(text="The courts close at 6 pm on Friday for the club's summer tournament.")
    ContactMessage.objects.create(name="Vic Visitor", email=LONG_EMAIL, message="Is the club open on Sunday?")


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    """The module's pages are a phone's."""
    return {**browser_context_args, "viewport": PHONE}


def on_phone(page: Page, site: str, email: str, path: str) -> Page:
    sign_in(page, site, email, path)
    # Measured once the stylesheets have loaded: a page without islands is ready to script before.
    page.wait_for_load_state("load")
    return page


def assert_nothing_scrolls_sideways(page: Page) -> None:
    widths = page.evaluate(
        """() => [
            document.documentElement.scrollWidth,
            ...[...document.querySelectorAll('main .overflow-x-auto')]
                .map(box => box.scrollWidth - box.clientWidth),
        ]"""
    )
    assert widths[0] <= PHONE["width"], f"the page is {widths[0]} px wide"
    assert all(extra <= 0 for extra in widths[1:]), f"a table scrolls sideways by {widths[1:]} px"


def control(row, action: str):
    """The row's button or link whose name contains `action`."""
    name = re.compile(action)
    return row.get_by_role("button", name=name).or_(row.get_by_role("link", name=name)).first


ADMIN_LISTS = {
    "/dashboard/manage-bookings-approval": ["Approve", "Reject"],
    "/dashboard/manage-bookings": [],
    "/dashboard/manage-users": ["(Make|Remove) admin"],
    "/dashboard/manage-members": ["Delete"],
    "/dashboard/manage-courts": ["Edit", "Delete"],
    "/dashboard/manage-coupons": ["Edit", "Delete"],
    "/dashboard/membership-plans": ["Take off sale", "Edit", "Delete"],
    "/dashboard/make-announcements": ["Edit", "Delete"],
    "/dashboard/support-inbox": ["Open"],
    "/dashboard/ledger": [],
}
MEMBER_LISTS = {
    "/dashboard/my-bookings": ["Centre Court With A Long Name"],
    "/dashboard/pending-bookings": ["Cancel"],
    "/dashboard/approved-bookings": ["Pay", "Cancel"],
    "/dashboard/confirmed-bookings": [],
    "/dashboard/payment-history": ["Receipt"],
    "/dashboard/announcements": [],
}


@pytest.mark.parametrize(("path", "actions"), list(ADMIN_LISTS.items()))
def test_each_admin_list_reads_and_acts_on_a_phone(site: str, page: Page, club, path, actions):
    page = on_phone(page, site, "ann@example.com", path)
    rows = page.locator("main tbody tr, main li.card")
    expect(rows.first).to_be_visible()

    assert_nothing_scrolls_sideways(page)
    for action in actions:
        assert_on_screen(control(rows.first, action))


@pytest.mark.parametrize(("path", "actions"), list(MEMBER_LISTS.items()))
def test_each_member_list_reads_and_acts_on_a_phone(site: str, page: Page, club, path, actions):
    page = on_phone(page, site, LONG_EMAIL, path)
    rows = page.locator("main tbody tr")
    expect(rows.first).to_be_visible()

    assert_nothing_scrolls_sideways(page)
    for action in actions:
        assert_on_screen(control(rows.first, action))


def test_the_long_address_is_shown_whole_on_a_phone(site: str, page: Page, club):
    page = on_phone(page, site, "ann@example.com", "/dashboard/manage-users")

    cell = page.get_by_role("cell", name=re.compile(re.escape(LONG_EMAIL) + "$"))
    expect(cell).to_be_visible()
    box = cell.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= PHONE["width"]


def test_an_admin_approves_from_a_phone(site: str, page: Page, club):
    page = on_phone(page, site, "ann@example.com", "/dashboard/manage-bookings-approval")

    page.get_by_role("button", name="Approve").click()

    expect(page.get_by_text("Booking approved successfully.")).to_be_visible()
    assert Booking.objects.filter(status=Booking.Status.APPROVED).count() == 2


def test_the_menu_opens_and_closes_by_keyboard_and_gives_focus_back(site: str, page: Page, club):
    page = on_phone(page, site, LONG_EMAIL, "/dashboard/my-bookings")
    menu_button = page.get_by_role("button", name="Open the dashboard menu")
    expect(menu_button).to_have_attribute("aria-expanded", "false")

    menu_button.focus()
    page.keyboard.press("Enter")

    menu = page.get_by_role("navigation", name="Dashboard")
    expect(menu).to_be_in_viewport()
    expect(menu_button).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#dashboard-menu a").first).to_be_focused()

    page.keyboard.press("Escape")

    expect(menu).not_to_be_in_viewport()
    expect(menu_button).to_be_focused()
    expect(menu_button).to_have_attribute("aria-expanded", "false")


def test_the_page_title_shows_once_on_a_phone(site: str, page: Page, club):
    page = on_phone(page, site, LONG_EMAIL, "/dashboard/payment-history")

    expect(page.get_by_text("Payment History", exact=True).filter(visible=True)).to_have_count(1)
    expect(page.get_by_role("heading", level=1, name="Payment History")).to_be_visible()
