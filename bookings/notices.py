"""What the bookings tell people by e-mail. Each function runs in the transaction of the change it
tells of (notifications.services.notify records the message there, once)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import CharField, QuerySet, Value
from django.db.models.functions import Cast, Concat
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from club.templatetags.club_time import when
from notifications.selectors import told_about
from notifications.services import absolute_url, notify, notify_batched

from .models import Booking
from .selectors import overdue

Status = Booking.Status
# How many of the waiting requests the admins' e-mail lists (the page has them all).
WAITING_LISTED = 10


def _about(booking: Booking) -> str:
    return f"booking:{booking.pk}"


def not_yet_told(bookings: QuerySet[Booking], *, event: str) -> QuerySet[Booking]:
    """The bookings whose owner `event` has not told yet (so a periodic run renders no message twice)."""
    about = Concat(Value("booking:"), Cast("pk", CharField()))
    return bookings.annotate(about=about).exclude(about__in=told_about(event=event))


def _context(booking: Booking) -> dict:
    return {"booking": booking, "booking_url": absolute_url(reverse("bookings:detail", args=[booking.pk]))}


def requested(booking: Booking) -> None:
    """To the person: their request arrived. To every admin: the requests waiting, batched."""
    notify(
        event="booking_requested",
        recipient=booking.user,
        about=_about(booking),
        subject=f"Your request for {booking.court_name} is waiting for approval",
        template="booking_requested",
        context=_context(booking),
    )
    waiting = Booking.objects.filter(status=Status.PENDING).exclude(overdue()).select_related("user")
    count = waiting.count()
    context = {
        "count": count,
        "requests": waiting.order_by("-created_at", "-id")[:WAITING_LISTED],
        "approvals_url": absolute_url(reverse("bookings:manage-approval")),
    }
    subject = f"{count} booking request{'s' if count != 1 else ''} waiting for approval"
    for admin in User.objects.filter(role=User.Role.ADMIN).order_by("pk"):
        notify_batched(
            event="requests_waiting",
            recipient=admin,
            window=timedelta(minutes=settings.NOTIFY_ADMIN_MINUTES),
            subject=subject,
            template="requests_waiting",
            context=context,
        )


def status_changed(booking: Booking, *, from_status: str, by: User | None, reason: str) -> None:
    """To the owner, when an admin decides, the booking expires, or an admin cancels it. (A paid
    booking's message is the payment's receipt, sent by the payments.)"""
    context = {**_context(booking), "reason": reason, "from_status": from_status}
    if booking.status == Status.APPROVED:
        context["pay_url"] = absolute_url(reverse("payments:pay", args=[booking.pk]))
        message = (
            "booking_approved",
            f"Approved: pay for {booking.court_name} by {when(booking.payment_deadline)}",
        )
    elif booking.status == Status.REJECTED:
        message = ("booking_rejected", f"Your request for {booking.court_name} was not approved")
    elif booking.status == Status.EXPIRED:
        message = ("booking_expired", f"Your booking of {booking.court_name} has expired")
    elif booking.status == Status.CANCELLED and by is not None and by.pk != booking.user_id:
        message = ("booking_cancelled", f"Your booking of {booking.court_name} was cancelled by the club")
    else:
        return
    event, subject = message
    notify(
        event=event,
        recipient=booking.user,
        about=_about(booking),
        subject=subject,
        template=event,
        context=context,
    )


def remind(now: datetime | None = None) -> int:
    """The optional reminders (a person may turn them off): a few hours before an approved
    booking's payment is due, and the day before a confirmed booking. Answers how many were sent."""
    now = now or timezone.now()
    hours = timedelta(hours=1)
    payment_due = Booking.objects.filter(
        status=Status.APPROVED,
        approved_at__lte=now
        - hours * (settings.BOOKING_PAYMENT_WINDOW_HOURS - settings.NOTIFY_PAYMENT_REMINDER_HOURS),
    ).exclude(overdue(now))
    tomorrow = Booking.objects.filter(
        status=Status.CONFIRMED,
        starts_at__gt=now,
        starts_at__lte=now + hours * settings.NOTIFY_BOOKING_REMINDER_HOURS,
    )
    count = 0
    for event, bookings in (("payment_reminder", payment_due), ("booking_reminder", tomorrow)):
        for booking in not_yet_told(bookings, event=event).select_related("user"):
            context = _context(booking)
            if event == "payment_reminder":
                context["pay_url"] = absolute_url(reverse("payments:pay", args=[booking.pk]))
                subject = f"Reminder: pay for {booking.court_name} by {when(booking.payment_deadline)}"
            else:
                subject = f"Reminder: {booking.court_name} at {when(booking.starts_at)}"
            count += bool(
                notify(
                    event=event,
                    recipient=booking.user,
                    about=_about(booking),
                    subject=subject,
                    template=event,
                    context=context,
                    optional="reminders",
                )
            )
    return count
