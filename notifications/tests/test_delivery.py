"""A message arrives once: not twice when its event is raised again or its task runs again, not
twice with two workers, and once after the mail server was away."""

import os
import subprocess
import sys
from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from notifications.models import Notification
from notifications.services import (
    deliver,
    notification_deliver,
    notifications_requeue_stalled,
    notify,
    retry_delay,
)
from testing.worker import run_due_tasks

Status = Notification.Status
BOOKING = SimpleNamespace(
    court_name="Hall B", date=date(2026, 12, 1), slots_label="08:00-09:00", price=Decimal("15.00")
)


def make_retries_due():
    """The retry's wait is over (rather than waiting for it)."""
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    Notification.objects.filter(status=Status.PENDING).update(send_after=timezone.now())


def tell(user, about="booking:1", event="booking_requested"):
    return notify(
        event=event,
        recipient=user,
        about=about,
        subject=f"About {about}",
        template="booking_requested",
        context={"booking": BOOKING, "booking_url": "http://127.0.0.1:8000/dashboard/bookings/1"},
    )


@pytest.fixture
def ada(db):
    return User.objects.create_user("ada@example.com")


def test_an_event_raised_again_is_not_sent_again(mailbox, ada):
    assert tell(ada) is not None
    assert tell(ada) is None  # the same event, person and object: already recorded

    run_due_tasks()

    assert len(mailbox.messages()) == 1
    assert Notification.objects.get().status == Status.SENT


def test_a_delivery_run_again_sends_nothing_more(mailbox, ada):
    notification = tell(ada)
    run_due_tasks()

    deliver.enqueue(notification.pk)  # as a queue that retries a task would
    run_due_tasks()

    assert len(mailbox.messages()) == 1


def test_with_the_mail_server_away_a_message_waits_and_arrives_once_when_it_is_back(mailbox, ada):
    mailbox.stop()
    notification = tell(ada)

    run_due_tasks()

    notification.refresh_from_db()
    assert notification.status == Status.PENDING
    assert notification.attempts == 1
    assert "ConnectionRefusedError" in notification.last_error
    # It is tried again later, not at once.
    assert notification.send_after > timezone.now() + retry_delay(1) - timedelta(seconds=5)
    assert run_due_tasks() == 0

    mailbox.start()
    make_retries_due()
    run_due_tasks()
    run_due_tasks()

    [mail] = mailbox.messages()
    assert mail.subject == "About booking:1"
    notification.refresh_from_db()
    assert (notification.status, notification.attempts, notification.last_error) == (Status.SENT, 2, "")


@pytest.mark.parametrize("lost_while", ["sending", "queued"])
def test_a_message_whose_delivery_was_lost_is_sent_once_after_the_claim_timeout(mailbox, ada, lost_while):
    """Its worker was stopped mid-send (the message stays claimed), or its task failed while the
    database blinked (the message stays due, with no task to send it)."""
    notification = tell(ada)
    DBTaskResult.objects.update(status="FAILED")
    if lost_while == "sending":
        Notification.objects.update(status=Status.SENDING, claimed_at=timezone.now(), attempts=1)
    timeout = timedelta(seconds=settings.NOTIFY_CLAIM_TIMEOUT_SECONDS)

    assert notifications_requeue_stalled(now=timezone.now() + timeout - timedelta(minutes=1)) == 0
    assert notifications_requeue_stalled(now=timezone.now() + timeout + timedelta(minutes=1)) == 1
    make_retries_due()
    run_due_tasks()

    assert [m.headers["Message-ID"] for m in mailbox.messages()] == [
        f"<notification-{notification.pk}@{settings.MAIL_DOMAIN}>"
    ]
    assert Notification.objects.get().status == Status.SENT


def test_each_retry_waits_twice_as_long_up_to_an_hour():
    assert [retry_delay(n).total_seconds() for n in (1, 2, 3, 10, 20)] == [30, 60, 120, 3600, 3600]


def test_a_message_claimed_by_one_worker_is_not_sent_by_another(mailbox, ada):
    notification = tell(ada)
    Notification.objects.filter(pk=notification.pk).update(status=Status.SENDING, claimed_at=timezone.now())

    assert notification_deliver(notification_id=notification.pk) == Status.SENDING
    assert mailbox.messages() == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.integration  # starts the site's own processes
def test_two_worker_processes_send_each_message_once(mailbox):
    people = [User.objects.create_user(f"p{number}@example.com") for number in range(30)]
    for person in people:
        tell(person, about="announcement:1", event="announcement")
    database = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{connection.settings_dict['NAME']}",
        "EMAIL_URL": f"smtp://127.0.0.1:{mailbox.port}",
    }
    command = [sys.executable, "manage.py", "run_worker", "--batch", "--no-startup-delay", "--interval", "0"]

    workers = [subprocess.Popen(command, env=env, cwd=settings.BASE_DIR) for _ in range(2)]
    for worker in workers:
        assert worker.wait(60) == 0

    received = sorted(mail.to for mail in mailbox.messages())
    assert received == sorted(person.email for person in people)
    assert Notification.objects.filter(status=Status.SENT).count() == 30


def test_a_message_that_cannot_be_built_is_recorded_failed_and_the_change_commits(mailbox, ada):
    def unmakeable():
        raise AssertionError("Content line can not contain unescaped new line characters.")

    with transaction.atomic():
        ada.name = "Ada"
        ada.save()
        notification = notify(
            event="payment_receipt",
            recipient=ada,
            about="payment:1",
            subject="Receipt",
            template="booking_requested",
            context={"booking": BOOKING, "booking_url": "http://127.0.0.1:8000/dashboard/bookings/1"},
            attachments=unmakeable,
        )
    run_due_tasks()

    ada.refresh_from_db()
    assert ada.name == "Ada"
    notification.refresh_from_db()
    assert notification.status == Status.FAILED
    assert notification.last_error == (
        "AssertionError: Content line can not contain unescaped new line characters."
    )
    assert mailbox.messages() == []


def test_a_message_whose_header_would_break_lines_fails_once_with_its_reason(mailbox, ada):
    notification = tell(ada)
    # As a row written before subjects were kept on one line.
    Notification.objects.filter(pk=notification.pk).update(subject="Hi\r\nBcc: victim@example.com")

    run_due_tasks()
    make_retries_due()
    assert run_due_tasks() == 0

    notification.refresh_from_db()
    assert (notification.status, notification.attempts) == (Status.FAILED, 1)
    assert notification.last_error.startswith("ValueError: ")
    assert mailbox.messages() == []


def test_a_subject_is_sent_on_one_line(mailbox, ada):
    tell(ada, about="booking:1\r\nBcc: victim@example.com")
    run_due_tasks()

    [mail] = mailbox.messages()
    assert mail.subject == "About booking:1 Bcc: victim@example.com"
    assert mail.to == "ada@example.com"
