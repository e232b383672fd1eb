"""The admin's long lists in a browser: paged and searched on the server."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.tests.test_list_pages import bookings_of
from e2e.journeys import PASSWORD, sign_in

pytestmark = pytest.mark.browser


@pytest.fixture
def admin(emulator):
    emulator.sign_up("ann@example.com", PASSWORD)
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
