"""A member's home on a phone (390 by 844 px): what waits for them reads above their profile card
without scrolling sideways, each section's action is on screen and leads where it says, and the
announcements read on their page are no longer new."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_cancel
from bookings.tests.factories import make_booking, tomorrow
from bookings.waitlist import waitlist_join, waitlist_offer
from content.models import Announcement
from courts.tests.factories import CourtFactory
from e2e.journeys import PHONE, assert_on_screen, requests_under_way, sign_in, wait_until_settled

pytestmark = pytest.mark.browser

LONG_EMAIL = "alexandra.konstantinopoulou.the.third@example-sports-club.com"
COURT = "Centre Court With A Long Name"


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    """The module's pages are a phone's."""
    return {**browser_context_args, "viewport": PHONE}


@pytest.fixture
def member():
    """A member with a long address: a confirmed booking tomorrow, an approved one to pay and a
    freed slot held for them the day after, and an announcement made since they joined."""
    member = User.objects.create_user(LONG_EMAIL, role=User.Role.MEMBER, name="Alexandra Konstantinopoulou")
    court = CourtFactory(name=COURT)
    make_booking(user=member, court=court, slots=court.slots[:1], status=Booking.Status.CONFIRMED)
    make_booking(user=member, court=court, slots=court.slots[1:2], status=Booking.Status.APPROVED)
    bob = User.objects.create_user("bob@example.com")
    later = tomorrow() + timedelta(days=1)
    taken = make_booking(user=bob, court=court, date=later, slots=court.slots[2:])
    waitlist_join(user=member, court=court, date=later, slot=court.slots[2])
    booking_cancel(booking=taken, by=bob)
    waitlist_offer(court_id=court.pk, date=later, slots=court.slots[2:])
    Announcement.objects.create(text="The courts close at 6 pm on Friday for the club's summer tournament.")
    return member


def assert_nothing_scrolls_sideways(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def section(page: Page, heading: str):
    return page.locator("section").filter(has=page.get_by_role("heading", name=heading, exact=True))


def test_a_members_home_shows_what_waits_for_them_on_a_phone(site: str, page: Page, member):
    sign_in(page, site, LONG_EMAIL, "/dashboard")
    page.wait_for_load_state("load")

    headings = page.locator("main h2").all_inner_texts()
    assert headings[:4] == ["Next bookings", "Payments due", "Slots held for you", "New announcements"]
    assert headings.index(member.name) > 3  # the profile card comes after them
    assert_nothing_scrolls_sideways(page)

    expect(section(page, "Next bookings").get_by_role("link", name=COURT)).to_have_count(2)
    pay = section(page, "Payments due").get_by_role("link", name="Pay $20.00")
    assert_on_screen(pay)
    expect(section(page, "Payments due")).to_contain_text("Pay by")
    held = section(page, "Slots held for you")
    expect(held).to_contain_text("Held until")
    assert_on_screen(held.get_by_role("link", name="Book now"))
    expect(section(page, "New announcements")).to_contain_text("The courts close at 6 pm on Friday")

    under_way = requests_under_way(page)
    pay.click()
    expect(page).to_have_url(re.compile(r"/dashboard/payment-page/\d+$"))
    # Its request for a PaymentIntent answered: nothing writes a payment once the test is over.
    wait_until_settled(page, under_way)


def test_reading_the_announcements_leaves_none_new_on_the_home(site: str, page: Page, member):
    sign_in(page, site, LONG_EMAIL, "/dashboard")

    section(page, "New announcements").get_by_role("link", name="Read all announcements").click()
    expect(page.get_by_role("heading", level=1, name="Club Announcements")).to_be_visible()
    page.goto(site + "/dashboard")

    expect(section(page, "New announcements")).to_contain_text("No new announcements.")


def test_a_new_users_home_says_nothing_waits_and_offers_to_book(site: str, page: Page):
    User.objects.create_user("ada@example.com", name="Ada Lovelace")
    sign_in(page, site, "ada@example.com", "/dashboard")
    page.wait_for_load_state("load")

    expect(section(page, "Next bookings")).to_contain_text("No upcoming bookings.")
    expect(section(page, "Payments due")).to_contain_text("Nothing to pay.")
    expect(section(page, "Slots held for you")).to_contain_text("No slots are held for you.")
    expect(section(page, "New announcements")).to_contain_text("No new announcements.")
    assert_nothing_scrolls_sideways(page)

    book = section(page, "Next bookings").get_by_role("link", name="Book a court")
    assert_on_screen(book)
    book.click()
    expect(page).to_have_url(site + "/schedule")
