"""Memberships in a browser: a person buys the monthly plan with a card from /membership, books at
its member price within its weekly hours and is refused past them; and when a renewal's card is
declined the membership is past due, its holder told by e-mail, and paid again with another card
from the e-mail's link."""

import time
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import Booking
from courts.tests.factories import CourtFactory
from e2e.journeys import register
from e2e.test_payments import fill_card
from memberships.models import Membership
from memberships.tests.factories import make_plan
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def until(check, timeout: float = 15):
    """Waits for `check` to hold: Stripe's events come a second after what they tell of."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "Stripe's event did not arrive"
        time.sleep(0.2)


def test_buy_the_monthly_plan_and_pay_a_declined_renewal_with_another_card(
    site: str, page: Page, localstripe, mailbox, settings
):
    settings.SITE_URL = site  # the links in the e-mails lead to this test's site
    localstripe.register_webhook(f"{site}/api/stripe/webhook")
    make_plan(
        name="Club",
        description="Play more, pay less",
        price=Decimal("30.00"),
        period="monthly",
        renews_automatically=True,
        member_price_kind="fixed",
        member_price_value=Decimal("12.00"),
        hours_per_week=2,
    )
    CourtFactory(
        name="Centre Court",
        type="Tennis",
        price=Decimal("20.00"),
        slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"],
    )
    day = timezone.localdate() + timedelta(days=1)
    register(page, site, "Ada Lovelace", "ada@example.com")

    page.goto(site + "/membership")
    expect(page.get_by_text("Member price: $12.00 a slot")).to_be_visible()
    page.get_by_role("link", name="Join: Club").click()
    expect(page.get_by_role("heading", name="Join: Club")).to_be_visible()
    fill_card(page, "4242424242424242")
    page.get_by_role("button", name="Pay $30.00").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Payment successful")
    expect(page).to_have_url(site + "/membership")
    expect(page.get_by_test_id("membership-state")).to_have_text("Active")
    membership = Membership.objects.get()

    # The member price on the day sheet; two hours of the plan's two a week, then a third refused.
    page.goto(f"{site}/schedule?date={day.isoformat()}")
    expect(page.get_by_test_id("member-prices")).to_have_text(
        "You book at your Club plan's member prices: $12.00 a slot."
    )
    page.get_by_role("button", name="Free (Centre Court, 08:00-09:00)").click()
    page.get_by_role("button", name="Free (Centre Court, 09:00-10:00)").click()
    expect(page.get_by_text("Centre Court: 08:00–10:00. Total $24.00.")).to_be_visible()
    page.get_by_role("button", name="Book", exact=True).click()
    expect(page.get_by_role("table").get_by_role("link", name="Yours")).to_have_count(2)
    page.get_by_role("button", name="Free (Centre Court, 10:00-11:00)").click()
    page.get_by_role("button", name="Book", exact=True).click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text(
        "Your Club plan lets you hold 2 hours of courts a week"
    )
    assert list(Booking.objects.values_list("price", flat=True)) == [Decimal("24.00")]
    run_due_tasks()
    subjects = [mail.subject for mail in mailbox.messages(to="ada@example.com")]
    assert "Welcome to the club: your Club membership" in subjects
    assert any(subject.startswith("Receipt: Club membership until") for subject in subjects)

    localstripe.renew(membership.stripe_subscription_id, fail=True)
    until(lambda: Membership.objects.get().status == Membership.Status.PAST_DUE)
    run_due_tasks()
    [declined] = [
        mail for mail in mailbox.messages(to="ada@example.com") if "could not be renewed" in mail.subject
    ]
    assert f"Update your card and pay: {site}/membership/renew" in declined.text

    page.goto(f"{site}/membership/renew")
    expect(page.get_by_role("heading", name="Renew: Club")).to_be_visible()
    fill_card(page, "5555555555554444")
    page.get_by_role("button", name="Pay $30.00").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Payment successful")
    expect(page.get_by_test_id("membership-state")).to_have_text("Active")
    assert Membership.objects.get().payments.filter(status="succeeded").count() == 2
