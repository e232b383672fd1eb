import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from accounts.models import User
from bookings.tests.factories import make_booking
from e2e.journeys import register, sign_up_on_the_register_page

pytestmark = pytest.mark.browser


def account_menu(page: Page):
    return page.get_by_test_id("account-menu")


def test_register_then_log_out_then_log_in_from_a_protected_page_and_land_on_it(site: str, page: Page):
    register(page, site, "Ada Lovelace", "ada@example.com", "secret-pass-1")

    expect(page).to_have_url(site + "/")
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Registration successful!")
    menu = account_menu(page)
    expect(menu.get_by_role("img", name="Ada Lovelace")).to_be_visible()
    assert User.objects.get(email="ada@example.com").name == "Ada Lovelace"

    menu.get_by_label("Account menu").click()
    expect(menu).to_contain_text("Ada Lovelace")
    menu.get_by_role("button", name="Logout").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Logged out successfully!")
    expect(page.get_by_role("link", name="Sign In")).to_be_visible()

    page.goto(site + "/dashboard/pending-bookings")
    expect(page).to_have_url(re.compile(r"/login\?next=/dashboard/pending-bookings$"))
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill("secret-pass-1")
    page.get_by_role("button", name="Login").click()

    expect(page).to_have_url(site + "/dashboard/pending-bookings")
    expect(page.get_by_role("heading", level=1)).to_have_text("My Pending Bookings")
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Login Successful!")
    # Signing in replaced the login page in the history.
    page.go_back()
    expect(page).not_to_have_url(re.compile(r"/login"))


def test_a_wrong_password_says_so_and_leaves_the_form_usable(site: str, page: Page, emulator):
    emulator.sign_up("ada@example.com", "secret-pass-1")
    page.goto(site + "/login")

    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Login").click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("The e-mail or password is not correct.")
    # Beside the form too, where it stays after the toast has gone.
    expect(page.locator("form").get_by_role("alert")).to_have_text("The e-mail or password is not correct.")
    expect(page.get_by_role("button", name="Login")).to_be_enabled()
    expect(page).to_have_url(site + "/login")
    page.get_by_label("Password").fill("secret-pass-1")
    page.get_by_role("button", name="Login").click()
    expect(page).not_to_have_url(re.compile(r"/login"))


def test_registering_with_empty_fields_shows_what_is_missing_under_each_field(site: str, page: Page):
    page.goto(site + "/register")

    page.get_by_role("button", name="Sign Up").click()

    expect(page.get_by_label("Full Name")).to_have_accessible_description("Full name is required")
    expect(page.get_by_label("Email")).to_have_accessible_description("Email is required")
    expect(page.get_by_label("Password")).to_have_accessible_description("Password is required")
    assert User.objects.count() == 0


def test_registering_an_email_that_has_an_account_says_so(site: str, page: Page, emulator):
    emulator.sign_up("ada@example.com")

    sign_up_on_the_register_page(page, site, "Ada", "ada@example.com", "another-pass-1")

    expect(page.locator("[data-rht-toaster]")).to_contain_text("An account with this e-mail already exists.")


def test_a_too_short_password_says_what_the_policy_requires(site: str, page: Page):
    sign_up_on_the_register_page(page, site, "Ada", "ada@example.com", "abc")

    expect(page.locator("[data-rht-toaster]")).to_contain_text("at least 6 characters")


def test_the_login_button_says_logging_in_while_it_works(site: str, page: Page, emulator):
    emulator.sign_up("ada@example.com", "secret-pass-1")
    page.goto(site + "/login")
    # Hold the server's answer until the in-between state has been seen.
    held: list[Route] = []
    page.route("**/api/session", lambda route: held.append(route))

    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill("secret-pass-1")
    with page.expect_request("**/api/session"):
        page.get_by_role("button", name="Login").click()

    expect(page.get_by_role("button", name="Logging in...")).to_be_disabled()
    expect(page.get_by_label("Email")).to_be_disabled()
    held.pop().continue_()
    expect(page).to_have_url(site + "/")


def test_an_admin_sees_the_admin_sidebar_and_a_user_typing_an_admin_url_is_forbidden(
    site: str, page: Page, emulator
):
    emulator.sign_up("ann@example.com", "secret-pass-1")
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    page.goto(site + "/login?next=/dashboard")
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_label("Password").fill("secret-pass-1")
    page.get_by_role("button", name="Login").click()

    expect(page).to_have_url(site + "/dashboard")
    sidebar = page.get_by_role("navigation", name="Dashboard")
    expect(sidebar.get_by_role("link", name="Manage Courts")).to_be_visible()
    expect(page.get_by_test_id("club-counts")).to_contain_text("Total Members")

    User.objects.filter(email="ann@example.com").update(role=User.Role.USER)
    page.goto(site + "/dashboard/manage-courts")
    expect(page).to_have_url(site + "/forbidden")
    expect(page.get_by_role("heading", level=1)).to_have_text("Access Denied")


