"""A task whose worker is gone (killed mid-task, or cut from the database before it could record the
outcome) is taken again once TASK_CLAIM_TIMEOUT_SECONDS have passed since it was claimed, by the
scheduler every worker runs, and not before: any task, not only e-mail. Each task is safe to run
twice (notifications/tests/test_delivery.py: test_a_delivery_run_again_sends_nothing_more;
payments/tests/test_cancellation_refunds.py: test_two_simultaneous_sends_of_one_refund_make_it_once).
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.services import expire_overdue
from bookings.tests.factories import approved_at, make_booking
from club.models import PeriodicRun
from club.schedule import queue_due_tasks
from notifications.models import Notification
from notifications.tests.test_delivery import tell
from testing.worker import run_due_tasks

pytestmark = pytest.mark.django_db


def abandoned(task_path: str, *, claimed_ago: timedelta) -> None:
    """The task was claimed `claimed_ago` by a worker that then died: it never finished."""
    DBTaskResult.objects.filter(task_path=task_path).update(
        status=TaskResultStatus.RUNNING, worker_ids=["killed"], started_at=timezone.now() - claimed_ago
    )


def sweep() -> None:
    """What the workers do on their own: the periodic tasks fall due, are queued and run, with what
    they queue."""
    PeriodicRun.objects.update(due_at=timezone.now())
    queue_due_tasks()
    run_due_tasks()


def test_a_message_whose_worker_was_killed_before_it_claimed_it_is_sent_after_the_timeout(mailbox, settings):
    notification = tell(User.objects.create_user("ada@example.com"))
    timeout = timedelta(seconds=settings.TASK_CLAIM_TIMEOUT_SECONDS)

    abandoned("notifications.services.deliver", claimed_ago=timeout - timedelta(minutes=1))
    sweep()
    assert Notification.objects.get(pk=notification.pk).status == Notification.Status.PENDING
    assert mailbox.messages() == []

    abandoned("notifications.services.deliver", claimed_ago=timeout + timedelta(minutes=1))
    sweep()
    assert Notification.objects.get(pk=notification.pk).status == Notification.Status.SENT
    assert [mail.to for mail in mailbox.messages()] == ["ada@example.com"]
    sweep()
    assert len(mailbox.messages()) == 1


def test_any_task_whose_worker_is_gone_runs_again_after_the_timeout_and_not_before(settings):
    requeue = "club.tasks.requeue_abandoned"
    # Alone: the expiry is periodic too, and would otherwise run anew on its own schedule.
    settings.PERIODIC_TASKS = {requeue: settings.PERIODIC_TASKS[requeue]}
    booking = make_booking(status=Booking.Status.APPROVED)
    overdue = timedelta(hours=policy_get().payment_window_hours, minutes=1)
    Booking.objects.filter(pk=booking.pk).update(**approved_at(booking.approved_at - overdue))
    expire_overdue.enqueue()
    timeout = timedelta(seconds=settings.TASK_CLAIM_TIMEOUT_SECONDS)

    abandoned("bookings.services.expire_overdue", claimed_ago=timeout - timedelta(minutes=1))
    sweep()
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.APPROVED
    task = DBTaskResult.objects.get(task_path="bookings.services.expire_overdue")
    assert task.status == TaskResultStatus.RUNNING

    abandoned("bookings.services.expire_overdue", claimed_ago=timeout + timedelta(minutes=1))
    sweep()
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.EXPIRED
    task.refresh_from_db()
    assert task.status == TaskResultStatus.SUCCESSFUL
    assert task.worker_ids == ["killed", "tests"]  # the dead worker's claim, then the one that ran it
