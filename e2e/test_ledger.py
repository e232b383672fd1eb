"""The ledger in a browser: an admin filters it by court, reads the totals, and exports the CSV."""

import csv
import io
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.tests.factories import lift_hour_limits, make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from payments.models import Coupon, Payment
from payments.tests.helpers import paid, refunded

pytestmark = pytest.mark.browser


def test_an_admin_filters_the_ledger_and_exports_it(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    for name, amount in (("Centre", "20.00"), ("Side", "30.00")):
        court = CourtFactory(name=name, type="Tennis", price=Decimal(amount), slots=["08:00-09:00"])
        booking = make_booking(court=court)
        Payment.objects.create(
            booking=booking,
            user=booking.user,
            amount=Decimal(amount),
            currency="usd",
            payment_intent_id=f"pi_{name}",
            status="succeeded",
            paid_at=timezone.now(),  # this month: the ledger's first view
        )
    sign_in(page, site, "ann@example.com", "/dashboard/ledger")
    totals = page.get_by_test_id("ledger-totals")
    expect(totals).to_contain_text("$50.00")

    page.get_by_label("Court").select_option(label="Side (Tennis)")
    page.get_by_role("button", name="Filter").click()

    expect(totals).to_contain_text("$30.00")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export CSV").click()
    text = download.value.path().read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(row["Court"], row["Amount"]) for row in rows] == [("Side", "30.00")]


def test_the_ledger_fits_a_laptop_screen_and_keeps_each_slot_range_whole(site: str, page: Page):
    """At 1366 by 768 every column of a ledger full of long names, e-mails, coupons and refunds is on
    screen without scrolling the table sideways, and a booking's slot ranges wrap between ranges,
    never inside one."""
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    lift_hour_limits()
    slots = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(8, 20)]
    court = CourtFactory(
        name="Centre Court by the Old Pavilion", type="Tennis", price=Decimal("20.00"), slots=slots
    )
    person = User.objects.create_user(
        "margaret.hamilton.apollo.guidance@verylongdomainofthesportsclub.example",
        name="Margaret Hamilton-Smythe",
    )
    coupon = Coupon.objects.create(code="SUMMERHOLIDAYSFORMEMBERSANDFRIENDS2026", discount=25)
    # 08–10, 11–12, 13–14, 15–16, 17–18: five ranges.
    booking = make_booking(user=person, court=court, slots=[slots[i] for i in (0, 1, 3, 5, 7, 9)])
    payment = paid(booking, "90.00", timezone.now(), coupon=coupon, discount=25)
    refunded(payment, "45.00", timezone.now())
    page.set_viewport_size({"width": 1366, "height": 768})

    sign_in(page, site, "ann@example.com", "/dashboard/ledger")

    table = page.locator("table")
    expect(table).to_contain_text("Margaret Hamilton-Smythe")
    box = table.evaluate("t => ({scroll: t.parentElement.scrollWidth, client: t.parentElement.clientWidth})")
    assert box["scroll"] <= box["client"], box
    for text in ("08:00–10:00", "11:00–12:00", "17:00–18:00"):
        ranges = page.get_by_text(text, exact=True)
        expect(ranges.first).to_be_visible()
        # One line each: a range that broke would be two lines tall.
        heights = ranges.evaluate_all("spans => spans.map(s => s.getClientRects().length)")
        assert heights, text
        assert set(heights) == {1}, (text, heights)
