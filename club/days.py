"""The club's days as moments: a period of days, kept as dates, is looked up on timestamps from the
start of its first day to the start of the day after its last (in the club's time zone), so the
timestamps' indexes serve it."""

from datetime import date, datetime, time, timedelta

from django.db.models import Q
from django.utils import timezone


def day_start(day: date) -> datetime:
    """The moment a day begins in the club's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min))


def period(first: date, last: date) -> tuple[datetime, datetime]:
    """The moments from the start of `first` up to (not including) the start of the day after `last`."""
    return day_start(first), day_start(last + timedelta(days=1))


def moments(first: date | None, last: date | None) -> tuple[datetime | None, datetime | None]:
    """period(), with a day not given (None) leaving that side open."""
    return (day_start(first) if first else None), (day_start(last + timedelta(days=1)) if last else None)


def between(field: str, start: datetime | None, end: datetime | None) -> Q:
    """The timestamps `field` from `start` up to (not including) `end`; None leaves that side open."""
    bounds = Q()
    if start:
        bounds &= Q(**{f"{field}__gte": start})
    if end:
        bounds &= Q(**{f"{field}__lt": end})
    return bounds


def within_days(field: str, first: date | None, last: date | None) -> Q:
    """The timestamps `field` from the start of `first` up to the start of the day after `last`;
    a day not given leaves that side open."""
    return between(field, *moments(first, last))


def month_start(day: date, months_back: int = 0) -> date:
    """The first day of `day`'s month, or of the month `months_back` before it."""
    month = day.year * 12 + day.month - 1 - months_back
    return date(month // 12, month % 12 + 1, 1)
