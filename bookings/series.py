"""Series: the same slots of a court booked every week, or every few weeks, until a date
(docs/rules.md, Series). The dates that cannot be had are listed before anything is made; the
person books the rest, each date a booking of its own, in one transaction: all of them or none."""

from dataclasses import dataclass
from datetime import date as Date
from datetime import timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from accounts.models import User
from courts.models import Court
from kernel.days import day, weekly
from kernel.errors import Conflict, Forbidden
from kernel.slots import slots_label

from . import notices
from .models import BookedSlot, Booking, Policy, Series
from .rules import PersonRules, rules_for
from .selectors import held_slots, overdue, policy_get
from .services import (
    booking_approve,
    booking_cancel,
    booking_make,
    check_open_bookings,
    check_person_limits,
    request_errors,
)
from .slots import REACH_DAYS, WEEKLY_MOST_DAYS, slots_refusal

# How far apart its dates may be, in weeks.
MOST_WEEKS_APART = 4


@dataclass(frozen=True)
class Occurrence:
    """One date of a series being planned: what it costs, or why it cannot be had."""

    date: Date
    price: Decimal
    refusal: str = ""


class DatesChanged(Conflict):
    """Dates that could be had when the person looked cannot be now: `plan` lists them again."""

    def __init__(self, plan: list[Occurrence], dates: list[Date]):
        self.plan = plan
        listed = ", ".join(day(date) for date in dates)
        super().__init__(
            f"{listed} can no longer be had: look at the dates again, and book the others if you still wish."
        )


def series_plan(
    *,
    user: User,
    court: Court,
    slots: list[str],
    first_date: Date,
    every_weeks: int,
    last_date: Date,
    rules: PersonRules | None = None,
) -> list[Occurrence]:
    """Each date of the series `user` asks for (by their `rules`, read if not given), with its
    price, or why it cannot be had (taken, closed, outside their window, past their limits). Asking
    is refused, by field, for a series that cannot be: a court closed, slots it has not, dates out
    of order or too far apart."""
    rules = rules or rules_for(user, policy=policy_get())
    _check_series(
        court=court, slots=slots, first_date=first_date, every_weeks=every_weeks, last_date=last_date
    )
    slots = sorted(slots, key=court.slots.index)
    dates = weekly(first_date, last_date, every_weeks=every_weeks)
    held = held_slots(court=court, date__in=dates, slot__in=slots).select_related("block")
    holders: dict[Date, list[BookedSlot]] = {}
    for row in held:
        holders.setdefault(row.date, []).append(row)
    return [
        _occurrence(user=user, rules=rules, court=court, slots=slots, date=date, held=holders.get(date, []))
        for date in dates
    ]


def _check_series(
    *, court: Court, slots: list[str], first_date: Date, every_weeks: int, last_date: Date
) -> None:
    """Refuses, by field, a series that cannot be, whichever its dates."""
    errors: dict[str, str] = {}
    today = timezone.localdate()
    if court.is_archived:
        errors["courtId"] = "This court is no longer open for booking."
    # On its last date, after today: a slot begun today refuses its first date alone (_occurrence).
    if refusal := slots_refusal(
        court=court, date=max(last_date, today + timedelta(days=1)), slots=slots, doing="book"
    ):
        errors["slots"] = refusal
    if first_date < today:
        errors["firstDate"] = "Please choose today or a later date."
    elif (first_date - today).days > REACH_DAYS:
        errors["firstDate"] = "Choose a day within two years of today."
    if not 1 <= every_weeks <= MOST_WEEKS_APART:
        errors["everyWeeks"] = f"From 1 (weekly) to {MOST_WEEKS_APART} weeks apart."
    elif last_date < first_date + timedelta(weeks=every_weeks):
        second = first_date + timedelta(weeks=every_weeks)
        errors["lastDate"] = f"A series has two dates at least: choose {second} or later."
    elif (last_date - first_date).days > WEEKLY_MOST_DAYS:
        latest = first_date + timedelta(days=WEEKLY_MOST_DAYS)
        errors["lastDate"] = f"A series runs for a year at most: choose {latest} or earlier."
    if errors:
        raise ValidationError(errors)


def _occurrence(
    *, user: User, rules: PersonRules, court: Court, slots: list[str], date: Date, held: list[BookedSlot]
) -> Occurrence:
    """One date of the series: the person's rules for a request on it, an admin's without their
    window or limits; then whether its slots are free."""
    errors, price = request_errors(
        rules=rules, court=court, date=date, slots=slots, window=not rules.is_admin
    )
    if errors:
        return Occurrence(date, price, " ".join(errors.values()))
    if blocks := [row.block for row in held if row.block is not None]:
        return Occurrence(date, price, f"The club has closed the court: {blocks[0].reason}.")
    if held:
        taken = slots_label(sorted((row.slot for row in held), key=court.slots.index))
        return Occurrence(date, price, f"Already taken at {taken}.")
    if not rules.is_admin:
        try:
            check_person_limits(user=user, rules=rules, court=court, date=date, slots=slots, one_more=False)
        except Conflict as refusal:
            return Occurrence(date, price, str(refusal))
    return Occurrence(date, price)


