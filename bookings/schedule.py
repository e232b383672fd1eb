"""The day sheet: every open court and its slots on one day, each cell in one state
(docs/rules.md, The day sheet)."""

from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime

from django.db import models
from django.utils import timezone

from accounts.models import User
from courts.models import Court
from courts.selectors import court_list

from .models import BookedSlot
from .selectors import overdue
from .services import started_slots


class CellState(models.TextChoices):
    FREE = "free", "Free"
    TAKEN = "taken", "Taken"
    YOURS = "yours", "Yours"
    PAST = "past", "Past"
    NONE = "none", "Not offered"


@dataclass(frozen=True)
class Cell:
    slot: str
    state: str
    # The holding booking: its owner and the admins see which one; only admins see whose.
    booking_id: int | None = None
    status: str = ""
    holder: str = ""

    @property
    def label(self) -> str:
        return CellState(self.state).label


@dataclass(frozen=True)
class Row:
    court: Court
    cells: list[Cell]


@dataclass(frozen=True)
class DaySheet:
    date: Date
    type: str
    slots: list[str]  # the columns: every slot any of the rows' courts offers, in time order
    rows: list[Row]


def day_sheet(
    *, date: Date, type: str = "", viewer: User | None = None, now: datetime | None = None
) -> DaySheet:
    """The sheet of `date` for `viewer` (None or anonymous: nobody's bookings are theirs), of the
    open courts of one `type` or of all. Two queries, however many courts: the open courts, and
    the slots held that day. A cell is the booking's that holds it (yours or taken), else past if
    the slot has begun in the club's time zone, else free; a court that does not offer a column's
    slot has a cell in state none."""
    now = now or timezone.now()
    courts = court_list()
    if type:
        courts = courts.filter(type=type)
    courts = list(courts)
    columns = sorted({slot for court in courts for slot in court.slots})
    begun = set(started_slots(date=date, slots=columns, now=now))
    held = (
        BookedSlot.objects.filter(court__in=courts, date=date)
        .exclude(overdue(now, via="booking__"))
        .values_list(
            "court_id", "slot", "booking_id", "booking__status", "booking__user_id", "booking__user__email"
        )
    )
    holders = {(court_id, slot): rest for court_id, slot, *rest in held}
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    is_admin = viewer_id is not None and viewer.is_admin

    def cell(court: Court, slot: str) -> Cell:
        if slot not in court.slots:
            return Cell(slot, CellState.NONE)
        if (court.pk, slot) in holders:
            booking_id, status, user_id, email = holders[court.pk, slot]
            mine = user_id == viewer_id
            state = CellState.YOURS if mine else CellState.TAKEN
            if not (mine or is_admin):
                return Cell(slot, state)
            return Cell(slot, state, booking_id, status, email if is_admin else "")
        return Cell(slot, CellState.PAST if slot in begun else CellState.FREE)

    rows = [Row(court, [cell(court, slot) for slot in columns]) for court in courts]
    return DaySheet(date=date, type=type, slots=columns, rows=rows)


def schedule_types() -> list[str]:
    """The types of the open courts, to filter the sheet by."""
    return list(court_list().order_by("type").values_list("type", flat=True).distinct())
