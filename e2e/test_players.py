"""Players in a browser: the organiser of a doubles booking finds a member by name, invites a friend
by e-mail and names a guest on the booking's page; the friend opens the invitation from the e-mail,
signs in and accepts, and sees the game on their day sheet with who else plays."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from e2e.journeys import sign_in
from kernel import days
from testing.worker import run_due_tasks

pytestmark = pytest.mark.browser


def test_the_organiser_chooses_the_players_and_an_invited_friend_accepts(
    site: str, page: Page, mailbox, settings
):
    settings.SITE_URL = site  # the links in the e-mails lead to this test's site
    ada = User.objects.create_user("ada@example.com", name="Ada Lovelace")
    User.objects.create_user("mia@example.com", name="Mia Park", role=User.Role.MEMBER, level="3.5")
    User.objects.create_user("zoe@example.com", name="Zoe Parker")
    day = timezone.localdate() + timedelta(days=5)
    booking = make_booking(user=ada, court=CourtFactory(name="Centre Court", places=4), date=day)

    sign_in(page, site, "ada@example.com", f"/dashboard/bookings/{booking.pk}", name="Ada Lovelace")
    players = page.get_by_test_id("players")
    page.get_by_label("Add a person of the club").fill("par")
    page.get_by_role("button", name="Add Mia Park · level 3.5").click()
    expect(players).to_contain_text("Mia Park")
    page.get_by_label("Invite by e-mail").fill("ken@example.com")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(players).to_contain_text("ken@example.com")
    page.get_by_label("Add a guest").fill("Uncle Bob")
    page.get_by_role("button", name="Add guest").click()
    expect(players).to_contain_text("Uncle Bob")
    expect(page.get_by_text("4 of 4 places taken.")).to_be_visible()
    expect(page.get_by_text("Every place is taken: remove someone to add another.")).to_be_visible()
    page.get_by_role("button", name="Remove Uncle Bob").click()
    expect(page.get_by_text("3 of 4 places taken.")).to_be_visible()
    expect(players).not_to_contain_text("Uncle Bob")

    run_due_tasks()
    assert [mail.subject for mail in mailbox.messages(to="mia@example.com")] == [
        f"Ada Lovelace has put you on their booking: Centre Court on {days.day(day)} at 08:00–09:00"
    ]
    [invitation] = mailbox.messages(to="ken@example.com")
    link = re.search(rf"{re.escape(site)}/invitations/\S+", invitation.text).group(0)

    page.context.clear_cookies()
    User.objects.create_user("ken@example.com", name="Ken Adams")
    page.goto(link)
    expect(page.get_by_role("heading", name="Ada Lovelace invites you to play")).to_be_visible()
    expect(page.get_by_text("Ada Lovelace, Mia Park")).to_be_visible()
    sign_in(page, site, "ken@example.com", link.removeprefix(site), name="Ken Adams")
    page.get_by_role("button", name="Accept").click()
    expect(page).to_have_url(f"{site}/dashboard/bookings/{booking.pk}")
    expect(page.get_by_test_id("players")).to_contain_text("Ken Adams")
    page.goto(f"{site}/schedule?date={day.isoformat()}")
    expect(page.get_by_role("link", name="Yours, with Ada Lovelace, Mia Park")).to_be_visible()
