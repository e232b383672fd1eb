"""A plan's holder sees and pays their member prices, in the booking modal and on the day sheet,
and members-only hours are shown as such to those whose plan does not open them
(docs/rules.md, Member prices and limits)."""

import re
from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from courts.models import Court, PriceBand
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from memberships.tests.factories import make_membership, make_plan

pytestmark = pytest.mark.browser

SLOTS = ["08:00-09:00", "16:00-17:00", "17:00-18:00"]


def next_weekday():
    """The first Monday-to-Friday day from the day after tomorrow: open to booking, and peak."""
    day = timezone.localdate() + timedelta(days=2)
    while day.weekday() > 4:
        day += timedelta(days=1)
    return day


def club_court() -> Court:
    """$20 a slot; on weekdays $30 from 17:00 and, kept for members, 08:00-09:00 at $20."""
    court = CourtFactory(name="Centre Court", type="Tennis", price=Decimal("20.00"), slots=SLOTS)
    weekdays = [0, 1, 2, 3, 4]
    PriceBand.objects.create(court=court, weekdays=weekdays, starts=time(17), ends=time(21), price=30)
    PriceBand.objects.create(
        court=court, weekdays=weekdays, starts=time(8), ends=time(9), price=20, members_only=True
    )
    return court


def club_member(email: str) -> User:
    """A holder of the Club plan: 25% off, no members-only hours."""
    person = User.objects.create_user(email)
    plan = make_plan(name="Club", member_price_value=Decimal("25"), members_only_hours=False)
    make_membership(user=person, plan=plan)
    return person


def test_a_holder_books_in_the_modal_at_the_member_prices_and_not_the_members_only_hours(
    site: str, page: Page
):
    club_court()
    club_member("ada@example.com")
    sign_in(page, site, "ada@example.com", "/courts")

    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    expect(modal.get_by_label("Your price per slot ($)")).to_have_value("15.00")
    expect(modal.get_by_text("The member prices of your Club plan.")).to_be_visible()
    modal.get_by_label("Date").fill(next_weekday().isoformat())
    expect(modal.get_by_label("08:00-09:00 (members only)")).to_be_disabled()
    modal.get_by_label("16:00-17:00", exact=True).check()
    modal.get_by_label("17:00-18:00 $22.50 peak price").check()
    expect(modal.get_by_text("Total Price: $37.50")).to_be_visible()
    modal.get_by_role("button", name="Submit Booking").click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("Booking request sent.")
    assert Booking.objects.get().price == Decimal("37.50")


def test_the_day_sheet_shows_each_person_their_prices_and_the_members_only_hours(site: str, page: Page):
    club_court()
    club_member("ada@example.com")
    day = f"/schedule?date={next_weekday().isoformat()}"

    page.goto(site + day)
    expect(page.get_by_role("cell", name="Members only")).to_be_visible()
    expect(page.get_by_role("cell", name=re.compile(r"17:00-18:00.*\$30\.00 peak price"))).to_be_visible()

    sign_in(page, site, "ada@example.com", day)
    expect(
        page.get_by_text("You book at your Club plan's member prices: 25% off the court's price.")
    ).to_be_visible()
    expect(page.get_by_role("cell", name="Members only")).to_be_visible()
    page.get_by_role("button", name="Free (Centre Court, 16:00-17:00)").click()
    page.get_by_role("button", name=re.compile(r"Free \(Centre Court, 17:00-18:00\)")).click()
    expect(page.get_by_text("Centre Court: 16:00–18:00. Total $37.50.")).to_be_visible()


def test_an_admin_keeps_a_band_for_members_on_manage_courts(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    court = CourtFactory(name="North Court", price=Decimal("20.00"))
    sign_in(page, site, "ann@example.com", "/dashboard/manage-courts")

    page.get_by_role("button", name="Edit North Court").click()
    form = page.get_by_role("dialog", name="Update Court")
    form.get_by_role("button", name="New band").click()
    band = form.get_by_role("group", name="Band 1")
    band.get_by_label("Price ($)").fill("20")
    band.get_by_label("Members only").check()
    form.get_by_role("button", name="Update").click()

    expect(form).to_be_hidden()
    [saved] = court.price_bands.all()
    assert saved.members_only
