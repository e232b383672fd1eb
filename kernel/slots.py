"""A slot of a court's day as a value: when it starts and ends. The database and the API keep the
spec's "HH:MM-HH:MM" strings; the server reads them through Slot.parse wherever it needs a time."""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo

from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

# ASCII digits only: Python's \d would also take the digits of other scripts.
SLOT_PATTERN = re.compile(r"^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$", re.ASCII)


@dataclass(frozen=True, order=True)
class Slot:
    """From `start` up to `end` (wall-clock times) on any day; slots order by start, then end."""

    start: time
    end: time

    @classmethod
    def parse(cls, text: str) -> "Slot":
        """The slot that `text` ("08:00-09:00") names; ValueError, saying what is expected, if it
        names none or ends before it starts."""
        start, _, end = text.partition("-") if isinstance(text, str) else ("", "", "")
        if not SLOT_PATTERN.match(str(text)) or start >= end:
            raise ValueError(f"'{text}' is not a time range like '08:00-09:00'.")
        return cls(time.fromisoformat(start), time.fromisoformat(end))

    def __str__(self) -> str:
        """The slot as the database, the API and people read it: "08:00-09:00"."""
        return f"{self.start:%H:%M}-{self.end:%H:%M}"

    @property
    def hours(self) -> float:
        """How long the slot lasts on the clock, in hours."""
        minutes = (self.end.hour - self.start.hour) * 60 + self.end.minute - self.start.minute
        return minutes / 60

    def starts_at(self, day: date, tz: tzinfo | None = None) -> datetime:
        """When the slot begins on `day`, in `tz` (else the club's time zone)."""
        return timezone.make_aware(datetime.combine(day, self.start), tz)

    def ends_at(self, day: date, tz: tzinfo | None = None) -> datetime:
        """When the slot ends on `day`, in `tz` (else the club's time zone)."""
        return timezone.make_aware(datetime.combine(day, self.end), tz)


# Between the two times of a range as people read it: an en dash, not the hyphen the data keeps.
RANGE_DASH = "\u2013"
# What a booking without slots shows (the spec's Booking: 'N/A' if missing).
NO_SLOTS = "N/A"


def slot_ranges(slots: str | Iterable[str]) -> list[str]:
    """`slots` (one slot's label, or several) as the ranges people read, in time order: slots
    that follow on from one another read as one range ("09:00-10:00", "10:00-11:00" →
    "09:00–11:00"), others stay apart. A label that names no slot is kept as it is, last, so that
    a list never fails to show."""
    labels = [slots] if isinstance(slots, str) else list(slots)
    parsed: list[Slot] = []
    unread: list[str] = []
    for label in labels:
        try:
            parsed.append(Slot.parse(label))
        except ValueError:
            unread.append(str(label))
    merged: list[list[time]] = []
    for start, end in ((slot.start, slot.end) for slot in sorted(parsed)):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [f"{start:%H:%M}{RANGE_DASH}{end:%H:%M}" for start, end in merged] + unread


def slots_label(slots: str | Iterable[str]) -> str:
    """The slots as text (e-mails, calendars, CSV): their ranges joined by commas, as the spec
    joins a booking's slots."""
    return ", ".join(slot_ranges(slots)) or NO_SLOTS


def slots_html(slots: str | Iterable[str]) -> SafeString:
    """The slots as HTML (pages and e-mails): a line may break between two ranges, never inside
    one. The style is inline, as e-mails have no stylesheet."""
    ranges = slot_ranges(slots)
    if not ranges:
        return format_html("{}", NO_SLOTS)
    return format_html_join(", ", '<span style="white-space:nowrap">{}</span>', ((text,) for text in ranges))
