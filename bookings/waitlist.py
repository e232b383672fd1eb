"""The waitlist (docs/rules.md, Waitlist): when a taken slot frees, the first in its line is offered
it, held for them by a held-slot row of their entry (one per slot: it is offered once, however many
workers meet over it) for the policy's `waitlist_hold_minutes`, then it passes to the next."""

from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from courts.models import Court
from kernel.errors import Conflict, Forbidden
from kernel.slots import Slot

from . import notices
from .models import BookedSlot, WaitlistEntry
from .rules import rules_for
from .selectors import held_slots, offer_run_out, policy_get
from .slots import day_refusals, members_only_refusal

Status = WaitlistEntry.Status


def book_path(entry: "WaitlistEntry | HeldOffer") -> str:
    """The day sheet of the entry's day, where a slot held for its person is booked."""
    return reverse("bookings:schedule", query={"date": entry.date.isoformat()})


@dataclass(frozen=True)
class HeldOffer:
    """The slots of one court on one day held for a person, and until when the first of them is."""

    court: Court
    date: Date
    slots: list[str]
    held_until: datetime

    @property
    def book_path(self) -> str:
        return book_path(self)


def offers_held_for(*, user: User, now: datetime | None = None) -> list[HeldOffer]:
    """The freed slots held for `user` until they book them, the soonest day first, those of one
    court on one day together."""
    now = now or timezone.now()
    entries = (
        user.waitlist.filter(status=Status.OFFERED)
        .exclude(offer_run_out(now))
        .select_related("court")
        .order_by("date", "court_id", "slot")
    )
    held: dict[tuple[Date, int], list[WaitlistEntry]] = {}
    for entry in entries:
        held.setdefault((entry.date, entry.court_id), []).append(entry)
    return [
        HeldOffer(
            court=same[0].court,
            date=same[0].date,
            slots=[entry.slot for entry in same],
            held_until=min(entry.offer_expires_at for entry in same if entry.offer_expires_at),
        )
        for same in held.values()
    ]


def waitlist_join(*, user: User, court: Court, date: Date, slot: str) -> WaitlistEntry:
    """A place for `user` at the end of the line for a taken slot, not their own, before it begins."""
    rules = rules_for(user)
    errors = day_refusals(rules=rules, court=court, date=date)
    if slot not in court.slots:
        errors["slot"] = "Not a slot of this court."
    elif "date" not in errors and Slot.parse(slot).starts_at(date) <= timezone.now():
        errors["slot"] = f"Too late: {slot} has already started."
    elif refusal := members_only_refusal(rules=rules, court=court, date=date, slots=[slot]):
        errors["slot"] = refusal
    if errors:
        raise ValidationError(errors)
    if user.waitlist.filter(court=court, date=date, slot=slot, status__in=WaitlistEntry.ACTIVE).exists():
        raise Conflict("You are on this slot's waitlist already.")
    held = held_slots(court=court, date=date, slot=slot)
    holders = list(held.values_list("booking__user_id", flat=True)[:1])  # None: a block's, or an offer's
    if not holders:
        raise Conflict("That slot is free: book it instead.")
    if holders[0] == user.pk:
        raise Conflict("You hold that slot yourself.")
    try:
        with transaction.atomic():  # a savepoint: the constraint is the last word on a second place
            return WaitlistEntry.objects.create(user=user, court=court, date=date, slot=slot)
    except IntegrityError:
        raise Conflict("You are on this slot's waitlist already.") from None


@transaction.atomic
def waitlist_leave(*, user: User, entry: WaitlistEntry) -> WaitlistEntry:
    """The person leaves a line; a slot held for them passes to the next."""
    locked = WaitlistEntry.objects.select_for_update().get(pk=entry.pk)
    if locked.user_id != user.pk:
        raise Forbidden("Only its owner may leave a place on a waitlist.")
    if locked.status not in WaitlistEntry.ACTIVE:
        raise Conflict("You are no longer on this waitlist.")
    if locked.move(Status.LEFT, locked=True) == Status.OFFERED:
        locked.held_slots.all().delete()
        slot_freed(court_id=locked.court_id, date=locked.date, slots=[locked.slot])
    return locked


def slot_freed(*, court_id: int, date: Date, slots: list[str]) -> None:
    """In the transaction freeing slots of a court: if anyone waits for them, a task offers each
    once it has committed."""
    if WaitlistEntry.objects.filter(
        court_id=court_id, date=date, slot__in=slots, status=Status.WAITING
    ).exists():
        offer_freed_slots.enqueue(court_id=court_id, date=date.isoformat(), slots=list(slots))


