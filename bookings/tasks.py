"""The bookings' background work, run by the worker (`manage.py run_worker`)."""

from datetime import date as Date

from django.tasks import task

from . import notices, waitlist  # waitlist queues these tasks, so each module reaches the other at call time
from .services import bookings_expire


@task
def expire_overdue() -> int:
    """Periodic (settings.PERIODIC_TASKS): overdue bookings expire, and their owners are told."""
    return bookings_expire()


@task
def send_reminders() -> int:
    """Periodic (settings.PERIODIC_TASKS): payment and booking reminders."""
    return notices.remind()


@task
def offer_freed_slots(court_id: int, date: str, slots: list[str]) -> int:
    """Queued by bookings.waitlist.slot_freed: each freed slot offered to the first in its line."""
    return waitlist.waitlist_offer(court_id=court_id, date=Date.fromisoformat(date), slots=slots)


@task
def pass_on_waitlist_offers() -> int:
    """Periodic (settings.PERIODIC_TASKS): offers that ran out pass to the next in line."""
    return waitlist.waitlist_pass_on()
