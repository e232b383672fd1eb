"""The self-service account (docs/rules.md, Your account): the profile page, the password, and a
forgotten password, with the real Firebase Auth Emulator."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from e2e.journeys import PASSWORD, sign_in, sign_in_on_the_login_page

pytestmark = pytest.mark.browser


def open_profile(page: Page) -> None:
    page.get_by_role("navigation", name="Dashboard").get_by_role("link", name="My Profile").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My Profile")


def log_in(page: Page, site: str, email: str, password: str) -> None:
    page.goto(site + "/login?next=/dashboard")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Login").click()


def log_out(page: Page) -> None:
    page.get_by_role("button", name="Logout").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Logged out successfully!")


def test_a_member_changes_their_name_and_a_bad_photo_is_refused_under_its_field(site: str, page: Page):
    User.objects.create_user("mia@example.com", role=User.Role.MEMBER)
    sign_in(page, site, "mia@example.com", "/dashboard", name="Mia Park")
    open_profile(page)
    expect(page.get_by_label("Name", exact=True)).to_have_value("Mia Park")

    page.get_by_label("Name", exact=True).fill("Mia Stone")
    page.get_by_label("Photo (the address of an image)").fill("http://img.example.com/mia.png")
    page.get_by_role("button", name="Save").click()

    photo = page.get_by_label("Photo (the address of an image)")
    expect(photo).to_have_accessible_description("Enter an https:// address of an image.")
    photo.fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Your profile has been saved.")
    expect(page.get_by_label("Name", exact=True)).to_have_value("Mia Stone")
    page.get_by_role("navigation", name="Dashboard").get_by_role("link", name="Dashboard Home").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome, Mia Stone")


def test_changing_the_password_then_signing_in_with_the_new_one(site: str, page: Page, emulator):
    emulator.sign_up("ada@example.com", name="Ada Lovelace")
    # Changing the password asks the provider, with the sign-in the browser holds: through /login.
    sign_in_on_the_login_page(page, site, "ada@example.com", "/dashboard")
    open_profile(page)
    current, new = page.get_by_label("Current password"), page.get_by_label("New password")

    current.fill("not-my-password")
    new.fill("brand-new-pass-2")
    page.get_by_role("button", name="Change password").click()
    expect(current).to_have_accessible_description("Your current password is not correct.")

    current.fill(PASSWORD)
    new.fill("short")
    page.get_by_role("button", name="Change password").click()
    expect(new).to_have_accessible_description("The password is too short: use at least 6 characters.")

    new.fill("brand-new-pass-2")
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("status")).to_have_text(
        "Your password has been changed. Other devices have been signed out."
    )
    page.reload()  # this browser's session was renewed with the new sign-in
    expect(page.get_by_role("heading", level=1)).to_have_text("My Profile")

    log_out(page)
    log_in(page, site, "ada@example.com", PASSWORD)
    expect(page.locator("[data-rht-toaster]")).to_contain_text("The e-mail or password is not correct.")
    log_in(page, site, "ada@example.com", "brand-new-pass-2")
    expect(page).to_have_url(site + "/dashboard")


def test_a_forgotten_password_is_reset_through_the_emulators_link(site: str, page: Page, emulator):
    emulator.sign_up("ada@example.com", name="Ada Lovelace")
    # The emulator keeps its links when its accounts are cleared: count only this test's.
    kept = {
        email: len(emulator.oob_links(email, "PASSWORD_RESET"))
        for email in ("ada@example.com", "nobody@example.com")
    }
    page.goto(site + "/login")
    page.get_by_role("link", name="Forgot password?").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Forgot your password?")
    neutral = "If an account uses this address, we have sent it a link to choose a new password."

    # An address without an account hears the same as one with an account, and gets no link.
    page.get_by_label("Email").fill("nobody@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("status")).to_contain_text(neutral)
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("status")).to_contain_text(neutral)

    # Local mode: the link is on the page of sign-in links, as the emulator keeps it.
    page.get_by_role("link", name="page of sign-in links").click()
    newest = page.get_by_role("main").get_by_role("listitem").first
    expect(newest).to_contain_text("Reset password for ada@example.com")
    assert len(emulator.oob_links("nobody@example.com", "PASSWORD_RESET")) == kept["nobody@example.com"]
    links = emulator.oob_links("ada@example.com", "PASSWORD_RESET")
    assert len(links) == kept["ada@example.com"] + 1
    link = links[-1]
    expect(newest.get_by_role("link")).to_have_attribute("href", link)
    # The emulator's link sets the password given in its address, then goes on to the sign-in page.
    page.goto(link + "&newPassword=reset-pass-3")
    expect(page).to_have_url(re.compile(r"/login"))

    log_in(page, site, "ada@example.com", "reset-pass-3")
    expect(page).to_have_url(site + "/dashboard")
