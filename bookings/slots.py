"""A court's slots on a day: when they begin, and whether a person may take them (docs/rules.md,
Requesting)."""

from collections.abc import Iterable
from datetime import date as Date
from datetime import datetime, timedelta

from django.utils import timezone

from courts.models import Court
from courts.pricing import members_only_slots
from kernel.slots import Slot

from .rules import PersonRules

# How far from today the day sheet goes, and blocks: where a calendar has weeks around the day.
REACH_DAYS = 2 * 366
# How long a weekly block or series may run after its first day: a year.
WEEKLY_MOST_DAYS = 366
# The refusal of a request without slots; the booking modal says it before asking.
NO_SLOTS_CHOSEN = "Please select at least one slot."


def bookable_dates(rules: PersonRules) -> tuple[Date, Date]:
    """The first and last day a person may book a court for: today, and the end of their advance
    window (their plan's, else their role's)."""
    today = timezone.localdate()
    return today, today + timedelta(days=rules.window.value or 0)


def slot_hours(slots: Iterable[str]) -> float:
    """How long the slots last together on the clock, in hours."""
    return sum(Slot.parse(slot).hours for slot in slots)


def started_slots(*, date: Date, slots: list[str], now: datetime | None = None) -> list[str]:
    """Those of `slots` that have begun on `date` by `now`: too late to book."""
    now = now or timezone.now()
    return [slot for slot in slots if Slot.parse(slot).starts_at(date) <= now]


def slots_refusal(*, court: Court, date: Date, slots: list[str], doing: str) -> str:
    """Why `slots` of `court` cannot be chosen on `date` (for `doing`: "book", "block"), if they
    cannot."""
    if not slots:
        return NO_SLOTS_CHOSEN
    if unknown := [slot for slot in slots if slot not in court.slots]:
        return f"Not a slot of this court: {', '.join(unknown)}."
    if len(set(slots)) != len(slots):
        return "Each slot can be chosen once."
    if date == timezone.localdate() and (started := started_slots(date=date, slots=slots)):
        return f"Too late to {doing}: {', '.join(started)} has already started."
    return ""


def day_refusals(*, rules: PersonRules, court: Court, date: Date, window: bool = True) -> dict[str, str]:
    """Why the person may not take a slot of `court` on `date`, by field: the court is closed, or
    the day is past, or outside their advance window (if `window`: an admin's series has none)."""
    errors: dict[str, str] = {}
    first, last = bookable_dates(rules)
    if court.is_archived:
        errors["courtId"] = "This court is no longer open for booking."
    if date < first:
        errors["date"] = "Please choose today or a later date."
    elif window and date > last:
        days = (last - first).days
        if (plan := rules.window.plan) is not None:
            errors["date"] = (
                f"Your {plan.name} plan lets you book {days} days ahead: choose {last} or earlier."
            )
        else:
            errors["date"] = f"Bookings open {days} days ahead for you: choose {last} or earlier."
    return errors


def members_only_refusal(*, rules: PersonRules, court: Court, date: Date, slots: list[str]) -> str:
    """Why the person may not take those of `slots` that a members-only band keeps, if any."""
    if rules.members_only_hours or not (kept := members_only_slots(court, date, slots)):
        return ""
    verb = "is" if len(kept) == 1 else "are"
    return (
        f"Members only: {', '.join(kept)} {verb} kept for the holders of a plan with the members-only "
        "hours. Choose other slots, or see the membership plans."
    )
