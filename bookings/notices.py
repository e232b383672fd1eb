"""What the bookings tell people by e-mail. Each function runs in the transaction of the change it
tells of (notifications.services.notify records the message there, once)."""

from datetime import timedelta

from django.conf import settings
from django.urls import reverse

from accounts.models import User
from club.templatetags.club_time import when
from notifications.services import absolute_url, notify, notify_batched

from .models import Booking
from .selectors import overdue

Status = Booking.Status
# How many of the waiting requests the admins' e-mail lists (the page has them all).
WAITING_LISTED = 10


def _about(booking: Booking) -> str:
    return f"booking:{booking.pk}"


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
