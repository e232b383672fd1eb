"""A member puts a confirmed booking in their calendar: the .ics file, and the feed to subscribe to."""

import re

import pytest
from icalendar import Calendar
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_confirm
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in

pytestmark = pytest.mark.browser


@pytest.fixture
def booking() -> Booking:
    """A member's booking, confirmed as a payment confirms it."""
    member = User.objects.create_user("mia@example.com", role=User.Role.MEMBER)
    approved = make_booking(
        user=member, court=CourtFactory(name="Centre Court"), status=Booking.Status.APPROVED
    )
    return booking_confirm(booking=approved, by=member)


def test_a_member_downloads_a_confirmed_booking_for_their_calendar_by_keyboard(
    site: str, page: Page, booking: Booking
):
    sign_in(page, site, "mia@example.com", "/dashboard/confirmed-bookings")
    add = page.get_by_role("row", name=re.compile("Centre Court")).get_by_role("link", name="Add to calendar")
    subscribe = page.get_by_role("link", name="Subscribe to my bookings")
    expect(subscribe).to_have_attribute(
        "href", re.compile(r"^webcal://127\.0\.0\.1:\d+/calendar/[\w-]+\.ics$")
    )

    add.focus()
    with page.expect_download() as download:
        page.keyboard.press("Enter")

    assert download.value.suggested_filename == f"booking-{booking.pk}.ics"
    (event,) = Calendar.from_ical(download.value.path().read_bytes()).events
    assert str(event["SUMMARY"]).startswith("Centre Court")
    assert event["STATUS"] == "CONFIRMED"
    # What a calendar app subscribed to the feed finds there: the same event.
    feed = page.request.get("http://" + subscribe.get_attribute("href").removeprefix("webcal://"))
    assert [str(found.uid) for found in Calendar.from_ical(feed.body()).events] == [str(event.uid)]