def waitlist_offer(*, court_id: int, date: Date, slots: list[str], now: datetime | None = None) -> int:
    """Offers each of the slots, if free, to the first in its line; answers how many were made."""
    return sum(_offer(court_id=court_id, date=date, slot=slot, now=now or timezone.now()) for slot in slots)


@task
def offer_freed_slots(court_id: int, date: str, slots: list[str]) -> int:
    return waitlist_offer(court_id=court_id, date=Date.fromisoformat(date), slots=slots)


@transaction.atomic
def _offer(*, court_id: int, date: Date, slot: str, now: datetime) -> bool:
    """Holds the slot for the first in its line and tells them, unless it has begun or is held."""
    starts_at = Slot.parse(slot).starts_at(date)
    if starts_at <= now:
        return False
    entry = (
        WaitlistEntry.objects.filter(court_id=court_id, date=date, slot=slot, status=Status.WAITING)
        .order_by("created_at", "id")
        .select_related("user", "court")
        .select_for_update(of=("self",))
        .first()
    )
    if entry is None:
        return False
    try:
        with transaction.atomic():  # a savepoint, so a clash leaves this transaction usable
            BookedSlot.objects.create(offer=entry, court_id=court_id, date=date, slot=slot)
    except IntegrityError:
        return False
    hold = timedelta(minutes=policy_get().waitlist_hold_minutes)
    # A hold never outlasts the slot's start.
    entry.move(Status.OFFERED, locked=True, offered_at=now, offer_expires_at=min(now + hold, starts_at))
    notices.waitlist_offered(entry, book_path=book_path(entry))
    return True


def waitlist_pass_on(*, now: datetime | None = None) -> int:
    """Run-out offers and places for slots begun lapse, and every free slot with a line is offered
    to its first; answers how many offers were made."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    due = WaitlistEntry.objects.filter(
        offer_run_out(now) | Q(date__lte=today), status__in=WaitlistEntry.ACTIVE
    )
    for entry in due.only("status", "offer_expires_at", "date", "slot"):
        if _has_lapsed(entry, now=now):
            _lapse(entry.pk, now=now)
    held = BookedSlot.objects.filter(
        court_id=OuterRef("court_id"), date=OuterRef("date"), slot=OuterRef("slot")
    )
    free_lines = (
        WaitlistEntry.objects.filter(~Exists(held), status=Status.WAITING, date__gte=today)
        .values_list("court_id", "date", "slot")
        .order_by()
        .distinct()
    )
    return sum(
        _offer(court_id=court_id, date=date, slot=slot, now=now) for court_id, date, slot in free_lines
    )


@task
def pass_on_waitlist_offers() -> int:
    """Periodic (settings.PERIODIC_TASKS)."""
    return waitlist_pass_on()


def _has_lapsed(entry: WaitlistEntry, *, now: datetime) -> bool:
    """Whether a place in a line is over: its offer has run out, or its slot has begun."""
    expires_at = entry.offer_expires_at  # set on every offer
    run_out = entry.status == Status.OFFERED and expires_at is not None and expires_at <= now
    return run_out or Slot.parse(entry.slot).starts_at(entry.date) <= now


@transaction.atomic
def _lapse(pk: int, *, now: datetime) -> None:
    """The entry lapses if, under its lock, it is over."""
    entry = WaitlistEntry.objects.select_for_update().filter(pk=pk, status__in=WaitlistEntry.ACTIVE).first()
    if entry is not None and _has_lapsed(entry, now=now):
        entry.move(Status.LAPSED, locked=True)
        entry.held_slots.all().delete()


def offers_release(held: QuerySet[BookedSlot], *, for_user_id: int | None = None) -> int:
    """Before the `held` slots are taken: run-out offers holding them lapse, and one to
    `for_user_id` (the booking's person) is taken up; answers how many were released."""
    holders = held.filter(offer__isnull=False).values("offer_id")
    entries = WaitlistEntry.objects.select_for_update().filter(
        Q(user_id=for_user_id) | offer_run_out(), pk__in=holders, status=Status.OFFERED
    )
    for entry in entries:
        entry.move(Status.BOOKED if entry.user_id == for_user_id else Status.LAPSED, locked=True)
        entry.held_slots.all().delete()
    return len(entries)
