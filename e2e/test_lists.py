"""The admin's long lists in a browser: paged and searched on the server."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.tests.test_list_pages import bookings_of
from content.models import Announcement
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser


@pytest.fixture
def admin():
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)


def data_rows(page: Page):
    return page.get_by_role("row").filter(has=page.get_by_role("cell"))


def test_the_admin_pages_through_the_users_and_filters_them_by_role(site: str, page: Page, admin):
    User.objects.bulk_create(User(email=f"person{number:02}@example.com") for number in range(27))
    User.objects.bulk_create(User(email=f"member{number}@example.com", role="member") for number in range(3))
    sign_in(page, site, "ann@example.com", "/dashboard/manage-users")
    expect(data_rows(page)).to_have_count(25)
    expect(page.get_by_text("1\N{EN DASH}25 of 31 users")).to_be_visible()

    page.get_by_role("button", name="Next").click()

    expect(page.get_by_text("26\N{EN DASH}31 of 31 users")).to_be_visible()
    expect(data_rows(page)).to_have_count(6)
    expect(data_rows(page).first.get_by_role("cell").first).to_have_text("26")

    page.get_by_label("Role").select_option("member")

    expect(page.get_by_text("1\N{EN DASH}3 of 3 users")).to_be_visible()
    expect(data_rows(page)).to_have_count(3)
    expect(page.get_by_role("button", name="Next")).to_have_count(0)


def test_the_admin_finds_a_confirmed_booking_by_e_mail_and_pages_without_javascript(
    site: str, page: Page, admin
):
    bookings_of("ada@example.com", 30)
    bookings_of("bob@example.com", 2)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-bookings")
    expect(page.get_by_text("1\N{EN DASH}25 of 32 bookings")).to_be_visible()

    page.get_by_role("link", name="Next").click()
    expect(page.get_by_text("26\N{EN DASH}32 of 32 bookings")).to_be_visible()

    page.get_by_role("searchbox", name="Email").fill("bob@")
    page.get_by_role("button", name="Search").click()

    expect(page).to_have_url(re.compile(r"email=bob%40"))
    expect(data_rows(page)).to_have_count(2)
    expect(page.get_by_text("2 bookings", exact=True)).to_be_visible()
    assert Booking.objects.count() == 32


def test_the_admin_pages_through_the_announcements_and_changes_them_in_place(site: str, page: Page, admin):
    Announcement.objects.bulk_create(Announcement(text=f"Notice {number}") for number in range(1, 27))
    cards = page.get_by_role("listitem").filter(has=page.get_by_role("button", name="Edit"))
    sign_in(page, site, "ann@example.com", "/dashboard/make-announcements")
    expect(cards).to_have_count(25)
    expect(page.get_by_text("1\N{EN DASH}25 of 26 announcements")).to_be_visible()

    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("26\N{EN DASH}26 of 26 announcements")).to_be_visible()
    expect(cards).to_have_count(1)
    cards.filter(has=page.get_by_text("Notice 1", exact=True)).get_by_role("button", name="Delete").click()
    page.get_by_role("button", name="Yes, delete it!").click()
    page.get_by_role("button", name="OK").click()
    # The page it was on is empty now: the last page that has rows.
    expect(page.get_by_text("1\N{EN DASH}25 of 25 announcements")).to_be_visible()
    expect(page.get_by_role("button", name="Next")).to_have_count(0)

    page.get_by_label("Write announcement").fill("Fresh notice")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_text("1\N{EN DASH}25 of 26 announcements")).to_be_visible()
    expect(cards.first).to_contain_text("Fresh notice")

    page.get_by_role("button", name="Next").click()
    cards.filter(has=page.get_by_text("Notice 2", exact=True)).get_by_role("button", name="Edit").click()
    page.get_by_label("Write announcement").fill("Notice two")
    page.get_by_role("button", name="Update").click()
    expect(cards.first).to_contain_text("Notice two")
    expect(page.get_by_text("26\N{EN DASH}26 of 26 announcements")).to_be_visible()

    page.get_by_label("Write announcement").fill("Another notice")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_text("1\N{EN DASH}25 of 27 announcements")).to_be_visible()
    expect(cards.first).to_contain_text("Another notice")
    assert Announcement.objects.filter(text="Notice two").exists()


def test_the_admin_s_booking_search_narrows_the_rows_as_they_type(site: str, page: Page, admin):
    bookings_of("ada@example.com", 3)
    bookings_of("bob@example.com", 2)
    sign_in(page, site, "ann@example.com", "/dashboard/manage-bookings")
    expect(data_rows(page)).to_have_count(5)

    search = page.get_by_role("searchbox", name="Email")
    search.press_sequentially("bob@", delay=50)

    expect(page).to_have_url(re.compile(r"email=bob%40"))
    expect(data_rows(page)).to_have_count(2)
    # The page came back with the admin still in the field, the caret after what they typed.
    search = page.get_by_role("searchbox", name="Email")
    expect(search).to_be_focused()
    expect(search).to_have_value("bob@")
    search.press_sequentially("example")
    expect(page).to_have_url(re.compile(r"email=bob%40example"))
    expect(page.get_by_role("searchbox", name="Email")).to_have_value("bob@example")
    expect(page.get_by_role("button", name="Search")).to_be_visible()