def test_signing_in_straight_to_booking_approvals_shows_the_login_toast_beside_the_rows_islands(
    site: str, page: Page, emulator
):
    emulator.sign_up("ann@example.com", "secret-pass-1")
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    make_booking()
    make_booking()  # each row mounts its Approve and Reject islands: several islands of one kind
    errors: list[Exception] = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(site + "/login?next=/dashboard/manage-bookings-approval")
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_label("Password").fill("secret-pass-1")
    page.get_by_role("button", name="Login").click()

    expect(page).to_have_url(site + "/dashboard/manage-bookings-approval")
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Login Successful!")
    expect(page.get_by_role("button", name="Approve")).to_have_count(2)
    assert errors == []


GAPI_STAND_IN = Path(__file__).with_name("gapi_stand_in.js")


def test_google_sign_in_through_the_emulators_popup(site: str, page: Page, context):
    context.route(
        re.compile(r"^https://apis\.google\.com/js/api\.js"),
        lambda route: route.fulfill(path=GAPI_STAND_IN, content_type="text/javascript"),
    )
    page.goto(site + "/login?next=/dashboard")

    with page.expect_popup() as popup_info:
        page.get_by_role("button", name="Continue with Google").click()
    popup = popup_info.value
    popup.locator("#add-account-button").click()
    popup.locator("#autogen-button").click()
    popup.locator("#sign-in").click()

    expect(page).to_have_url(site + "/dashboard")
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Google Login Successful!")
    user = User.objects.get()
    assert user.firebase_uid
    assert user.role == "user"


def test_registering_sends_the_verification_link_which_the_local_page_lists(site: str, page: Page):
    register(page, site, "Grace Hopper", "grace@example.com", "secret-pass-1")

    expect(page.locator("[data-rht-toaster]")).to_contain_text(
        "Please verify your e-mail address: open the link we sent to grace@example.com."
    )
    page.goto(site + "/local/auth-links")
    expect(page.get_by_role("listitem").filter(has_text="grace@example.com")).to_have_count(1)
    expect(page.get_by_role("listitem").filter(has_text="grace@example.com")).to_contain_text("Verify e-mail")


def test_registering_says_where_the_link_went_and_the_link_ends_on_a_page_saying_it_is_verified(
    site: str, page: Page, emulator
):
    page.clock.install()  # to pass the time before the link may be sent again
    sign_up_on_the_register_page(page, site, "Mary Jackson", "mary@example.com", "secret-pass-1")

    notice = page.get_by_role("status").filter(has_text="We sent a verification e-mail to mary@example.com.")
    expect(notice).to_be_visible()
    resend = notice.get_by_role("button", name="Send the link again")
    expect(resend).to_be_disabled()  # a moment ago it was sent
    expect(notice).to_contain_text("You can send it again in 30 s.")
    page.clock.run_for(31_000)
    resend.click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("We sent the link again.")
    expect(resend).to_be_disabled()
    assert len(emulator.oob_links("mary@example.com", "VERIFY_EMAIL")) == 2

    page.goto(site + "/local/auth-links")
    newest = page.get_by_role("listitem").filter(has_text="for mary@example.com").first
    newest.get_by_role("link", name="Open the link to verify e-mail").click()

    expect(page).to_have_url(site + "/email-verified")
    expect(page.get_by_role("heading", level=1)).to_have_text("E-mail address verified")
    expect(page.get_by_text("Your e-mail address is verified.")).to_be_visible()
    assert emulator.is_verified("mary@example.com")


def test_an_unverified_email_of_a_prepared_record_is_asked_to_verify_then_signs_in(
    site: str, page: Page, emulator
):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)  # as make_admin leaves it
    emulator.sign_up("ann@example.com", "secret-pass-1", verified=False)

    def log_in():
        page.goto(site + "/login?next=/dashboard")
        page.get_by_label("Email").fill("ann@example.com")
        page.get_by_label("Password").fill("secret-pass-1")
        page.get_by_role("button", name="Login").click()

    log_in()
    notice = page.get_by_role("alert").filter(has_text="Please verify your e-mail address first")
    expect(notice).to_be_visible()
    notice.get_by_role("button", name="Send the link again").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("We sent the link again.")
    expect(page).to_have_url(site + "/login?next=/dashboard")

    page.goto(site + "/local/auth-links")
    newest = page.get_by_role("listitem").filter(has_text="for ann@example.com").first
    newest.get_by_role("link", name="Open the link to verify e-mail").click()
    log_in()

    expect(page).to_have_url(site + "/dashboard")
    expect(
        page.get_by_role("navigation", name="Dashboard").get_by_role("link", name="Manage Courts")
    ).to_be_visible()
