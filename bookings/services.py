"""Every change to a booking, in one place (design: one service function per business action)."""

import secrets
from datetime import date as Date
from datetime import datetime, time, timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from club.errors import Conflict, Forbidden
from courts.models import Court

from . import notices
from .models import BookedSlot, Booking, BookingStatusChange, CalendarFeed, Policy
from .selectors import held_slots_of, open_bookings, overdue, policy_get

Status = Booking.Status


class SlotTaken(Conflict):
    def __init__(self):
        super().__init__("That slot is already booked.")


class TooManyOpenBookings(Conflict):
    def __init__(self, limit: int):
        super().__init__(
            f"You already have {limit} open bookings (waiting for a decision or "
            "for payment). Pay for or cancel one of them before you request another."
        )


class TooManyHours(Conflict):
    def __init__(self, limit: int, held: float, date: Date):
        super().__init__(
            f"You may hold at most {limit:g} hours of courts a day, and you hold {held:g} on {date} "
            "already: choose fewer slots or another day."
        )


# The allowed transitions, declared once; `_transition` enforces them.
TRANSITIONS: dict[str, set[str]] = {
    Status.PENDING: {Status.APPROVED, Status.REJECTED, Status.CANCELLED, Status.EXPIRED},
    Status.APPROVED: {Status.CONFIRMED, Status.CANCELLED, Status.EXPIRED},
    # A payment that succeeds just after its booking expired keeps the booking if its slots are
    # still free (payments.services.payment_confirm refunds it otherwise).
    Status.EXPIRED: {Status.CONFIRMED},
}


def booking_price(*, court: Court, slots: list[str]) -> Decimal:
    return court.price * len(slots)


def bookable_dates(user: User, policy: Policy | None = None) -> tuple[Date, Date]:
    """The first and last day `user` may book a court for: today, and the end of their role's
    advance window (the policy's; read here unless the caller has it)."""
    today = timezone.localdate()
    return today, today + timedelta(days=(policy or policy_get()).advance_days(user))


def slot_start(*, date: Date, slot: str) -> datetime:
    """When a slot ('HH:MM-HH:MM') begins, in the club's time zone."""
    return timezone.make_aware(datetime.combine(date, time.fromisoformat(slot[:5])))


def slot_end(*, date: Date, slot: str) -> datetime:
    """When a slot ('HH:MM-HH:MM') ends, in the club's time zone."""
    return timezone.make_aware(datetime.combine(date, time.fromisoformat(slot[6:])))


def slot_hours(*, date: Date, slots: list[str]) -> float:
    """How long the slots last together on `date`, in hours."""
    seconds = sum(
        (slot_end(date=date, slot=slot) - slot_start(date=date, slot=slot)).total_seconds() for slot in slots
    )
    return seconds / 3600


def started_slots(*, date: Date, slots: list[str], now: datetime | None = None) -> list[str]:
    """Those of `slots` that have begun on `date` by `now`: too late to book."""
    now = now or timezone.now()
    return [slot for slot in slots if slot_start(date=date, slot=slot) <= now]


def _validate_request(
    *, user: User, policy: Policy, court: Court, date: Date, slots: list[str], price: Decimal | None
) -> list[str]:
    errors: dict[str, str] = {}
    first, last = bookable_dates(user, policy)
    if court.is_archived:
        errors["courtId"] = "This court is no longer open for booking."
    if date < first:
        errors["date"] = "Please choose today or a later date."
    elif date > last:
        errors["date"] = f"Bookings open {(last - first).days} days ahead for you: choose {last} or earlier."
    unknown = [slot for slot in slots if slot not in court.slots]
    if not slots:
        errors["slots"] = "Please select at least one slot."
    elif unknown:
        errors["slots"] = f"Not a slot of this court: {', '.join(unknown)}."
    elif len(set(slots)) != len(slots):
        errors["slots"] = "Each slot can be chosen once."
    elif date == first and (started := started_slots(date=date, slots=slots)):
        errors["slots"] = f"Too late to book: {', '.join(started)} has already started."
    if not errors and price is not None and price != booking_price(court=court, slots=slots):
        errors["price"] = f"The price is {booking_price(court=court, slots=slots)}, not {price}."
    if errors:
        raise ValidationError(errors)
    return sorted(slots, key=court.slots.index)


@transaction.atomic
def booking_request(
    *, user: User, court: Court, date: Date, slots: list[str], price: Decimal | None = None
) -> Booking:
    """A pending booking for `user`, holding its slots. The price is the server's (court price times
    slots); a price sent by the client must equal it. The policy's limits hold: one person holds
    at most its number of open bookings (so nobody can sit on a court's week with requests) and
    at most its hours of courts a day."""
    policy = policy_get()
    slots = _validate_request(user=user, policy=policy, court=court, date=date, slots=slots, price=price)
    # Under the person's row lock their concurrent requests are counted one after the other.
    User.objects.select_for_update().get(pk=user.pk)
    if open_bookings(user=user).count() >= policy.open_bookings_limit:
        raise TooManyOpenBookings(policy.open_bookings_limit)
    if policy.daily_hours_limit is not None:
        held = slot_hours(date=date, slots=list(held_slots_of(user=user, date=date)))
        if held + slot_hours(date=date, slots=slots) > policy.daily_hours_limit:
            raise TooManyHours(policy.daily_hours_limit, held, date)
    booking = Booking.objects.create(
        user=user,
        court=court,
        court_name=court.name or court.type,
        date=date,
        slots=slots,
        # "HH:MM-HH:MM" strings sort in time order: the smallest is the first slot.
        starts_at=slot_start(date=date, slot=min(slots)),
        price=booking_price(court=court, slots=slots),
    )
    _hold_slots(booking)
    BookingStatusChange.objects.create(booking=booking, to_status=Status.PENDING, by=user)
    notices.requested(booking)
    return booking


