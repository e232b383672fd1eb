"""Roles in a browser: an admin makes someone an admin from All Users, and takes it back."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from e2e.journeys import PASSWORD, sign_in

pytestmark = pytest.mark.browser


def test_an_admin_promotes_and_demotes_an_admin_and_the_last_one_stays(site: str, page: Page, emulator):
    emulator.sign_up("ann@example.com", PASSWORD)
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
