"""The bookings' figures in the reports (docs/rules.md, Reports): how full the open courts were, by
court or by weekday and the hour their slots start, and how far the bookings made in a period got.
The counting is SQL aggregates; only the slots offered are worked out here, from the courts' slot
lists and the calendar."""

from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import Count, Q
from django.db.models.functions import ExtractIsoWeekDay

from courts.models import Court
from kernel.days import moments
from kernel.slots import Slot

from .models import BookedSlot, Booking
from .selectors import overdue

Status = Booking.Status
WEEKDAYS = range(1, 8)  # ISO: Monday is 1


@dataclass(frozen=True)
class Use:
    """A group of slots: how many the open courts offered, and how many bookings held and blocks
    closed. A slot a block closed was not there to book, so it counts in neither share."""

    offered: int = 0
    booked: int = 0
    blocked: int = 0

    @property
    def bookable(self) -> int:
        return self.offered - self.blocked

    @property
    def percent(self) -> int | None:
        """The share of the bookable slots that were booked, or None when none were bookable."""
        return round(100 * self.booked / self.bookable) if self.bookable > 0 else None


@dataclass(frozen=True)
class Occupancy:
    """Slot use from `date_from` to `date_to` on some weekdays: by court and hour, by weekday and
    hour, and by court; `hours` are the hours at which the open courts' slots start."""

    hours: list[int]
    courts: list[Court]
    by_court_hour: dict[tuple[int, int], Use]
    by_weekday_hour: dict[tuple[int, int], Use]
    by_court: dict[int, Use]


def occupancy(*, date_from: date, date_to: date, weekdays: Collection[int] = WEEKDAYS) -> Occupancy:
    """How full the open courts were from `date_from` to `date_to` on the ISO `weekdays`. A court
    counts from the day it was added; a booking counts while it holds its slots (an overdue one
    does not, as in the day sheet). Three queries whatever the number of bookings: the courts,
    the held slots counted by court, weekday and slot, and those of them that overdue bookings
    hold (few, so they are counted apart rather than the booking of every slot read)."""
    courts = list(Court.objects.filter(is_archived=False).order_by("name", "pk"))
    slots = (
        BookedSlot.objects.filter(
            date__gte=date_from,
            date__lte=date_to,
            court__in=[court.pk for court in courts],
            offer__isnull=True,
        )
        .annotate(weekday=ExtractIsoWeekDay("date"))
        .filter(weekday__in=weekdays)
        .order_by()
        .values("court", "weekday", "slot")
    )
    # Counted by (court, weekday, hour) as plain numbers: [offered, booked, blocked].
    counts: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in slots.annotate(
        booked=Count("pk", filter=Q(booking__isnull=False)),
        blocked=Count("pk", filter=Q(block__isnull=False)),
    ):
        count = counts[row["court"], row["weekday"], Slot.parse(row["slot"]).start.hour]
        count[1] += row["booked"]
        count[2] += row["blocked"]
    overdue_bookings = Booking.objects.filter(overdue()).values("pk")
    for row in slots.filter(booking__in=overdue_bookings).annotate(booked=Count("pk")):
        counts[row["court"], row["weekday"], Slot.parse(row["slot"]).start.hour][1] -= row["booked"]
    for court in courts:
        days = weekdays_between(max(date_from, court.created_at.date()), date_to)
        for hour, slots_then in Counter(Slot.parse(slot).start.hour for slot in court.slots).items():
            for weekday in weekdays:
                counts[court.pk, weekday, hour][0] += slots_then * days[weekday]

    def total(key) -> dict:
        totals: dict = defaultdict(lambda: [0, 0, 0])
        for (court, weekday, hour), count in counts.items():
            summed = totals[key(court, weekday, hour)]
            for part in range(3):
                summed[part] += count[part]
        return {group: Use(*summed) for group, summed in totals.items()}

    return Occupancy(
        hours=sorted({hour for _, _, hour in counts}),
        courts=courts,
        by_court_hour=total(lambda court, weekday, hour: (court, hour)),
        by_weekday_hour=total(lambda court, weekday, hour: (weekday, hour)),
        by_court={court.pk: Use() for court in courts} | total(lambda court, weekday, hour: court),
    )


def weekdays_between(first: date, last: date) -> Counter:
    """How many of each ISO weekday there are from `first` to `last` (none if `last` is earlier)."""
    days: Counter = Counter()
    if last < first:
        return days
    weeks, extra = divmod((last - first).days + 1, 7)
    for weekday in WEEKDAYS:
        days[weekday] = weeks
    for offset in range(extra):
        days[(first + timedelta(days=offset)).isoweekday()] += 1
    return days


@dataclass(frozen=True)
class Funnel:
    """The bookings requested in a period: how many were approved and how many paid for (whatever
    became of them since), and how each ended: confirmed, rejected, cancelled, expired (an overdue
    one counts as expired, as everywhere), or still waiting for a decision or a payment."""

    requested: int
    approved: int
    paid: int
    confirmed: int
    rejected: int
    cancelled: int
    expired: int
    waiting: int


def booking_funnel(*, date_from: date, date_to: date) -> Funnel:
    """The funnel of the bookings made from `date_from` to `date_to` (the club's days), in two
    aggregate queries: approval leaves `approved_at` set for good; a paid booking is confirmed, or
    was before it was cancelled, which the history of the (few) cancelled ones says."""
    start, end = moments(date_from, date_to)
    made = Booking.objects.filter(created_at__gte=start, created_at__lt=end)
    late = overdue()
    counts = made.aggregate(
        requested=Count("pk"),
        approved=Count("pk", filter=Q(approved_at__isnull=False)),
        confirmed=Count("pk", filter=Q(status=Status.CONFIRMED)),
        rejected=Count("pk", filter=Q(status=Status.REJECTED)),
        cancelled=Count("pk", filter=Q(status=Status.CANCELLED)),
        expired=Count("pk", filter=Q(status=Status.EXPIRED) | late),
        waiting=Count("pk", filter=Q(status__in=[Status.PENDING, Status.APPROVED]) & ~late),
    )
    paid_then_cancelled = made.filter(status=Status.CANCELLED, history__to_status=Status.CONFIRMED).count()
    return Funnel(**counts, paid=counts["confirmed"] + paid_then_cancelled)
