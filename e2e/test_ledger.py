"""The ledger in a browser: an admin filters it by court, reads the totals, and exports the CSV."""

import csv
import io
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from payments.models import Payment

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
