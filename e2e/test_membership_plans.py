import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from e2e.journeys import sign_in
from memberships.models import Plan

pytestmark = pytest.mark.browser


def test_an_admin_adds_edits_takes_off_sale_and_deletes_a_plan(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    sign_in(page, site, "ann@example.com", "/dashboard/membership-plans")
    expect(page.get_by_role("heading", level=1)).to_have_text("Membership Plans")
    expect(page.get_by_text("No membership plans yet")).to_be_visible()

    page.get_by_label("Plan Name").fill("Club")
    page.get_by_label("Price ($)", exact=True).fill("30")
    page.get_by_label("Member price per slot").select_option(label="A percent off")
    page.get_by_label("Member price ($ or % off)").fill("20")
    page.get_by_label("Hours per week", exact=True).fill("6")
    page.get_by_role("button", name="Add").click()
    expect(page.get_by_role("dialog")).to_contain_text("Plan added/updated successfully")
    page.get_by_role("button", name="OK").click()
    row = page.get_by_role("row", name=re.compile("Club"))
    expect(row).to_contain_text("Monthly, renews")
    expect(row).to_contain_text("$30.00")
    expect(row).to_contain_text("20% off, 6 h a week")

    page.get_by_role("button", name="Edit Club").click()
    page.get_by_label("Period").select_option(label="Season")
    expect(page.get_by_label("Renews automatically")).to_be_disabled()
    page.get_by_label("Season starts on").fill("2031-09-30")
    page.get_by_label("Season ends on").fill("2031-05-01")
    page.get_by_role("button", name="Update").click()
    expect(page.get_by_label("Season ends on")).to_have_accessible_description(
        "The season ends after it starts."
    )
    page.get_by_label("Season starts on").fill("2031-05-01")
    page.get_by_label("Season ends on").fill("2031-09-30")
    page.get_by_role("button", name="Update").click()
    expect(page.get_by_role("dialog")).to_contain_text("Plan added/updated successfully")
    page.get_by_role("button", name="OK").click()
    expect(row).to_contain_text("Season: May 1, 2031 to September 30, 2031")
    plan = Plan.objects.get()
    assert (plan.period, plan.renews_automatically, str(plan.season_ends_on)) == (
        "season",
        False,
        "2031-09-30",
    )

    page.get_by_role("button", name="Take off sale Club").click()
    expect(row).to_contain_text("off sale")
    expect(page.get_by_role("button", name="Put on sale Club")).to_be_visible()
    assert not Plan.objects.get().on_sale

    page.get_by_role("button", name="Delete Club").click()
    page.get_by_role("button", name="Yes, delete it!").click()
    expect(page.get_by_role("dialog")).to_contain_text("Plan deleted successfully")
    page.get_by_role("button", name="OK").click()
    expect(page.get_by_text("No membership plans yet")).to_be_visible()
    assert not Plan.objects.exists()
