"""The bookings' background work, run by the worker (`manage.py run_worker`)."""

from django.tasks import task

from . import notices
from .services import bookings_expire


@task
def expire_overdue() -> int:
    """Periodic (settings.PERIODIC_TASKS): overdue bookings expire, and their owners are told."""
    return bookings_expire()


@task
def send_reminders() -> int:
    """Periodic (settings.PERIODIC_TASKS): payment and booking reminders."""
    return notices.remind()
