"""Periodic tasks without cron: every worker looks every few seconds which of settings.PERIODIC_TASKS
are due and queues those it claims (club.models.PeriodicRun), so that each runs once per period
however many workers there are."""

import logging
import threading
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, close_old_connections, transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from .models import PeriodicRun

logger = logging.getLogger(__name__)
TICK_SECONDS = 5


def queue_due_tasks(now: datetime | None = None) -> list[str]:
    """Queues each periodic task that is due and that this caller claims; answers their paths."""
    now = now or timezone.now()
    queued = []
    for path, every in settings.PERIODIC_TASKS.items():
        PeriodicRun.objects.get_or_create(task=path, defaults={"due_at": now})
        with transaction.atomic():  # the claim and the queued task commit together
            claimed = PeriodicRun.objects.filter(task=path, due_at__lte=now).update(
                due_at=now + timedelta(seconds=every)
            )
            if claimed:
                import_string(path).enqueue()
                queued.append(path)
    return queued


def tasks_requeue_abandoned() -> int:
    """Queues again the tasks claimed TASK_CLAIM_TIMEOUT_SECONDS ago and never finished (their worker
    was killed, or lost the database); every task is safe to run twice. Answers how many."""
    abandoned = DBTaskResult.objects.running().filter(
        started_at__lt=timezone.now() - timedelta(seconds=settings.TASK_CLAIM_TIMEOUT_SECONDS)
    )
    count = 0
    for task in abandoned.only("pk", "task_path", "started_at", "worker_ids"):
        # Unless it finished (or was taken again) since it was read.
        still_claimed = DBTaskResult.objects.running().filter(pk=task.pk, started_at=task.started_at)
        if still_claimed.update(status=TaskResultStatus.READY):
            logger.warning(
                "Task %s (%s), claimed by worker %s at %s, never finished; queued again.",
                task.pk,
                task.task_path,
                task.worker_ids[-1] if task.worker_ids else "?",
                task.started_at.isoformat(),
            )
            count += 1
    return count


def start_in_background(stop: threading.Event) -> None:
    """Starts the worker's scheduler thread; it ends when `stop` is set (or with the process)."""

    def tick_until_stopped() -> None:
        while not stop.is_set():
            try:
                queue_due_tasks()
            except DatabaseError as error:
                # The database is away (or locked): the tasks are queued once it answers again.
                logger.warning("Could not queue the periodic tasks: %s", str(error).strip())
            finally:
                close_old_connections()
            stop.wait(TICK_SECONDS)

    threading.Thread(target=tick_until_stopped, name="scheduler", daemon=True).start()
