"""The reports in a browser, as a club manager asks them: how much did we take last month, net of
refunds, and which courts sit empty on weekday mornings? Two clicks from the dashboard."""

import gzip
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.tests.factories import make_booking
from courts.models import Court
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from e2e.test_accessibility import serious_violations
from payments.tests.helpers import paid, refunded

pytestmark = pytest.mark.browser
MORNING, EVENING = "08:00-09:00", "18:00-19:00"


@pytest.fixture(scope="module")
def browser_context_args(browser_context_args):
    # axe is injected inline, which the site's Content Security Policy refuses (test_accessibility).
    return {**browser_context_args, "bypass_csp": True}


def played(court: Court, day, slot: str) -> Booking:
    """A booking of `slot` on a past `day`, paid for: made for tomorrow and moved back, as the
    booking services refuse past days."""
    booking = make_booking(court=court, slots=[slot], status=Booking.Status.CONFIRMED)
    Booking.objects.filter(pk=booking.pk).update(date=day)
    BookedSlot.objects.filter(booking=booking).update(date=day)
    return booking


def test_a_manager_reads_last_months_takings_and_the_empty_weekday_mornings(site: str, page: Page):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    centre = CourtFactory(name="Centre", type="Tennis", slots=[MORNING, EVENING])
    side = CourtFactory(name="Side", type="Tennis", slots=[MORNING, EVENING])
    Court.objects.update(created_at=timezone.now() - timedelta(days=90))
    today = timezone.localdate()
    last_month = (today.replace(day=1) - timedelta(days=1)).replace(day=15)
    payment = paid(
        played(centre, last_month, MORNING), "60.00", timezone.now().replace(day=1) - timedelta(days=10)
    )
    refunded(payment, "15.00", timezone.now().replace(day=1) - timedelta(days=5))
    weekdays = [day for day in (today - timedelta(days=n) for n in range(1, 15)) if day.isoweekday() <= 5]
    for day in weekdays:
        played(centre, day, MORNING)
        played(side, day, EVENING)
    sign_in(page, site, "ann@example.com", "/dashboard")
    scripts = []
    page.on(
        "response", lambda response: response.request.resource_type == "script" and scripts.append(response)
    )

    page.get_by_role("link", name="Reports").click()

    revenue = page.get_by_test_id("revenue")
    taken = revenue.get_by_role("row", name=last_month.strftime("%B %Y")).get_by_role("cell")
    # Taken, refunded, net; and the net of bookings and of memberships (none sold here).
    expect(taken).to_have_text(["$60.00", "$15.00", "$45.00", "$45.00", "$0.00", "$0.00"])
    assert serious_violations(page) == []
    # The charts are drawn on the server: the page loads only the dashboard's own scripts.
    scripts = []
    page.on(
        "response", lambda response: response.request.resource_type == "script" and scripts.append(response)
    )
    page.reload(wait_until="networkidle")
    assert sum(len(gzip.compress(script.body())) for script in scripts) <= 60 * 1024

    page.get_by_role("link", name="Monday to Friday").click()

    expect(page.get_by_role("link", name="Monday to Friday")).to_have_attribute("aria-current", "page")
    by_court = page.get_by_test_id("by-court")
    # The first hour is the morning's: Side sat empty, Centre did not.
    expect(by_court.get_by_role("row", name="Side").get_by_role("cell").first).to_have_text("0%")
    expect(by_court.get_by_role("row", name="Centre").get_by_role("cell").first).not_to_have_text("0%")
    assert serious_violations(page) == []


def test_on_a_phone_the_heat_maps_scroll_in_their_own_boxes_by_keyboard_too(site: str, new_context):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN)
    CourtFactory(
        name="Centre", type="Tennis", slots=[f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(7, 22)]
    )
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    sign_in(page, site, "ann@example.com", "/dashboard/reports")

    widths = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide"
    box = page.get_by_role("region", name="By court and hour")
    assert box.evaluate("(box) => box.scrollWidth > box.clientWidth")  # 15 hours do not fit
    box.focus()
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    expect(box.get_by_role("columnheader", name="21:00")).to_be_in_viewport()
    assert box.get_by_role("rowheader", name="Centre").bounding_box()["x"] <= 40, "the courts stay in view"
    assert serious_violations(page) == []
