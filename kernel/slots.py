"""A slot of a court's day as a value: when it starts and ends. The database and the API keep the
spec's "HH:MM-HH:MM" strings; the server reads them through Slot.parse wherever it needs a time."""

import re
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo

from django.utils import timezone

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
