import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from content.models import Announcement
from e2e.journeys import sign_in
from payments.models import Coupon

pytestmark = pytest.mark.browser


def signed_in(page: Page, site: str, email: str, role: str, next_page: str) -> Page:
    User.objects.create_user(email, role=role, name=email.split("@")[0].title())
    sign_in(page, site, email, next_page)
    return page


def test_the_admin_adds_a_coupon_and_it_appears_on_the_home_page(site: str, page: Page):
    signed_in(page, site, "ann@example.com", User.Role.ADMIN, "/dashboard/manage-coupons")
    expect(page.get_by_role("heading", level=1)).to_have_text("Manage Coupons")
    expect(page.get_by_text("No coupons found.")).to_be_visible()

    page.get_by_label("Coupon Code").fill(" spring25 ")
    page.get_by_label("Discount %").fill("25")
    page.get_by_label("Description").fill("A quarter off in spring")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_role("dialog")).to_contain_text("Coupon added/updated successfully")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_role("row", name=re.compile("SPRING25"))).to_contain_text("25")

    page.goto(site + "/")
    coupons = page.get_by_test_id("coupons")
    expect(coupons).to_contain_text("25% OFF")
    expect(coupons).to_contain_text("Coupon Code: SPRING25")
    expect(coupons).to_contain_text("A quarter off in spring")


def test_the_admin_sets_a_coupons_limits(site: str, page: Page):
    signed_in(page, site, "ann@example.com", User.Role.ADMIN, "/dashboard/manage-coupons")
    page.get_by_label("Coupon Code").fill("WELCOME20")
    page.get_by_label("Discount %").fill("20")
    page.get_by_label("Once per person").check()
    page.get_by_label("Uses in all").fill("100")
    page.get_by_label("Valid until").fill("2031-08-31")
    page.get_by_label("Valid from").fill("2031-09-01")
    page.get_by_role("button", name="Add").click()

    expect(page.get_by_label("Valid until")).to_have_accessible_description(
        "The last day comes on or after the first (2031-09-01)."
    )
    page.get_by_label("Valid from").fill("2031-06-01")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_role("dialog")).to_contain_text("Coupon added/updated successfully")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_role("row", name=re.compile("WELCOME20"))).to_contain_text(
        "once per person, 100 uses, from June 1, 2031, until August 31, 2031"
    )
    coupon = Coupon.objects.get()
    assert (coupon.once_per_person, coupon.max_uses, str(coupon.valid_until)) == (True, 100, "2031-08-31")


def test_the_admin_edits_then_cancels_and_a_bad_discount_is_explained(site: str, page: Page):
    signed_in(page, site, "ann@example.com", User.Role.ADMIN, "/dashboard/manage-coupons")
    page.get_by_label("Coupon Code").fill("BIG")
    page.get_by_label("Discount %").fill("150")
    page.get_by_role("button", name="Add").click()

    expect(page.get_by_label("Discount %")).to_have_accessible_description(
        "The discount is a whole percent from 1 to 100."
    )


def test_the_admin_posts_an_announcement_and_a_user_reads_it(site: str, page: Page, new_context):
    signed_in(page, site, "ann@example.com", User.Role.ADMIN, "/dashboard/make-announcements")
    expect(page.get_by_text("No announcements yet.")).to_be_visible()
    page.get_by_label("Write announcement").fill("The courts close at 6 pm on Friday.")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_text("The courts close at 6 pm on Friday.")).to_be_visible()
    assert Announcement.objects.get().text == "The courts close at 6 pm on Friday."

    page.get_by_label("Write announcement").fill("   ")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_label("Write announcement")).to_have_accessible_description(
        "Please write the announcement."
    )

    reader = signed_in(
        new_context().new_page(), site, "ada@example.com", User.Role.USER, "/dashboard/announcements"
    )
    row = reader.get_by_role("row", name=re.compile("The courts close at 6 pm on Friday."))
    expect(row).to_contain_text(re.compile(r"[A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M"))


def test_the_users_search_filters_as_you_type(site: str, page: Page):
    User.objects.create_user("zoe@example.com", name="Zoe Quinn")
    User.objects.create_user("max@example.com", name="Max Power", role=User.Role.MEMBER)
    signed_in(page, site, "ann@example.com", User.Role.ADMIN, "/dashboard/manage-users")
    rows = page.get_by_role("row").filter(has=page.get_by_role("cell"))
    expect(rows).to_have_count(3)

    page.get_by_placeholder("Search by name or email...").press_sequentially("QUI")

    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Zoe Quinn")
    page.get_by_placeholder("Search by name or email...").fill("nobody-here")
    expect(page.get_by_text("No users found.")).to_be_visible()


def test_the_carousel_advances_on_its_own(site: str, page: Page):
    page.goto(site + "/")
    front = """() => [...document.querySelectorAll('.hero-card')]
        .map((card, index) => [Number(getComputedStyle(card).zIndex), index])
        .sort((a, b) => b[0] - a[0])[0][1]"""
    # The cards' CSS animations (which Playwright's clock does not drive), stopped and set to a
    # moment through the Web Animations API: the page's first one, then 2.7 s on.
    at = """ms => document.querySelectorAll('.hero-card').forEach(card => card.getAnimations()
        .forEach(animation => { animation.pause(); animation.currentTime = ms; }))"""
    page.evaluate(at, 0)
    first = page.evaluate(front)

    page.evaluate(at, 2700)

    assert page.evaluate(front) != first


def test_a_partner_logo_that_fails_to_load_shows_logo_error(site: str, page: Page):
    page.route(re.compile(r"/static/img/partners/courtside\."), lambda route: route.fulfill(status=404))
    page.goto(site + "/")

    strip = page.get_by_test_id("partner-strip")
    strip.scroll_into_view_if_needed()
    expect(strip.get_by_role("img", name="Logo Error")).to_have_count(1)
    expect(strip.get_by_role("img", name="Apex Sports")).to_be_visible()
