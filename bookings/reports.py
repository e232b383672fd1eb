"""The bookings' figures in the reports (docs/rules.md, Reports): how full the open courts were, and
how far the bookings made in a period got."""

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from django.db.models import Count, Q
from django.db.models.functions import ExtractIsoWeekDay

from courts.models import Court
from kernel.days import between, moments
from kernel.slots import Slot

from .models import BookedSlot, Booking
from .selectors import overdue

Status = Booking.Status
WEEKDAYS = range(1, 8)  # ISO: Monday is 1


@dataclass(frozen=True)
class Use:
    """A group of slots: how many the open courts offered, bookings held and blocks closed (those
    were not there to book: in neither share); of the booked, how many by dates of series, and of
    the blocked, how many held for programs (lessons, clinics, camps, events)."""

    offered: int = 0
    booked: int = 0
    blocked: int = 0
    series: int = 0
    programs: int = 0

    @property
    def one_off(self) -> int:
        """The slots booked one at a time, not by a series."""
        return self.booked - self.series

    @property
    def bookable(self) -> int:
        return self.offered - self.blocked

    @property
    def percent(self) -> int | None:
        """The share of the bookable slots that were booked, or None when none were bookable."""
        return round(100 * self.booked / self.bookable) if self.bookable > 0 else None


# Where a Use's figures are in a list of them, as in its fields.
_OFFERED, _BOOKED, _BLOCKED, _SERIES, _PROGRAMS = range(5)


@dataclass(frozen=True)
class Occupancy:
    """Slot use by court and hour, by weekday and hour, and by court; `hours`: when slots start."""

    hours: list[int]
    courts: list[Court]
    by_court_hour: dict[tuple[int, int], Use]
    by_weekday_hour: dict[tuple[int, int], Use]
    by_court: dict[int, Use]


def occupancy(*, date_from: date, date_to: date, weekdays: Collection[int] = WEEKDAYS) -> Occupancy:
    """How full the open courts were from `date_from` to `date_to` on the ISO `weekdays`, each
    court from the day it was added. Five queries: the courts, the held slots counted by court,
    weekday and slot, those overdue bookings hold and those programs hold (few: counted apart, not
    joined to each), and the dates of series."""
    courts = list(Court.objects.filter(is_archived=False).order_by("name", "pk"))
    slots = (
        BookedSlot.objects.filter(date__range=(date_from, date_to), court__in=courts, offer__isnull=True)
        .annotate(weekday=ExtractIsoWeekDay("date"))
        .order_by()
        .values("court", "weekday", "slot")
    )
    # A Use's figures by (court, weekday, hour), summed as plain numbers and made Uses once per
    # figure shown: thousands of Use additions were half the report's Python.
    counts: dict[tuple[int, int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])

    @cache
    def hour_of(slot: str) -> int:
        return Slot.parse(slot).start.hour

    def chosen(rows: Iterable[Mapping[str, Any]]) -> Iterator[tuple[list[int], Mapping[str, Any]]]:
        """The rows of the chosen weekdays, with the figures they count in. The weekdays are chosen
        here, not in SQL: they are grouped by anyway, and working each row's weekday out twice there
        was a quarter of the query's time."""
        for row in rows:
            if row["weekday"] in weekdays:
                yield counts[row["court"], row["weekday"], hour_of(row["slot"])], row

    for figures, row in chosen(slots.annotate(booked=Count("booking"), blocked=Count("block"))):
        figures[_BOOKED] += row["booked"]
        figures[_BLOCKED] += row["blocked"]
    overdue_bookings = Booking.objects.filter(overdue()).values("pk")
    for figures, row in chosen(slots.filter(booking__in=overdue_bookings).annotate(booked=Count("pk"))):
        figures[_BOOKED] -= row["booked"]
    # A program's block (programs.Program.blocks, by the relation's name: bookings know no programs).
    for figures, row in chosen(slots.filter(block__programs__isnull=False).annotate(programs=Count("pk"))):
        figures[_PROGRAMS] += row["programs"]
    # The dates of series, from their own few bookings (by their index), not joined to every slot.
    dated = (
        Booking.objects.filter(
            series__isnull=False,
            date__range=(date_from, date_to),
            status__in=Booking.HOLDING,
            court__in=courts,
        )
        .exclude(overdue())
        .annotate(weekday=ExtractIsoWeekDay("date"))
        .values("court", "weekday", "slots")
    )
    each_slot = ({**booking, "slot": slot} for booking in dated for slot in booking["slots"])
    for figures, _ in chosen(each_slot):
        figures[_SERIES] += 1
    for court in courts:
        days = weekdays_between(max(date_from, court.created_at.date()), date_to)
        for hour, slots_then in Counter(hour_of(slot) for slot in court.slots).items():
            for weekday in weekdays:
                counts[court.pk, weekday, hour][_OFFERED] += slots_then * days[weekday]

    def total[K](key: Callable[[int, int, int], K]) -> dict[K, Use]:
        totals: dict[K, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
        for (court, weekday, hour), figures in counts.items():
            group = key(court, weekday, hour)
            totals[group] = [mine + theirs for mine, theirs in zip(totals[group], figures, strict=True)]
        return {group: Use(*figures) for group, figures in totals.items()}

    return Occupancy(
        hours=sorted({hour for _, _, hour in counts}),
        courts=courts,
        by_court_hour=total(lambda court, weekday, hour: (court, hour)),
        by_weekday_hour=total(lambda court, weekday, hour: (weekday, hour)),
        by_court={court.pk: Use() for court in courts} | total(lambda court, weekday, hour: court),
    )


def weekdays_between(first: date, last: date) -> Counter[int]:
    """How many of each ISO weekday there are from `first` to `last` (none if `last` is earlier):
    each as many as the whole weeks, and one more for the days left over."""
    weeks, rest = divmod(max((last - first).days + 1, 0), 7)
    counts = Counter(dict.fromkeys(WEEKDAYS, weeks) if weeks else {})
    counts.update((first + timedelta(days=offset)).isoweekday() for offset in range(rest))
    return counts


@dataclass(frozen=True)
class Funnel:
    """The bookings requested in a period: how many were ever approved and paid for, and how each
    ended (an overdue one is expired)."""

    requested: int
    approved: int
    paid: int
    confirmed: int
    rejected: int
    cancelled: int
    expired: int
    waiting: int


def booking_funnel(*, date_from: date, date_to: date) -> Funnel:
    """The funnel of the bookings made from `date_from` to `date_to`: approval leaves `approved_at`
    set for good; a cancelled booking's history says whether it was paid."""
    made = Booking.objects.filter(between("created_at", *moments(date_from, date_to)))
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
