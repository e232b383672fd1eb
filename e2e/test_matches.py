"""Open matches in a browser: the organiser opens their booking as a match on its page; another
person finds it on /matches by their level, joins, and pays their share; the match does not fill
by its deadline and is called off, with both payments refunded and both told by e-mail."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.matches import matches_call_off
from bookings.models import Booking, Match
from bookings.services import policy_update
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from e2e.test_shares import pay_on_the_page
from kernel.days import day
from payments.models import Refund
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def test_a_match_is_opened_joined_from_matches_and_called_off_with_refunds(
    site: str, page: Page, new_context, localstripe, mailbox
):
    policy_update(price_sharing="shared")
    ada = User.objects.create_user("ada@example.com", name="Ada Lovelace", level=Decimal("3.5"))
    User.objects.create_user("bob@example.com", name="Bob Stone", level=Decimal("4.0"))
    court = CourtFactory(name="Padel 1", type="Padel", price=Decimal("20.00"), places=4)
    date = timezone.localdate() + timedelta(days=5)
    booking = make_booking(user=ada, court=court, date=date, status=Booking.Status.APPROVED)

    sign_in(page, site, "ada@example.com", f"/dashboard/bookings/{booking.pk}", name="Ada Lovelace")
    page.get_by_label("Players in all, you included").fill("4")
    deadline = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    page.get_by_label("Full by", exact=True).fill(deadline)
    page.get_by_label("Lowest level").fill("3.0")
    page.get_by_label("Highest level").fill("4.5")
    page.get_by_role("button", name="Open as a match").click()
    expect(page.get_by_text("Your booking is an open match")).to_be_visible()
    page.get_by_role("link", name="Pay", exact=True).click()
    pay_on_the_page(page, "$5.00")  # a quarter of $20: the match is for four

    bobs = new_context().new_page()
    sign_in(bobs, site, "bob@example.com", "/matches", name="Bob Stone")
    bobs.get_by_label("Your level").fill("4.0")
    bobs.get_by_label("Court type").select_option("Padel")
    bobs.get_by_role("button", name="Show").click()
    bobs.get_by_role("button", name=f"Join the match on Padel 1, {day(date)}").click()
    expect(bobs.get_by_test_id("your-share")).to_contain_text("$5.00")
    pay_on_the_page(bobs, "$5.00")
    expect(bobs.get_by_test_id("players")).to_contain_text("Bob Stone")

    # Nobody else joins by the deadline.
    Match.objects.filter(booking=booking).update(deadline=timezone.now() - timedelta(seconds=1))
    assert matches_call_off() == 1
    run_due_tasks()

    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.CANCELLED
    assert Refund.objects.filter(status=Refund.Status.SUCCEEDED).count() == 2
    for address in ("ada@example.com", "bob@example.com"):
        subjects = [mail.subject for mail in mailbox.messages(to=address)]
        assert f"Refund of $5.00: Padel 1 on {day(date)}" in subjects
    page.reload()
    expect(page.get_by_text("Cancelled").first).to_be_visible()
    expect(page.get_by_text("The match did not fill by its deadline.")).to_be_visible()
