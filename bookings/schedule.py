"""The day sheet: every open court and its slots on one day, each cell in one state
(docs/rules.md, The day sheet)."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser
from django.db import models
from django.db.models import Exists, F, FilteredRelation, OuterRef, Q, Subquery, Value
from django.utils import timezone

from accounts.models import User
from courts.models import Court
from courts.pricing import members_only_slots, own_price, peak_prices
from courts.selectors import court_list, courts_with_price_bands
from kernel.slots import Slot

from .models import BookedSlot, Player, WaitlistEntry
from .rules import PersonRules
from .selectors import offer_run_out, overdue
from .slots import bookable_dates, started_slots


class CellState(models.TextChoices):
    FREE = "free", "Free"
    TAKEN = "taken", "Taken"
    YOURS = "yours", "Yours"
    # Taken, and the viewer waits in its line (they may leave it).
    WAITING = "waiting", "On the waitlist"
    # Freed and held for the viewer, the first in its line, until `held_until`: theirs to book.
    OFFERED = "offered", "Held for you"
    BLOCKED = "blocked", "Blocked"
    # Held by a block of a program (a lesson, clinic, camp or event: programs/): its title, its page.
    PROGRAM = "program", "Program"
    # Free, but beyond the viewer's advance window (their plan's or the policy's): not bookable by them yet.
    LATER = "later", "Not open yet"
    # Free or taken, in a members-only price band, and the viewer holds no plan that opens it.
    MEMBERS = "members", "Members only"
    PAST = "past", "Past"
    NONE = "none", "Not offered"


class Cell(NamedTuple):  # a tuple: thousands are made per sheet, each faster than a frozen dataclass
    slot: str
    state: CellState
    # The holding booking: its owner and the admins see which one; only admins see whose.
    booking_id: int | None = None
    status: str = ""
    holder: str = ""
    # The holding block: everyone sees why the court is closed; admins, which block (to lift it).
    block_id: int | None = None
    reason: str = ""
    # A free cell's price to the viewer when its price band makes it other than the row's `price`
    # (docs/rules.md, Prices).
    price: Decimal | None = None
    # The viewer's own place in the cell's line (to leave it), and the end of the hold of a slot
    # held for them.
    waitlist_id: int | None = None
    held_until: datetime | None = None
    # Who else plays in a booking of the viewer's (theirs, or one they play in): names, guests marked.
    players: tuple[str, ...] = ()
    # The holding booking is a date of a series; the holding block is a program's (its id).
    series: bool = False
    program_id: int | None = None


@dataclass(frozen=True)
class Row:
    court: Court
    cells: list[Cell]
    # The slots whose price that day is not the court's own, with their price in dollars (as the
    # schedule island takes them), to the viewer.
    peak: dict[str, str]
    # What the viewer pays for a slot at the court's own price: their plan's member price.
    price: Decimal


@dataclass(frozen=True)
class DaySheet:
    date: Date
    type: str
    slots: list[str]  # the columns: every slot any of the rows' courts offers, in time order
    rows: list[Row]
    # The columns' slots that have begun (a held one stays taken, with no waitlist to join).
    begun: frozenset[str] = frozenset()
    # When the viewer may book this day, if it is beyond their advance window.
    opens_on: Date | None = None


def day_sheet(
    *,
    date: Date,
    type: str = "",
    viewer: User | AnonymousUser | None = None,
    now: datetime | None = None,
    bookable_until: Date | None = None,
    courts: Iterable[Court] | None = None,
    rules: PersonRules | None = None,
) -> DaySheet:
    """The sheet of `date` for `viewer` (None or anonymous: nobody's bookings are theirs), of the
    open courts of one `type` or of all, or of `courts` (a page of schedule_courts), in two queries
    however many courts; days after `bookable_until` (the viewer's advance window, if given) are not
    open yet; prices and members-only cells are as the viewer's `rules` say (their plan's; none
    given: no plan's) (docs/rules.md, The day sheet)."""
    now = now or timezone.now()
    courts = list(schedule_courts(type) if courts is None else courts)
    columns = sorted({slot for court in courts for slot in court.slots}, key=Slot.parse)
    begun = frozenset(started_slots(date=date, slots=columns, now=now))
    later = bookable_until is not None and date > bookable_until
    signed_in = viewer if isinstance(viewer, User) else None
    viewer_id = signed_in.pk if signed_in is not None else None
    is_admin = signed_in is not None and signed_in.is_admin
    rules = rules or PersonRules(signed_in or AnonymousUser(), plan=None)
    price_for, members_only_hours = rules.price_for, rules.members_only_hours
    # Overdue bookings and run-out waitlist offers hold nothing (docs/rules.md, Waitlist).
    holding_nothing = overdue(now, via="holding__") | offer_run_out(now, via="offer__")
    # The viewer's place in each held slot's line, read with the slot: its index answers each row.
    place = (
        Subquery(
            WaitlistEntry.objects.filter(
                user_id=viewer_id,
                court_id=OuterRef("court_id"),
                date=date,
                slot=OuterRef("slot"),
                status=WaitlistEntry.Status.WAITING,
            ).values("pk")[:1]
        )
        if viewer_id is not None
        else Value(None, output_field=models.IntegerField())
    )
    # Whether the viewer plays in the holding booking, someone else's (bookings/players.py).
    plays = (
        Exists(
            Player.objects.filter(
                booking_id=OuterRef("booking_id"), user_id=viewer_id, status=Player.Status.PLAYING
            )
        )
        if viewer_id is not None
        else Value(False)
    )
    held = (
        BookedSlot.objects.filter(court_id__in=[court.pk for court in courts], date=date)
        # A slot's booking is of the slot's day: joined on that day too, the bookings are read from
        # their index by date (booking_by_date), not every booking of the club hashed.
        .annotate(holding=FilteredRelation("booking", condition=Q(booking__date=date)))
        .exclude(holding_nothing)
        .values_list(
            "court_id",
            "slot",
            "booking_id",
            "holding__status",
            "holding__user_id",
            # Whose, for an admin only: the others' sheets need not join the people.
            F("holding__user__email") if is_admin else Value(""),
            "block_id",
            "block__reason",
            # The program a block holds its slots for (programs.Program.blocks), if any.
            "block__programs",
            "holding__series_id",
            "offer__user_id",
            "offer__offer_expires_at",
            place,
            plays,
        )
    )
    holders = {(court_id, slot): rest for court_id, slot, *rest in held}
    players = _others_playing(
        {row[0] for row in holders.values() if row[0] and (row[2] == viewer_id or row[-1])}, viewer_id
    )
    # A cell that says no more than its state is the same in every row: made once per slot.
    plain = {(slot, state): Cell(slot, state) for slot in columns for state in CellState}

    def cell(court: Court, offered: set[str], kept: set[str], slot: str, peak: dict[str, Decimal]) -> Cell:
        if slot not in offered:
            return plain[slot, CellState.NONE]
        holder = holders.get((court.pk, slot))
        if holder is not None:
            (
                booking_id,
                status,
                user_id,
                email,
                block_id,
                reason,
                program_id,
                series_id,
                offeree_id,
                held_until,
                place_id,
                plays,
            ) = holder
            if program_id is not None:  # lifted by calling the program off, not as a block
                return Cell(slot, CellState.PROGRAM, reason=reason, program_id=program_id)
            if block_id is not None:
                return Cell(slot, CellState.BLOCKED, block_id=block_id if is_admin else None, reason=reason)
            if offeree_id is not None and offeree_id == viewer_id:
                price = peak.get(slot)
                return Cell(slot, CellState.OFFERED, price=price, held_until=held_until)
            # A block's or an offer's is nobody's; one the viewer plays in is theirs too.
            mine = user_id is not None and (user_id == viewer_id or plays)
            if mine or is_admin:
                state = CellState.YOURS if mine else CellState.TAKEN
                others = players.get(booking_id, ()) if mine else ()
                holder_shown = email if is_admin else ""
                return Cell(
                    slot,
                    state,
                    booking_id,
                    status,
                    holder_shown,
                    players=others,
                    series=series_id is not None,
                )
            if slot in begun:
                return plain[slot, CellState.TAKEN]
            if place_id is not None:
                return Cell(slot, CellState.WAITING, waitlist_id=place_id)
            return plain[slot, CellState.MEMBERS if slot in kept else CellState.TAKEN]
        if slot in begun:
            return plain[slot, CellState.PAST]
        if slot in kept:
            return plain[slot, CellState.MEMBERS]
        if later:
            return plain[slot, CellState.LATER]
        price = peak.get(slot)
        return plain[slot, CellState.FREE] if price is None else Cell(slot, CellState.FREE, price=price)

    rows = []
    for court in courts:
        peak = peak_prices(court, date, court.slots, price_for)
        offered = set(court.slots)
        kept = set() if members_only_hours else set(members_only_slots(court, date, court.slots))
        cells = [cell(court, offered, kept, slot, peak) for slot in columns]
        shown = {slot: str(price) for slot, price in peak.items()}
        rows.append(Row(court, cells, shown, own_price(court, price_for)))
    opens_on = date - (bookable_until - timezone.localdate(now)) if later and bookable_until else None
    return DaySheet(date=date, type=type, slots=columns, rows=rows, begun=begun, opens_on=opens_on)


def _others_playing(booking_ids: set[int], viewer_id: int | None) -> dict[int, tuple[str, ...]]:
    """For each of the viewer's bookings (made or played in), who else plays: its organiser and its
    players (Player.listed_name); one query, none when the viewer has none that day."""
    if not booking_ids:
        return {}
    players = Player.objects.filter(booking_id__in=booking_ids, status=Player.Status.PLAYING).select_related(
        "user", "booking__user"
    )
    others: dict[int, list[str]] = {}
    for player in players:
        names = others.setdefault(player.booking_id, [])
        if not names and player.booking.user_id != viewer_id:
            names.append(player.booking.user.public_name)
        if player.user_id != viewer_id:
            names.append(player.listed_name)
    return {booking_id: tuple(names) for booking_id, names in others.items()}


def bookable_until(rules: PersonRules) -> Date | None:
    """The last day the sheet offers the viewer to book: the end of their advance window (a
    visitor's is a user's); none for an admin, who may block any day."""
    return None if rules.is_admin else bookable_dates(rules)[1]


def schedule_courts(type: str = "") -> list[Court]:
    courts = court_list().filter(type=type) if type else court_list()
    return courts_with_price_bands(courts)


def schedule_types() -> list[str]:
    return list(court_list().order_by("type").values_list("type", flat=True).distinct())
