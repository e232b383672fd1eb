"""Django admin in a browser: an admin signs in with the site's own sign-in, cancels a member's
paid booking with the action that refunds it in full, and the refund is made, shown in Refunds
and in the member's payment history."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from audit.models import AuditEntry
from bookings.models import Booking
from bookings.services import policy_update
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from e2e.test_cancellation_and_instant_booking import book_from_the_modal, pay_on_the_payment_page
from payments.models import Refund
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def test_an_admin_cancels_a_paid_booking_from_django_admin_and_it_is_refunded_in_full(
    site: str, page: Page, localstripe
):
    # After the cut-off, as the owner would get nothing back: an admin's cancellation refunds in full.
    policy_update(approval_required=False, cancel_cutoff_hours=72, refund_percent=100, late_refund_percent=0)
    CourtFactory(name="Centre Court", type="Tennis", price="20.00", slots=["08:00-09:00"])
    for email, role in [("mia@example.com", User.Role.MEMBER), ("ann@example.com", User.Role.ADMIN)]:
        User.objects.create_user(email, role=role)
    sign_in(page, site, "mia@example.com", "/courts")
    book_from_the_modal(page, site)
    pay_on_the_payment_page(page, "$20.00")
    booking = Booking.objects.get()
    page.context.clear_cookies()  # Mia leaves

    page.goto(site + "/admin/")
    expect(page).to_have_url(re.compile(re.escape(site) + r"/login\?next="))
    sign_in(page, site, "ann@example.com", "/admin/bookings/booking/")
    row = page.get_by_role("row", name=re.compile(r"mia@example\.com"))
    expect(row).to_contain_text("Confirmed")
    row.get_by_role("checkbox").check()
    page.get_by_label("Action:").select_option(
        label="Cancel the selected bookings (paid ones refunded in full)"
    )
    page.get_by_role("button", name="Run").click()

    expect(page.locator(".messagelist")).to_contain_text(f"Booking #{booking.pk} cancelled.")
    expect(page.get_by_role("row", name=re.compile(r"mia@example\.com"))).to_contain_text("Cancelled")
    run_due_tasks()  # the worker makes the refund at Stripe
    page.goto(site + "/admin/payments/refund/")
    expect(page.get_by_role("row", name=re.compile(r"20\.00"))).to_contain_text("Succeeded")
    assert Refund.objects.get().status == Refund.Status.SUCCEEDED
    assert list(AuditEntry.objects.values_list("actor_email", "action")) == [
        ("ann@example.com", "booking.cancelled")
    ]

    page.context.clear_cookies()
    sign_in(page, site, "mia@example.com", "/dashboard/payment-history")
    expect(page.get_by_role("row", name=re.compile(r"Centre Court"))).to_contain_text("Refunded $20.00")
