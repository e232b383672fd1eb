from datetime import timedelta

from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.services import booking_approve, booking_request, policy_update
from courts.tests.factories import CourtFactory


def tomorrow():
    return timezone.localdate() + timedelta(days=1)


def make_booking(
    *, user: User | None = None, court=None, date=None, slots=None, status=Booking.Status.PENDING
):
    """A booking made the way the product makes them (through the services), in `status`."""
    user = user or User.objects.create_user(f"booker{User.objects.count() + 1}@example.com")
    court = court or CourtFactory()
    booking = booking_request(user=user, court=court, date=date or tomorrow(), slots=slots or court.slots[:1])
    if status == Booking.Status.APPROVED:
        booking = booking_approve(booking=booking, by=user)
    elif status != Booking.Status.PENDING:
        Booking.objects.filter(pk=booking.pk).update(status=status)
        if status not in Booking.HOLDING:
            booking.held_slots.all().delete()
        booking.refresh_from_db()
    return booking


def approved_at(moment) -> dict:
    """The fields of a booking approved at `moment`: for backdating one with `update()`."""
    return {
        "approved_at": moment,
        "payment_due_at": moment + timedelta(hours=policy_get().payment_window_hours),
    }


def lift_hour_limits() -> None:
    """The policy's limits on one person's hours of unpaid bookings lifted: for a test that has one
    person hold more open bookings at once than a normal booker would."""
    policy_update(daily_open_hours_limit=None, weekly_open_hours_limit=None)
