"""The bookings' background work, run by the worker (`manage.py run_worker`)."""

from django.tasks import task

from .services import bookings_expire


@task
def expire_overdue() -> int:
    """Periodic (settings.PERIODIC_TASKS): overdue bookings expire, and their owners are told."""
    return bookings_expire()
