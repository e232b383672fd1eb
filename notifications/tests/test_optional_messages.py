"""The optional messages (reminders): sent once, with a one-click unsubscribe (RFC 8058), and not
sent to people who turned them off, on the preferences page or with that link."""

import time
from datetime import timedelta
from mailbox import Maildir

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.notices import remind
from bookings.selectors import policy_get
from bookings.tests.factories import approved_at, make_booking
from notifications.models import Notification, Preferences
from notifications.services import UNSUBSCRIBE_SALT, unsubscribe_token
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada():
    return User.objects.create_user("ada@example.com")


def approved_due_in(user, hours, settings):
    booking = make_booking(user=user, status=Booking.Status.APPROVED)
    moment = timezone.now() - timedelta(hours=policy_get().payment_window_hours - hours)
    Booking.objects.filter(pk=booking.pk).update(**approved_at(moment))
    return booking


def confirmed_starting_in(user, hours):
    booking = make_booking(user=user, status=Booking.Status.CONFIRMED)
    Booking.objects.filter(pk=booking.pk).update(starts_at=timezone.now() + timedelta(hours=hours))
    return booking


def reminders(mailbox, to="ada@example.com"):
    return [mail for mail in mailbox.messages(to=to) if mail.subject.startswith("Reminder")]


def test_a_payment_due_within_hours_is_reminded_once_with_a_one_click_unsubscribe(mailbox, ada, settings):
    booking = approved_due_in(ada, 5, settings)
    approved_due_in(User.objects.create_user("bob@example.com"), 10, settings)  # not yet

    assert remind() == 1
    assert remind() == 0
    run_due_tasks()

    [mail] = reminders(mailbox)
    assert mail.subject.startswith("Reminder: pay for")
    assert f"http://127.0.0.1:8000/dashboard/payment-page/{booking.pk}" in mail.text
    assert mail.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail.headers["List-Unsubscribe"].startswith("<http://127.0.0.1:8000/unsubscribe/")
    assert "Unsubscribe" in mail.html
    assert reminders(mailbox, to="bob@example.com") == []


def test_a_confirmed_booking_is_reminded_the_day_before(mailbox, ada):
    confirmed_starting_in(ada, 20)
    confirmed_starting_in(ada, 30)  # the day after tomorrow: later

    remind()
    run_due_tasks()

    [mail] = reminders(mailbox)
    assert mail.subject.startswith("Reminder: ")
    assert "your court is booked for" in mail.text


def test_messages_about_ones_own_bookings_carry_no_unsubscribe(mailbox, ada):
    make_booking(user=ada)
    run_due_tasks()

    [mail] = mailbox.messages(to="ada@example.com")
    assert "List-Unsubscribe" not in mail.headers
    assert "Unsubscribe" not in mail.text


def test_the_one_click_link_turns_reminders_off_without_a_session(mailbox, ada, settings):
    approved_due_in(ada, 5, settings)
    remind()
    run_due_tasks()
    link = reminders(mailbox)[0].headers["List-Unsubscribe"].strip("<>").removeprefix("http://127.0.0.1:8000")
    mail_client = Client(enforce_csrf_checks=True)  # a mail client: no session, no CSRF token

    asked = mail_client.get(link)  # a link scanner's GET changes nothing
    assert asked.status_code == 200
    assert not Preferences.objects.filter(user=ada, reminders=False).exists()
    response = mail_client.post(link, {"List-Unsubscribe": "One-Click"})

    assert response.status_code == 200
    assert "will no longer get reminders" in response.content.decode()
    assert "ada@example.com" not in response.content.decode()  # the link may have been forwarded
    assert Preferences.objects.get(user=ada).reminders is False
    confirmed_starting_in(ada, 20)
    remind()
    run_due_tasks()
    assert len(reminders(mailbox)) == 1
    assert Notification.objects.get(event="booking_reminder").status == Notification.Status.SKIPPED


def test_the_list_unsubscribe_header_is_sent_as_the_link_itself(mailbox, ada, settings):
    """Mail clients offer one-click unsubscribe only from a header they can read as it is: not an
    RFC 2047 encoded word, which the header's length would otherwise make it."""
    settings.SITE_URL = "https://club.example.com"
    approved_due_in(ada, 5, settings)
    remind()
    run_due_tasks()

    [mail] = reminders(mailbox)
    raw = Maildir(mailbox.folder).get_bytes(mail.id)
    [line] = [line for line in raw.splitlines() if line.startswith(b"List-Unsubscribe:")]
    assert line == f"List-Unsubscribe: {mail.headers['List-Unsubscribe']}".encode()
    assert line.startswith(b"List-Unsubscribe: <https://club.example.com/unsubscribe/")
    assert line.endswith(b">")


def test_an_unsubscribe_link_older_than_its_lifetime_is_refused(client, ada, settings):
    settings.NOTIFY_UNSUBSCRIBE_DAYS = 30

    class ThirtyOneDaysAgo(signing.TimestampSigner):
        def timestamp(self):
            return signing.b62_encode(int(time.time()) - 31 * 24 * 3600)

    token = ThirtyOneDaysAgo(salt=UNSUBSCRIBE_SALT).sign_object({"user": ada.pk, "optional": "reminders"})
    fresh = unsubscribe_token(user=ada, optional="reminders")

    assert client.post(f"/unsubscribe/{token}").status_code == 400
    assert not Preferences.objects.filter(user=ada, reminders=False).exists()
    assert client.post(f"/unsubscribe/{fresh}").status_code == 200


def test_a_forged_unsubscribe_link_is_refused(client, ada):
    response = client.post("/unsubscribe/not-a-token")

    assert response.status_code == 400
    assert "not valid" in response.content.decode()


@pytest.mark.parametrize("kind", ["owner", "member", "admin"])
def test_each_person_sets_their_own_preferences(people, kind):
    page = people[kind].get("/dashboard/email-preferences")
    assert page.status_code == 200
    assert "The club&#x27;s new announcements" in page.content.decode()

    response = people[kind].post("/dashboard/email-preferences", {"announcements": "on"})

    assert response.status_code == 302
    email = {"owner": "ada@example.com", "member": "mia@example.com", "admin": "ann@example.com"}[kind]
    assert Preferences.objects.filter(user__email=email, reminders=False, announcements=True).count() == 1
    assert Preferences.objects.count() == 1


def test_the_preferences_page_asks_an_anonymous_caller_to_sign_in(client):
    response = client.get("/dashboard/email-preferences")

    assert response.status_code == 302
    assert response["Location"] == "/login?next=/dashboard/email-preferences"


def test_a_new_announcement_reaches_everyone_but_those_who_turned_them_off(mailbox, people):
    Preferences.objects.create(user=User.objects.get(email="bob@example.com"), announcements=False)

    response = people["admin"].post(
        "/api/announcements", {"text": "The courts close early on Friday."}, content_type="application/json"
    )
    assert response.status_code == 201
    run_due_tasks()

    told = sorted(mail.to for mail in mailbox.messages() if mail.subject == "News from Sports Club")
    assert told == ["ada@example.com", "ann@example.com", "mia@example.com"]
    [mail] = [
        mail for mail in mailbox.messages(to="ada@example.com") if mail.subject == "News from Sports Club"
    ]
    assert "The courts close early on Friday." in mail.text
    assert mail.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