def _hold_slots(booking: Booking) -> None:
    """Holds the booking's slots. A slot still held by an overdue booking is free (lists and
    availability say so): that booking expires here, and the slot is held for this one."""
    try:
        _insert_held_slots(booking)
    except IntegrityError as error:
        holders = BookedSlot.objects.filter(
            overdue(via="booking__"), court_id=booking.court_id, date=booking.date, slot__in=booking.slots
        ).values_list("booking_id", "booking__status")
        expired = [_expire(Booking(pk=pk), status) for pk, status in holders]  # every one, not the first
        if not any(expired):
            raise SlotTaken() from error
        try:
            _insert_held_slots(booking)
        except IntegrityError as again:
            raise SlotTaken() from again


def _insert_held_slots(booking: Booking) -> None:
    with transaction.atomic():  # a savepoint, so a clash leaves the outer transaction usable
        BookedSlot.objects.bulk_create(
            BookedSlot(booking=booking, court_id=booking.court_id, date=booking.date, slot=slot)
            for slot in booking.slots
        )


@transaction.atomic
def _transition(
    *, booking: Booking, to: str, by: User | None, only_from: str = "", reason: str = ""
) -> Booking:
    """Moves a booking to `to` under a row lock, if the declared transitions allow it from its
    current state (re-read under the lock; and only from `only_from` when given), and writes the
    history row (with the `reason` the owner is told, if any)."""
    locked = Booking.objects.select_for_update().get(pk=booking.pk)
    if to not in TRANSITIONS.get(locked.status, set()) or only_from not in ("", locked.status):
        raise Conflict(f"This booking is {locked.get_status_display().lower()} and cannot be {to}.")
    from_status, locked.status = locked.status, to
    if to == Status.APPROVED:
        locked.approved_at = timezone.now()
    if from_status not in Booking.HOLDING and to in Booking.HOLDING:
        _hold_slots(locked)  # raises SlotTaken, and the transaction leaves everything as it was
    locked.save(update_fields=["status", "approved_at"])
    if to not in Booking.HOLDING:
        locked.held_slots.all().delete()
    BookingStatusChange.objects.create(
        booking=locked, from_status=from_status, to_status=to, by=by, reason=reason
    )
    notices.status_changed(locked, from_status=from_status, by=by, reason=reason)
    return locked


def booking_approve(*, booking: Booking, by: User) -> Booking:
    """An admin approves a pending request, while its court is open and its wait is not over (a
    request past its decision deadline expires instead, and the admin is told)."""
    if booking.court.is_archived:
        raise Conflict("This court is closed for booking (archived): reject the request instead.")
    # The one definition of "waited too long" is the selectors' query.
    waited_too_long = Booking.objects.filter(overdue(), pk=booking.pk, status=Status.PENDING).exists()
    if waited_too_long and _expire(booking, Status.PENDING):
        raise Conflict(
            "This request waited too long for a decision and has expired; its slots are free again."
        )
    return _transition(booking=booking, to=Status.APPROVED, by=by)


def booking_reject(*, booking: Booking, by: User, reason: str = "") -> Booking:
    """An admin turns a pending request down, with a reason for its owner if they give one."""
    return _transition(booking=booking, to=Status.REJECTED, by=by, reason=reason.strip())


def booking_confirm(*, booking: Booking, by: User | None) -> Booking:
    """A paid booking (payments.services.payment_confirm)."""
    return _transition(booking=booking, to=Status.CONFIRMED, by=by)


def booking_cancel(*, booking: Booking, by: User) -> Booking:
    """The owner cancels their pending or approved booking; an admin may cancel anyone's."""
    if booking.user_id != by.pk and not by.is_admin:
        raise Forbidden("Only the booking's owner or an admin may cancel it.")
    return _transition(booking=booking, to=Status.CANCELLED, by=by)


def bookings_expire(*, now: datetime | None = None) -> int:
    """Overdue bookings (`selectors.overdue`: approvals left unpaid, requests left undecided)
    become expired, with their history row, and give up their held-slot rows. Run by
    `manage.py expire_bookings`; until then they already count as expired everywhere."""
    candidates = Booking.objects.filter(overdue(now)).only("pk", "status")
    return sum(_expire(booking, booking.status) for booking in candidates)


def _expire(booking: Booking, from_status: str) -> bool:
    """Whether the booking expired: not if it left `from_status` meanwhile (decided, paid, cancelled)."""
    try:
        _transition(booking=booking, to=Status.EXPIRED, by=None, only_from=from_status)
    except Conflict:
        return False
    return True


def _feed_secret() -> str:
    return secrets.token_urlsafe(32)


def calendar_feed_get(*, user: User) -> CalendarFeed:
    """A person's calendar feed, made the first time they ask for it."""
    feed, _ = CalendarFeed.objects.get_or_create(user=user, defaults={"secret": _feed_secret})
    return feed


def calendar_feed_reset(*, user: User) -> CalendarFeed:
    """A new secret for a person's calendar feed: the address they shared so far stops answering."""
    feed, _ = CalendarFeed.objects.update_or_create(user=user, defaults={"secret": _feed_secret()})
    return feed


def policy_update(**fields) -> Policy:
    """An admin changes the booking policy (only the fields given); the rules apply from the next request."""
    policy = policy_get()
    for name, value in fields.items():
        setattr(policy, name, value)
    policy.full_clean()
    policy.save()
    return policy
