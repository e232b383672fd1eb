"""Programs in a browser: an admin makes a clinic for four on Manage Programs; four people take its
places, the fifth joins its waitlist from /programs; one of the four cancels, and the fifth is
offered the place, told by e-mail, and pays for it."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from e2e.test_shares import pay_on_the_page
from programs.models import Program, Registration
from programs.services import program_register
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def test_an_admin_makes_a_clinic_for_four_and_the_fifth_is_offered_the_place_one_cancels(
    site: str, page: Page, new_context, localstripe, mailbox
):
    User.objects.create_user("ann@example.com", role=User.Role.ADMIN, name="Ann Admin")
    CourtFactory(name="Clinic Court", slots=["09:00-10:00", "10:00-11:00"])
    first_day = timezone.localdate() + timedelta(days=6)
    closes = timezone.localtime() + timedelta(days=4)

    sign_in(page, site, "ann@example.com", "/dashboard/manage-programs", name="Ann Admin")
    form = page.get_by_role("form", name="New program")
    form.get_by_label("Kind").select_option("Clinic")
    form.get_by_label("Title").fill("Beginners' clinic")
    form.get_by_label("Or the coach's name").fill("Coach Carter")
    form.get_by_label("Clinic Court").check()
    form.get_by_label("First day").fill(first_day.isoformat())
    form.get_by_label("10:00-11:00").check()
    form.get_by_label("Places").fill("4")
    form.get_by_label("Price per participant ($)").fill("20")
    form.get_by_label("Registration opens").fill(timezone.localtime().strftime("%Y-%m-%dT%H:%M"))
    form.get_by_label("Registration closes").fill(closes.strftime("%Y-%m-%dT%H:%M"))
    form.get_by_role("button", name="Make the program").click()
    expect(page.get_by_role("heading", name="Beginners' clinic")).to_be_visible()
    expect(page.get_by_test_id("places-left")).to_have_text("4 of 4")
    program = Program.objects.get()

    four = [User.objects.create_user(f"player{n}@example.com", name=f"Player {n}") for n in range(4)]
    for person in four:
        program_register(program=program, user=person)

    fifth = new_context().new_page()
    User.objects.create_user("fay@example.com", name="Fay Fifth")
    sign_in(fifth, site, "fay@example.com", "/programs", name="Fay Fifth")
    fifth.get_by_role("link", name="See and register for Beginners' clinic").click()
    expect(fifth.get_by_test_id("places-left")).to_have_text("Full: join the waitlist")
    fifth.get_by_role("button", name="Join the waitlist").click()
    expect(fifth.get_by_test_id("your-registration")).to_contain_text("You are on the waitlist")

    leaving = new_context().new_page()
    sign_in(leaving, site, "player0@example.com", f"/programs/{program.pk}", name="Player 0")
    leaving.get_by_role("button", name="Cancel my registration").click()
    confirm = leaving.get_by_role("dialog", name="Cancel your place?")
    expect(confirm).to_contain_text("Nothing was paid for it, so nothing is refunded.")
    confirm.get_by_role("button", name="Yes, cancel it!").click()
    expect(leaving.get_by_role("dialog", name="Cancelled!")).to_be_visible()

    fays = Registration.objects.get(user__email="fay@example.com")
    assert fays.status == Registration.Status.HELD
    run_due_tasks()
    [offer] = [mail for mail in mailbox.messages(to="fay@example.com") if "is yours until" in mail.subject]
    assert f"/dashboard/registrations/{fays.pk}/payment-page" in offer.text

    fifth.reload()
    expect(fifth.get_by_test_id("your-registration")).to_contain_text("A place is held for you until")
    fifth.get_by_role("link", name="Pay $20.00").click()
    expect(fifth.get_by_test_id("registration-price")).to_have_text("$20.00")
    pay_on_the_page(fifth, "$20.00")
    expect(fifth.get_by_test_id("your-registration")).to_contain_text("You are registered.")
    fays.refresh_from_db()
    assert (fays.status, fays.price) == (Registration.Status.CONFIRMED, Decimal("20.00"))
