"""Blocks: slots of a court the club keeps for itself (docs/rules.md, Blocks), held by held-slot
rows as a booking's are, so that the database never lets both hold one slot."""

from datetime import date as Date
from datetime import timedelta
from itertools import groupby
from operator import itemgetter
from typing import cast

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from audit.services import audit_record, snapshot
from courts.models import Court
from kernel.errors import Conflict
from kernel.text import one_line_refusal

from .models import Block, BookedSlot, Booking
from .selectors import held_slots
from .services import booking_cancel, holders_release
from .slots import REACH_DAYS, WEEKLY_MOST_DAYS, slots_refusal
from .waitlist import slot_freed

REFUSE, CANCEL, SKIP = "refuse", "cancel", "skip"
CONFLICT_CHOICES = (REFUSE, CANCEL, SKIP)
# A block as the audit trail keeps it.
AUDITED = ["court", "date", "until", "slots", "reason"]


class BlockConflicts(Conflict):
    """Bookings hold some of the slots a block would close; `bookings` lists them."""

    def __init__(self, bookings: list[Booking]):
        self.bookings = bookings
        count = f"{len(bookings)} booking holds" if len(bookings) == 1 else f"{len(bookings)} bookings hold"
        super().__init__(
            f"{count} some of these slots: cancel them (paid ones are refunded in full) or leave "
            "those slots out."
        )


def block_conflicts(*, court: Court, date: Date, until: Date | None, slots: list[str]) -> list[Booking]:
    """The bookings that hold any of `slots` of `court` on the block's days, in date order."""
    days = Block(date=date, until=until).dates
    held = held_slots(court=court, date__in=days, slot__in=slots, booking__isnull=False)
    holding = Booking.objects.filter(pk__in=held.values("booking_id"), status__in=Booking.HOLDING)
    return list(holding.select_related("user").order_by("date", "id"))


def block_list(
    *, court_id: int | None = None, date_from: Date | None = None, date_to: Date | None = None
) -> QuerySet[Block]:
    """The blocks, in date order, of one court and in force on some day of those given."""
    blocks = Block.objects.select_related("court", "created_by")
    if court_id:
        blocks = blocks.filter(court_id=court_id)
    if date_from:
        blocks = blocks.filter(Q(until__gte=date_from) | Q(until__isnull=True, date__gte=date_from))
    if date_to:
        blocks = blocks.filter(date__lte=date_to)
    return blocks.order_by("date", "id")


@transaction.atomic
def block_create(
    *,
    by: User,
    court: Court,
    date: Date,
    until: Date | None = None,
    slots: list[str],
    reason: str,
    conflicts: str = REFUSE,
) -> Block:
    """An admin closes `slots` of `court` on `date`, or weekly until `until`, saying why. Bookings
    holding some are, by `conflicts`: REFUSE, listed in a BlockConflicts; CANCEL, cancelled; SKIP,
    kept, their slots (and waitlist offers', otherwise refused) left out. Slots another block holds
    are left out; a booking taking one meanwhile wins it, and nothing is blocked."""
    reason = reason.strip()
    errors: dict[str, str] = {}
    today = timezone.localdate()
    if court.is_archived:
        errors["courtId"] = "This court is archived: nobody can book it anyway."
    if date < today:
        errors["date"] = "Please choose today or a later date."
    elif (date - today).days > REACH_DAYS:
        errors["date"] = "Choose a day within two years of today."
    if until is not None:
        if until < date:
            errors["until"] = "The last day comes on or after the first."
        elif (until - date).days > WEEKLY_MOST_DAYS:
            last = date + timedelta(days=WEEKLY_MOST_DAYS)
            errors["until"] = f"A weekly block runs for a year at most: choose {last} or earlier."
    if refusal := slots_refusal(court=court, date=date, slots=slots, doing="block"):
        errors["slots"] = refusal
    if not reason:
        errors["reason"] = "Say why the court is closed: people see it in the schedule."
    elif len(reason) > cast(int, Block._meta.get_field("reason").max_length):  # the field declares one
        errors["reason"] = "At most 200 characters."
    elif refusal := one_line_refusal(reason):
        errors["reason"] = refusal
    if errors:
        raise ValidationError(errors)
    slots = sorted(slots, key=court.slots.index)
    if conflicts not in CONFLICT_CHOICES:
        raise ValidationError({"conflicts": f"One of {', '.join(CONFLICT_CHOICES)}."})
    days = Block(date=date, until=until).dates
    clashing = block_conflicts(court=court, date=date, until=until, slots=slots)
    if clashing and conflicts == REFUSE:
        raise BlockConflicts(clashing)
    for booking in clashing if conflicts == CANCEL else ():
        booking_cancel(booking=booking, by=by, reason=f"The court is closed: {reason}", slots_blocked=True)
    held = BookedSlot.objects.filter(court=court, date__in=days, slot__in=slots)
    holders_release(held)
    if conflicts != SKIP and (offered := held.filter(offer__isnull=False).order_by("date", "slot").first()):
        raise Conflict(
            f"{offered.slot} on {offered.date} is offered to someone on its waitlist for a few "
            "minutes: leave the slots that are taken out, or try again later."
        )
    taken = set(held.values_list("date", "slot"))
    cells = [(day, slot) for day in days for slot in slots if (day, slot) not in taken]
    if not cells:
        raise Conflict("Every one of these slots is held already: there is nothing left to block.")
    block = Block.objects.create(
        court=court, date=date, until=until, slots=slots, reason=reason, created_by=by
    )
    try:
        with transaction.atomic():  # a savepoint: the clash is reported, not half-written
            BookedSlot.objects.bulk_create(
                BookedSlot(block=block, court=court, date=day, slot=slot) for day, slot in cells
            )
    except IntegrityError as error:
        raise Conflict(
            "Someone booked one of these slots just now. Look at the schedule again and try again."
        ) from error
    audit_record(
        actor=by,
        action="block.create",
        target=block,
        summary=f"Blocked {court}: {block}",
        after=snapshot(block, AUDITED),
    )
    return block


@transaction.atomic
def block_delete(*, block: Block, by: User, program_called_off: bool = False) -> None:
    """An admin lifts a block; its slots from today on go to their waitlists. A program's block is
    lifted only with its program (`program_called_off`: programs.services.program_cancel)."""
    if not program_called_off and block.programs.exists():
        raise Conflict("These slots are held for a program: call the program off to free them.")
    today = timezone.localdate()
    freed = list(block.held_slots.filter(date__gte=today).order_by("date").values_list("date", "slot"))
    audit_record(
        actor=by,
        action="block.delete",
        target=block,
        summary=f"Unblocked {block.court}: {block}",
        before=snapshot(block, AUDITED),
    )
    block.delete()  # its held-slot rows go with it
    for day, cells in groupby(freed, key=itemgetter(0)):
        slot_freed(court_id=block.court_id, date=day, slots=[slot for _, slot in cells])