@transaction.atomic
def series_book(
    *,
    user: User,
    court: Court,
    slots: list[str],
    first_date: Date,
    every_weeks: int,
    last_date: Date,
    skip_dates: list[Date] | None = None,
) -> Series:
    """Books the series `user` planned (series_plan), leaving out the `skip_dates` they were told
    cannot be had: every other date is booked, or none (DatesChanged lists those taken since; a
    clash with a request made at this very moment is SlotTaken). The series counts as one open
    booking; each date is requested (or under instant booking approved) as a booking is."""
    policy = policy_get()
    User.objects.select_for_update().get(pk=user.pk)  # as booking_request: one request at a time
    rules = rules_for(user, policy=policy)
    plan = series_plan(
        user=user,
        rules=rules,
        court=court,
        slots=slots,
        first_date=first_date,
        every_weeks=every_weeks,
        last_date=last_date,
    )
    skipped = set(skip_dates or ())
    if changed := [one.date for one in plan if one.refusal and one.date not in skipped]:
        raise DatesChanged(plan, changed)
    wanted = [one for one in plan if one.date not in skipped]
    if not wanted:
        raise Conflict("None of these dates can be had: choose other slots or another day of the week.")
    if not rules.is_admin:
        check_open_bookings(user=user, rules=rules)
    slots = sorted(slots, key=court.slots.index)
    series = Series.objects.create(
        user=user,
        court=court,
        slots=slots,
        first_date=first_date,
        last_date=last_date,
        every_weeks=every_weeks,
    )
    occurrences = [
        booking_make(
            user=user, court=court, date=one.date, slots=slots, price=one.price, policy=policy, series=series
        )
        for one in wanted
    ]
    if occurrences[0].status == Booking.Status.PENDING:
        notices.series_requested(series, occurrences)
    return series


def paid_at_once(policy: Policy) -> bool:
    """Whether the policy has a series' organiser pay its approved dates at once."""
    return policy.series_payment == Policy.SeriesPayment.AT_ONCE


def pays_with_series(booking: Booking, payer_id: int, policy: Policy) -> bool:
    """Whether what `payer_id` owes for `booking` is paid with its series, at once: its organiser's,
    when the policy says so (players pay their shares of a date on its page)."""
    return booking.series_id is not None and payer_id == booking.user_id and paid_at_once(policy)


@transaction.atomic
def series_approve(*, series: Series, by: User) -> list[Booking]:
    """An admin approves every date of the series still waiting for a decision, each as
    booking_approve does; its organiser is told once, of them all. Answers those approved."""
    Series.objects.select_for_update().get(pk=series.pk)
    waiting = (
        series.occurrences.filter(status=Booking.Status.PENDING).exclude(overdue()).order_by("date", "id")
    )
    approved = [booking_approve(booking=booking, by=by, tell=False) for booking in waiting]
    if not approved:
        raise Conflict("No date of this series waits for a decision.")
    notices.series_approved(series, approved)
    return approved


def series_seen_by(user: User) -> QuerySet[Series]:
    """The series a person may look at: their own; an admin, everyone's. Each with its bookings
    (in date order: those it skipped are none)."""
    series = Series.objects.select_related("court", "user").prefetch_related(
        Prefetch("occurrences", queryset=Booking.objects.select_related("user").order_by("date", "id"))
    )
    return series if user.is_admin else series.filter(user=user)


@transaction.atomic
def series_cancel(*, series: Series, by: User, from_date: Date, reason: str = "") -> list[Booking]:
    """Its organiser or an admin cancels the series from `from_date` on: each of its bookings on
    that date or later that holds its slots and has not begun is cancelled as booking_cancel does,
    with the refund the policy gives for it. Answers those cancelled (none, if none was left)."""
    if series.user_id != by.pk and not by.is_admin:
        raise Forbidden("Only the series' organiser or an admin may cancel it.")
    # Under the series' lock, one cancellation at a time: a second finds the bookings cancelled.
    Series.objects.select_for_update().get(pk=series.pk)
    rest = series.occurrences.filter(
        date__gte=from_date, status__in=Booking.HOLDING, starts_at__gt=timezone.now()
    ).order_by("date", "id")
    return [booking_cancel(booking=booking, by=by, reason=reason) for booking in rest]
