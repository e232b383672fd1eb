"""The club's days as moments: a period of days, kept as dates, is looked up on timestamps from the
start of its first day to the start of the day after its last (in the club's time zone), so the
timestamps' indexes serve it."""

from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from rest_framework import serializers

# The days a filter may name: any a club's records could hold, and far from the calendar's ends,
# where a day's start or the day after cannot be computed (9999-12-31 has no day after).
EARLIEST_DAY = date(1900, 1, 1)
LATEST_DAY = date(2999, 12, 31)


class DayField(forms.DateField):
    """A day that a page's filter asks about, from EARLIEST_DAY to LATEST_DAY."""

    out_of_reach = f"Choose a day from {EARLIEST_DAY.year} to {LATEST_DAY.year}."
    default_validators = [
        MinValueValidator(EARLIEST_DAY, out_of_reach),
        MaxValueValidator(LATEST_DAY, out_of_reach),
    ]


class PeriodFilters(forms.Form):
    """A page's filters, a period `date_from`..`date_to` among them: a field that is not valid, or
    a period the wrong way round, filters nothing."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        first, last = cleaned.get("date_from"), cleaned.get("date_to")
        if first and last and last < first:
            self.add_error("date_to", f"The last day comes on or after the first ({first:%Y-%m-%d}).")
            del cleaned["date_from"]
        return cleaned

    def filters(self) -> dict[str, Any]:
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value not in (None, "")}


def weekly(first: date, last: date | None = None, *, every_weeks: int = 1) -> list[date]:
    """`first`, and the same weekday every `every_weeks` weeks after it up to `last` (included when
    it falls on one); `first` alone without a `last`: a block's, a series', a program's days."""
    step = timedelta(weeks=every_weeks)
    count = (last - first) // step + 1 if last is not None and last >= first else 1
    return [first + step * index for index in range(count)]


def day_start(day: date) -> datetime:
    """The moment a day begins in the club's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min))


def moments(first: date | None, last: date | None) -> tuple[datetime | None, datetime | None]:
    """From the start of `first` up to the start of the day after `last`; None leaves a side open."""
    return (day_start(first) if first else None), (day_start(last + timedelta(days=1)) if last else None)


def between(field: str, start: datetime | None, end: datetime | None) -> Q:
    """`field` from `start` up to (not including) `end`; None leaves that side open."""
    bounds = {f"{field}__gte": start, f"{field}__lt": end}
    return Q(**{lookup: moment for lookup, moment in bounds.items() if moment})


def month_start(day: date, months_back: int = 0) -> date:
    """The first day of `day`'s month, or of the month `months_back` before it."""
    month = day.year * 12 + day.month - 1 - months_back
    return date(month // 12, month % 12 + 1, 1)


def months_of(first: date, last: date) -> list[date]:
    """The first day of each month from `first`'s to `last`'s, in order."""
    back = (last.year - first.year) * 12 + last.month - first.month
    return [month_start(last, months_back) for months_back in range(back, -1, -1)]


def add_months(moment: datetime, months: int) -> datetime:
    """The same moment `months` later, on the same day of the month, or its last day when shorter
    (a month from January 31 is February's last day), as card subscriptions count months."""
    month = moment.year * 12 + moment.month - 1 + months
    year, month = month // 12, month % 12 + 1
    last_day = (date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)).day
    return moment.replace(year=year, month=month, day=min(moment.day, last_day))


# How the site writes a day and a moment (the templates' `day` and `when` filters, the API's DateLabel):
# long date (the spec's announcements: long date plus time), and the time in 12 hours.
DAY = "F j, Y"
MOMENT = f"{DAY}, g:i A"


def when(moment: datetime | None) -> str:
    """A moment (an aware datetime) in the club's time zone."""
    return date_format(timezone.localtime(moment), MOMENT) if moment else ""


def day(value: date | datetime | None) -> str:
    """A calendar day; a moment gives its day in the club's time zone."""
    if not value:
        return ""
    if isinstance(value, datetime):
        value = timezone.localtime(value)
    return date_format(value, DAY)


def days(start: date | datetime | None, end: date | datetime | None) -> str:
    """The days of a period from `start` to `end` (moments give their days in the club's time zone),
    as a membership's period is written: "December 5, 2026 – January 5, 2027"."""
    return f"{day(start)} – {day(end)}" if start and end else ""


class DateLabel(serializers.CharField):
    """A day or a moment as the site writes it, `write` being day or when: the API sends it beside
    the raw value, so that no island writes dates its own way (null where the value is)."""

    def __init__(self, write: Callable[..., str], **kwargs: Any):
        self.write = write
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: Any) -> str:
        return self.write(value)
