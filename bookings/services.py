"""Every change to a booking, in one place (design: one service function per business action)."""

from datetime import date as Date
from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from club.errors import Conflict
from courts.models import Court

from .models import BookedSlot, Booking, BookingStatusChange

Status = Booking.Status


class SlotTaken(Conflict):
    def __init__(self):
        super().__init__("That slot is already booked.")


# The allowed transitions, declared once; `_transition` enforces them.
TRANSITIONS: dict[str, set[str]] = {
    Status.PENDING: {Status.APPROVED, Status.REJECTED, Status.CANCELLED},
    Status.APPROVED: {Status.CONFIRMED, Status.CANCELLED, Status.EXPIRED},
    # A payment that succeeds just after its booking expired keeps the booking if its slots are
    # still free (payments.services.payment_confirm refunds it otherwise).
    Status.EXPIRED: {Status.CONFIRMED},
}


def booking_price(*, court: Court, slots: list[str]) -> Decimal:
    return court.price * len(slots)


def bookable_dates(today: Date | None = None) -> tuple[Date, Date]:
    """The first and last day a court may be booked for: today, and the advance window's end."""
    today = today or timezone.localdate()
    return today, today + timedelta(days=settings.BOOKING_ADVANCE_DAYS)


def _validate_request(*, court: Court, date: Date, slots: list[str], price: Decimal | None) -> list[str]:
    errors: dict[str, str] = {}
    first, last = bookable_dates()
    if court.is_archived:
        errors["courtId"] = "This court is no longer open for booking."
    if date < first:
        errors["date"] = "Please choose today or a later date."
    elif date > last:
        errors["date"] = (
            f"Bookings open {settings.BOOKING_ADVANCE_DAYS} days ahead: choose {last} or earlier."
        )
    unknown = [slot for slot in slots if slot not in court.slots]
    if not slots:
        errors["slots"] = "Please select at least one slot."
    elif unknown:
        errors["slots"] = f"Not a slot of this court: {', '.join(unknown)}."
    elif len(set(slots)) != len(slots):
        errors["slots"] = "Each slot can be chosen once."
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
    slots); a price sent by the client must equal it."""
    slots = _validate_request(court=court, date=date, slots=slots, price=price)
    booking = Booking.objects.create(
        user=user,
        court=court,
        court_name=court.name or court.type,
        date=date,
        slots=slots,
        price=booking_price(court=court, slots=slots),
    )
    _hold_slots(booking)
    BookingStatusChange.objects.create(booking=booking, to_status=Status.PENDING, by=user)
    return booking


def _hold_slots(booking: Booking) -> None:
    try:
        with transaction.atomic():  # a savepoint, so a clash leaves the outer transaction usable
            BookedSlot.objects.bulk_create(
                BookedSlot(booking=booking, court_id=booking.court_id, date=booking.date, slot=slot)
                for slot in booking.slots
            )
    except IntegrityError as error:
        raise SlotTaken() from error


@transaction.atomic
def _transition(*, booking: Booking, to: str, by: User | None) -> Booking:
    """Moves a booking to `to` under a row lock, if the declared transitions allow it from its
    current state (re-read under the lock), and writes the history row."""
    locked = Booking.objects.select_for_update().get(pk=booking.pk)
    if to not in TRANSITIONS.get(locked.status, set()):
        raise Conflict(f"This booking is {locked.get_status_display().lower()} and cannot be {to}.")
    from_status, locked.status = locked.status, to
    if to == Status.APPROVED:
        locked.approved_at = timezone.now()
    if from_status not in Booking.HOLDING and to in Booking.HOLDING:
        _hold_slots(locked)  # raises SlotTaken, and the transaction leaves everything as it was
    locked.save(update_fields=["status", "approved_at"])
    if to not in Booking.HOLDING:
        locked.held_slots.all().delete()
    BookingStatusChange.objects.create(booking=locked, from_status=from_status, to_status=to, by=by)
    return locked


def booking_approve(*, booking: Booking, by: User) -> Booking:
    return _transition(booking=booking, to=Status.APPROVED, by=by)


def booking_reject(*, booking: Booking, by: User) -> Booking:
    return _transition(booking=booking, to=Status.REJECTED, by=by)


def booking_confirm(*, booking: Booking, by: User | None) -> Booking:
    """A paid booking (payments.services.payment_confirm)."""
    return _transition(booking=booking, to=Status.CONFIRMED, by=by)


def booking_cancel(*, booking: Booking, by: User) -> Booking:
    """The owner cancels their pending or approved booking; an admin may cancel anyone's."""
    if booking.user_id != by.pk and not by.is_admin:
        raise PermissionError("Only the booking's owner or an admin may cancel it.")
    return _transition(booking=booking, to=Status.CANCELLED, by=by)


def bookings_expire(*, now=None) -> int:
    """Approved bookings left unpaid past the payment window expire and release their slots.
    Run by `manage.py expire_bookings`, and before bookings are listed, so no scheduler is needed."""
    cutoff = (now or timezone.now()) - timedelta(hours=settings.BOOKING_PAYMENT_WINDOW_HOURS)
    expired = 0
    for booking in Booking.objects.filter(status=Status.APPROVED, approved_at__lt=cutoff).only("pk"):
        try:
            _transition(booking=booking, to=Status.EXPIRED, by=None)
            expired += 1
        except Conflict:  # paid or cancelled in the meantime
            continue
    return expired
