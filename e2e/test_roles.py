"""Roles in a browser: an admin makes someone an admin from All Users, and takes it back."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser


def test_an_admin_promotes_and_demotes_an_admin_and_the_last_one_stays(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    User.objects.create_user("zoe@example.com", name="Zoe Quinn")
    sign_in(page, site, "ann@example.com", "/dashboard/manage-users")
    zoe = page.get_by_role("row", name=re.compile("zoe@example.com"))

    zoe.get_by_role("button", name="Make admin").click()
    page.get_by_role("dialog", name="Make zoe@example.com an admin?").get_by_role(
        "button", name="Yes, make them an admin"
    ).click()
    expect(zoe).to_contain_text("admin")
    expect(zoe.get_by_role("button", name="Remove admin")).to_be_visible()
    assert User.objects.get(email="zoe@example.com").role == User.Role.ADMIN

    zoe.get_by_role("button", name="Remove admin").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, take it away").click()
    expect(zoe.get_by_role("button", name="Make admin")).to_be_visible()
    assert User.objects.get(email="zoe@example.com").role == User.Role.USER

    # Ann is now the last admin: taking it from herself is refused, and said why.
    ann = page.get_by_role("row", name=re.compile("ann@example.com"))
    ann.get_by_role("button", name="Remove admin").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, take it away").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("last admin")
    assert User.objects.get(email="ann@example.com").role == User.Role.ADMIN


MARKUP_EMAIL = "\"<meta http-equiv='refresh' content='0;url=/forbidden'>\"@example.com"


def test_an_e_mail_with_markup_is_shown_as_it_is_in_the_make_admin_dialog(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    User.objects.create_user(MARKUP_EMAIL)  # kept before such addresses were refused at sign-in
    sign_in(page, site, "ann@example.com", "/dashboard/manage-users")

    row = page.get_by_role("row", name=re.compile("meta http-equiv"))
    row.get_by_role("button", name="Make admin").click()

    dialog = page.get_by_role("dialog", name=f"Make {MARKUP_EMAIL} an admin?")
    expect(dialog).to_be_visible()
    page.wait_for_timeout(500)  # a meta refresh of 0 s would have navigated by now
    assert page.url == f"{site}/dashboard/manage-users"
    dialog.get_by_role("button", name="No").click()
    assert User.objects.get(email=MARKUP_EMAIL).role == User.Role.USER
