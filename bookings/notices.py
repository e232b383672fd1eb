"""What the bookings tell people by e-mail, each in the transaction of the change it tells of."""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import CharField, F, Value
from django.db.models.functions import Cast, Concat
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from kernel.days import day, when
from kernel.slots import slots_label
from notifications.selectors import told_about
from notifications.services import absolute_url, notify, notify_admins

from .models import Booking, WaitlistEntry
from .selectors import overdue

Status = Booking.Status
# How many of the waiting requests the admins' e-mail lists (the page has them all).
WAITING_LISTED = 10
# A booking's messages are about "booking:<id>".
ABOUT = "booking:"


def _tell_owner(booking: Booking, *, event: str, subject: str, optional: str = "", **context: Any) -> bool:
    """One message to the booking's owner about it, with where to pay while it waits for its
    payment; whether it was recorded now (not told before)."""
    context.update(booking=booking, booking_url=absolute_url(reverse("bookings:detail", args=[booking.pk])))
    if booking.status == Status.APPROVED:
        context["pay_url"] = absolute_url(reverse("payments:pay", args=[booking.pk]))
    notification = notify(
        event=event,
        recipient=booking.user,
        about=f"{ABOUT}{booking.pk}",
        subject=subject,
        template=event,
        context=context,
        optional=optional,
    )
    return notification is not None


def requested(booking: Booking) -> None:
    """To the person: their request arrived. To every admin: the requests waiting, batched."""
    _tell_owner(
        booking,
        event="booking_requested",
        subject=f"Your request for {booking.court_name} is waiting for approval",
    )
    waiting = Booking.objects.filter(status=Status.PENDING).exclude(overdue()).select_related("user")
    count = waiting.count()
    context = {
        "count": count,
        "requests": waiting.order_by("-created_at", "-id")[:WAITING_LISTED],
        "approvals_url": absolute_url(reverse("bookings:manage-approval")),
    }
    subject = f"{count} booking request{'s' if count != 1 else ''} waiting for approval"
    notify_admins(event="requests_waiting", subject=subject, template="requests_waiting", context=context)


def status_changed(
    booking: Booking, *, from_status: str, by: User | None, reason: str, slots_blocked: bool = False
) -> None:
    """To the owner, when an admin decides, the booking expires, or an admin cancels it (a paid
    booking's message is the payment's receipt); `slots_blocked`: cancelled for a block, which
    keeps its slots from everyone."""
    court = booking.court_name
    if booking.status == Status.APPROVED:
        event, subject = "booking_approved", f"Approved: pay for {court} by {when(booking.payment_deadline)}"
    elif booking.status == Status.REJECTED:
        event, subject = "booking_rejected", f"Your request for {court} was not approved"
    elif booking.status == Status.EXPIRED:
        event, subject = "booking_expired", f"Your booking of {court} has expired"
    elif booking.status == Status.CANCELLED and by is not None and by.pk != booking.user_id:
        event, subject = "booking_cancelled", f"Your booking of {court} was cancelled by the club"
    else:
        return
    _tell_owner(
        booking,
        event=event,
        subject=subject,
        reason=reason,
        from_status=from_status,
        slots_blocked=slots_blocked,
    )


def remind(now: datetime | None = None) -> int:
    """The optional reminders: before an approved booking's payment is due, and the day before a
    confirmed booking. Answers how many were sent."""
    now = now or timezone.now()
    hours = timedelta(hours=1)
    lead = hours * settings.NOTIFY_PAYMENT_REMINDER_HOURS
    payment_due = Booking.objects.filter(
        status=Status.APPROVED,
        payment_due_at__lte=now + lead,
        # Not a checkout hold shorter than the reminder's lead (instant booking): that one is paid now.
        payment_due_at__gt=F("approved_at") + lead,
    ).exclude(overdue(now))
    tomorrow = Booking.objects.filter(
        status=Status.CONFIRMED,
        starts_at__gt=now,
        starts_at__lte=now + hours * settings.NOTIFY_BOOKING_REMINDER_HOURS,
    )
    about = Concat(Value(ABOUT), Cast("pk", CharField()))
    count = 0
    for event, bookings in (("payment_reminder", payment_due), ("booking_reminder", tomorrow)):
        # Those this event has not told yet, so that no run renders a message twice.
        bookings = bookings.annotate(about=about).exclude(about__in=told_about(event=event))
        for booking in bookings.select_related("user"):
            subject = (
                f"Reminder: pay for {booking.court_name} by {when(booking.payment_deadline)}"
                if event == "payment_reminder"
                else f"Reminder: {booking.court_name} at {when(booking.starts_at)}"
            )
            count += _tell_owner(booking, event=event, subject=subject, optional="reminders")
    return count


@task
def send_reminders() -> int:
    """Periodic (settings.PERIODIC_TASKS)."""
    return remind()


def waitlist_offered(entry: WaitlistEntry, *, book_path: str) -> None:
    """To the first in line for a slot that freed: it is held for them, to book at `book_path`."""
    court_name = entry.court.label
    notify(
        event="waitlist_offer",
        recipient=entry.user,
        about=f"waitlist:{entry.pk}",
        subject=f"{court_name} is free on {day(entry.date)} at {slots_label(entry.slot)}: "
        f"held for you until {when(entry.offer_expires_at)}",
        template="waitlist_offer",
        context={
            "entry": entry,
            "court_name": court_name,
            "book_url": absolute_url(book_path),
            "waitlist_url": absolute_url(reverse("bookings:waitlist")),
        },
    )
