"""The dashboard's menu on a laptop's screen (1366 by 768 px): an admin, who has the most links,
sees every one of them and Logout without scrolling the menu."""

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from accounts.templatetags.dashboard import SIDEBAR_LINKS
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def test_an_admin_sees_every_link_of_the_menu_and_logout_on_a_laptop_screen(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    page.set_viewport_size(LAPTOP)
    sign_in(page, site, "ann@example.com", "/dashboard")
    menu = page.get_by_role("navigation", name="Dashboard")

    for _, label in SIDEBAR_LINKS[User.Role.ADMIN]:
        expect(menu.get_by_role("link", name=label, exact=True)).to_be_in_viewport(ratio=1)
    expect(page.get_by_role("button", name="Logout")).to_be_in_viewport(ratio=1)
