"""Periodic tasks without cron: each runs once per period however many workers look, and the
overdue bookings expire (and their owners hear of it) with nobody running a command."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.tests.factories import approved_at, make_booking
from club.models import PeriodicRun
from club.schedule import queue_due_tasks
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db

EVERY = {"bookings.services.expire_overdue": 60, "notifications.services.requeue_stalled": 300}


@pytest.fixture(autouse=True)
def periodic(settings):
    settings.PERIODIC_TASKS = EVERY


def queued() -> list[str]:
    return sorted(DBTaskResult.objects.values_list("task_path", flat=True))


def test_each_periodic_task_is_queued_once_per_period():
    now = timezone.now()

    assert queue_due_tasks(now) == list(EVERY)
    assert queue_due_tasks(now + timedelta(seconds=30)) == []
    assert queue_due_tasks(now + timedelta(seconds=61)) == ["bookings.services.expire_overdue"]
    assert queue_due_tasks(now + timedelta(seconds=301)) == list(EVERY)

    assert queued() == sorted([*EVERY, "bookings.services.expire_overdue", *EVERY])
    assert PeriodicRun.objects.get(task="bookings.services.expire_overdue").due_at == now + timedelta(
        seconds=361
    )


@pytest.mark.django_db(transaction=True)
def test_of_several_workers_looking_at_once_one_queues_each_task():
    start = threading.Barrier(4)
    now = timezone.now()

    def worker():
        start.wait()
        try:
            queue_due_tasks(now)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert queued() == sorted(EVERY)


def test_an_unpaid_approval_expires_on_schedule_and_its_owner_is_told(mailbox, settings):
    booking = make_booking(status=Booking.Status.APPROVED)
    later = timezone.now() + timedelta(hours=policy_get().payment_window_hours, minutes=1)
    Booking.objects.filter(pk=booking.pk).update(
        **approved_at(booking.approved_at - (later - timezone.now()))
    )

    queue_due_tasks()
    run_due_tasks()

    booking.refresh_from_db()
    assert booking.status == Booking.Status.EXPIRED
    assert [
        mail.subject for mail in mailbox.messages(to=booking.user.email) if "expired" in mail.subject
    ] == [f"Your booking of {booking.court_name} has expired"]
