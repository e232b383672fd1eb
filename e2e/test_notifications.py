"""Nothing is missed, in a browser: a new person requests a court and the admin's mailbox gets the
notice; the approval reaches the person with the pay link and deadline (once, though the mail
server was away when it was made); they follow the link and pay, and the receipt arrives with the
booking as an .ics, which their calendar feed lists too; a rejection arrives with its reason."""

import re
import urllib.request
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from icalendar import Calendar
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_approve, booking_reject
from courts.tests.factories import CourtFactory
from e2e.journeys import register
from e2e.test_payments import fill_card
from notifications.models import Notification
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def book(page: Page, site: str, court: str, slot: str) -> None:
    page.goto(f"{site}/courts")
    page.get_by_role("listitem").filter(has_text=court).get_by_role("button", name="Book Now").click()
    modal = page.get_by_role("dialog")
    modal.get_by_label("Date").fill((timezone.localdate() + timedelta(days=2)).isoformat())
    modal.get_by_label(slot).check()
    modal.get_by_role("button", name="Submit Booking").click()
    expect(page.locator("[data-rht-toaster]")).to_contain_text("Booking request sent.")


def zoes(mailbox, subject_start: str) -> list:
    return [mail for mail in mailbox.messages(to="zoe@example.com") if mail.subject.startswith(subject_start)]


def retries_are_due() -> None:
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    Notification.objects.filter(status=Notification.Status.PENDING).update(send_after=timezone.now())


def test_every_step_of_a_booking_reaches_the_mailbox_once(
    site: str, page: Page, emulator, localstripe, mailbox, settings
):
    settings.SITE_URL = site  # the links in the e-mails lead to this test's site
    CourtFactory(name="Hall A", type="Badminton", price=Decimal("15.00"), slots=["08:00-09:00"])
    CourtFactory(name="Hall B", type="Badminton", price=Decimal("15.00"), slots=["10:00-11:00"])
    admin = User.objects.create_user("ann@example.com", role=User.Role.ADMIN)

    register(page, site, "Zoe Park", "zoe@example.com")
    expect(page).to_have_url(f"{site}/")
    book(page, site, "Hall A", "08:00-09:00")
    book(page, site, "Hall B", "10:00-11:00")
    run_due_tasks()

    # Both requests came before the worker sent the admin's notice: it tells of both.
    [notice] = mailbox.messages(to="ann@example.com")
    assert notice.subject == "2 booking requests waiting for approval"
    assert f"{site}/dashboard/manage-bookings-approval" in notice.text
    assert [mail.subject for mail in mailbox.messages(to="zoe@example.com")] == [
        "Your request for Hall A is waiting for approval",
        "Your request for Hall B is waiting for approval",
    ]

    # The approval is made while the mail server is away; its e-mail waits, then arrives once.
    hall_a, hall_b = Booking.objects.order_by("court_name")
    mailbox.stop()
    booking_approve(booking=hall_a, by=admin)
    run_due_tasks()
    mailbox.start()
    retries_are_due()
    run_due_tasks()
    run_due_tasks()
    [approved] = zoes(mailbox, "Approved")
    pay_link = re.search(rf"{re.escape(site)}/dashboard/payment-page/\d+", approved.text).group()
    assert "Pay by " in approved.text

    page.goto(pay_link)
    fill_card(page, "4242424242424242")
    page.get_by_role("button", name="Pay $15.00").click()
    expect(page).to_have_url(f"{site}/dashboard/confirmed-bookings")
    run_due_tasks()

    [receipt] = zoes(mailbox, "Receipt")
    assert "$15.00 USD" in receipt.text
    [event] = Calendar.from_ical(receipt.attachments[0].content).walk("VEVENT")
    feed = page.get_by_role("link", name=re.compile("Subscribe")).get_attribute("href")
    with urllib.request.urlopen(feed.replace("webcal://", "http://"), timeout=10) as response:  # noqa: S310 - local
        [listed] = Calendar.from_ical(response.read()).walk("VEVENT")
    assert listed["UID"] == event["UID"]

    booking_reject(booking=hall_b, by=admin, reason="Hall B is closed for a tournament.")
    run_due_tasks()
    [rejected] = zoes(mailbox, "Your request for Hall B was not approved")
    assert "Hall B is closed for a tournament." in rejected.text

    # Every message is in the local mailbox's page too.
    page.goto(f"{site}/local/mail")
    expect(page.get_by_role("link", name=re.compile("not approved"))).to_be_visible()
    page.get_by_role("link", name=re.compile("^Receipt")).click()
    expect(page.get_by_role("link", name=re.compile(r"booking-\d+\.ics"))).to_be_visible()
    assert len(mailbox.messages(to="zoe@example.com")) == 5
