"""The waitlist in the browser: a slot held for a person is on My Waitlist with "Book now", which
leads to the day sheet where it is held for them and they book it; a place still waiting is left
with Leave."""

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking, WaitlistEntry
from bookings.services import booking_cancel, booking_request
from bookings.tests.factories import tomorrow
from bookings.waitlist import waitlist_join
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser

SLOTS = ["08:00-09:00", "09:00-10:00"]


def test_a_slot_held_for_a_person_is_booked_from_my_waitlist(site: str, page: Page):
    ada = User.objects.create_user("ada@example.com", name="Ada")
    ann = User.objects.create_user("ann@example.com")
    court = CourtFactory(name="Centre", type="Tennis", slots=SLOTS)
    held = booking_request(user=ann, court=court, date=tomorrow(), slots=SLOTS)
    for slot in SLOTS:
        waitlist_join(user=ada, court=court, date=tomorrow(), slot=slot)
    booking_cancel(booking=held, by=ann)
    bea = User.objects.create_user("bea@example.com")
    booking_request(user=bea, court=court, date=tomorrow(), slots=SLOTS[1:])  # taken again at once
    run_due_tasks()  # the first slot is offered to Ada; the second is held by Bea
    sign_in(page, site, "ada@example.com", "/dashboard/waitlist")

    rows = page.get_by_role("row")
    offered = rows.filter(has_text=SLOTS[0])
    waiting = rows.filter(has_text=SLOTS[1])
    expect(offered).to_contain_text("Held for you until")
    expect(waiting).to_contain_text("1st in line")

    # Leaving the place still waiting asks first.
    waiting.get_by_role("button", name="Leave").click()
    page.get_by_role("dialog", name="Leave this waitlist?").get_by_role(
        "button", name="Yes, leave it"
    ).click()
    expect(page.get_by_text(SLOTS[1])).to_have_count(0)  # the page, reloaded
    expect(page.get_by_role("row").filter(has_text=SLOTS[0])).to_be_visible()
    assert WaitlistEntry.objects.get(slot=SLOTS[1]).status == WaitlistEntry.Status.LEFT

    # Book now leads to the day sheet, where the slot says till when it is held for Ada.
    until = timezone.localtime(WaitlistEntry.objects.get(slot=SLOTS[0]).offer_expires_at)
    page.get_by_role("row").filter(has_text=SLOTS[0]).get_by_role("link", name="Book now").click()
    expect(page).to_have_url(f"{site}/schedule?date={tomorrow().isoformat()}")
    page.get_by_role("button", name=f"Held for you until {until:%H:%M} (Centre, {SLOTS[0]})").click()
    page.get_by_role("button", name="Book", exact=True).click()
    expect(page.get_by_role("link", name="Yours")).to_have_count(1)
    booking = Booking.objects.get(user=ada)
    assert (booking.slots, booking.status) == ([SLOTS[0]], Booking.Status.PENDING)
    assert WaitlistEntry.objects.get(slot=SLOTS[0]).status == WaitlistEntry.Status.BOOKED
