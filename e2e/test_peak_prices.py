import re
from datetime import time, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from courts.models import PriceBand
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser


def next_weekday():
    """The first Monday-to-Friday day from the day after tomorrow: open to booking, and peak."""
    day = timezone.localdate() + timedelta(days=2)
    while day.weekday() > 4:
        day += timedelta(days=1)
    return day


def test_a_peak_slots_price_shows_in_the_booking_modal_and_its_total_is_the_servers(site: str, page: Page):
    court = CourtFactory(
        name="Centre Court", type="Tennis", price=Decimal("15.00"), slots=["16:00-17:00", "17:00-18:00"]
    )
    PriceBand.objects.create(
        court=court, weekdays=[0, 1, 2, 3, 4], starts=time(17), ends=time(21), price=Decimal("25.00")
    )
    sign_in(page, site, "ada@example.com", "/courts")
    expect(page.get_by_test_id("price-bands")).to_have_text("(peak: $25.00 weekdays 17:00-21:00)")

    page.get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog", name="Booking: Centre Court (Tennis)")
    modal.get_by_label("Date").fill(next_weekday().isoformat())
    expect(modal.get_by_label("17:00-18:00 $25.00 peak price")).to_be_enabled()
    expect(modal.get_by_label("16:00-17:00", exact=True)).to_be_enabled()
    modal.get_by_label("16:00-17:00").check()
    expect(modal.get_by_text("Total Price: $15.00")).to_be_visible()
    modal.get_by_label("17:00-18:00").check()
    expect(modal.get_by_text("Total Price: $40.00")).to_be_visible()
    modal.get_by_role("button", name="Submit Booking").click()

    expect(page.locator("[data-rht-toaster]")).to_contain_text("Booking request sent.")
    assert Booking.objects.get().price == Decimal("40.00")


def test_the_day_sheet_shows_a_peak_cells_price_and_totals_the_cells_chosen(site: str, page: Page):
    slots = ["16:00-17:00", "17:00-18:00", "19:00-20:00"]
    court = CourtFactory(name="Centre", price=Decimal("15.00"), slots=slots)
    PriceBand.objects.create(
        court=court, weekdays=[0, 1, 2, 3, 4], starts=time(17), ends=time(21), price=Decimal("25.00")
    )
    sign_in(page, site, "ada@example.com", f"/schedule?date={next_weekday().isoformat()}")

    expect(page.get_by_role("cell", name=re.compile(r"17:00-18:00.*\$25\.00 peak price"))).to_be_visible()
    for slot in slots:
        page.get_by_role("button", name=f"Free (Centre, {slot})").click()

    # The cells that follow on read as one range, as the server writes them; none breaks inside.
    expect(page.get_by_text("Centre: 16:00–18:00, 19:00–20:00. Total $65.00.")).to_be_visible()
    expect(page.get_by_text("16:00–18:00", exact=True)).to_have_css("white-space", "nowrap")


def test_an_admin_adds_a_price_band_on_manage_courts(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    court = CourtFactory(name="North Court", price=Decimal("20.00"))
    sign_in(page, site, "ann@example.com", "/dashboard/manage-courts")

    page.get_by_role("button", name="Edit North Court").click()
    form = page.get_by_role("dialog", name="Update Court")
    form.get_by_role("button", name="New band").click()
    band = form.get_by_role("group", name="Band 1")
    band.get_by_label("Sat").check()
    band.get_by_label("From").fill("18:00")
    band.get_by_label("To").fill("16:00")
    band.get_by_label("Price ($)").fill("30")
    form.get_by_role("button", name="Update").click()
    expect(form.get_by_role("alert")).to_contain_text("Peak times: Band 1: A band ends after it starts.")
    expect(form.get_by_role("group", name="Peak times")).to_have_accessible_description(
        re.compile("Band 1: A band ends after it starts.$")
    )

    band.get_by_label("To").fill("21:00")
    form.get_by_role("button", name="Update").click()

    expect(form).to_be_hidden()
    [saved] = court.price_bands.all()
    assert (saved.weekdays, saved.starts, saved.ends, saved.price) == (
        [0, 1, 2, 3, 4, 5],
        time(18),
        time(21),
        Decimal("30.00"),
    )
