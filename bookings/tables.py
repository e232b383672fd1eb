"""The columns of the booking list pages, declared as data: each page names the ones it shows, in
order, and bookings/_table.html renders whatever it is given."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from django.utils.html import format_html
from django.utils.timesince import timeuntil

from kernel.days import day, when
from kernel.money import money
from kernel.people import person
from kernel.slots import slots_html

from .models import Booking

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from .selectors import Paid, ShownStatus


@dataclass(frozen=True)
class Column:
    label: str
    # The cell, from the booking and its number in the list (from 1): escaped unless marked safe.
    # The booking has what the page's selectors added (with_payment, with_shown_status, …).
    cell: Callable[[Any, int], object]
    # A column of buttons names itself only to screen readers.
    label_hidden: bool = False


# A colour per status, and its name in words beside it: the colour is never the only sign.
BADGES: dict[str, str] = {
    Booking.Status.PENDING: "badge-warning",
    Booking.Status.APPROVED: "badge-info",
    Booking.Status.CONFIRMED: "badge-success",
    Booking.Status.REJECTED: "badge-error",
    Booking.Status.CANCELLED: "badge-neutral",
    Booking.Status.EXPIRED: "badge-neutral",
}


def status_badge(status: str) -> str:
    label = Booking.Status(status).label
    return format_html('<span class="badge {} whitespace-nowrap">{}</span>', BADGES[status], label)


def deadline(moment: datetime | None) -> str:
    return f"{when(moment)} (in {timeuntil(moment)})" if moment else ""


def _court_link(booking: Booking) -> str:
    return format_html(
        '<a class="link" href="{}">{}</a>', reverse("bookings:detail", args=[booking.pk]), booking.court_name
    )


def _paid(booking: "WithAnnotations[Booking, Paid]") -> str:
    """What was paid (selectors.with_payment), and the list price and coupon when they differ."""
    amount = getattr(booking, "paid_amount", None)
    if amount is None:
        return "—"
    if amount == booking.price and not booking.paid_coupon:
        return f"${money(amount)}"
    coupon = f" · {booking.paid_coupon} ({booking.paid_discount}% off)" if booking.paid_coupon else ""
    return format_html(
        '${}<span class="block text-xs text-base-content/70">list price ${}{}</span>',
        money(amount),
        money(booking.price),
        coupon,
    )


def _note(booking: "WithAnnotations[Booking, ShownStatus]") -> str:
    """What the owner needs to know beside the status: the admin's reason (a rejection, or a
    cancellation by the club), or the payment deadline; to a player, whose booking it is."""
    if getattr(booking, "played", False):  # someone else's booking, which they play in
        return f"You play: {booking.user.public_name} organises it."
    status = getattr(booking, "shown_status", booking.status)
    if status == Booking.Status.REJECTED:
        return booking.reason or "No reason given."
    by_the_club = booking.changed_by_id not in (None, booking.user_id)
    if status == Booking.Status.CANCELLED and by_the_club:
        return f"Cancelled by the club: {booking.reason}" if booking.reason else "Cancelled by the club."
    if status == Booking.Status.APPROVED:
        return f"Pay by {deadline(booking.payment_deadline)}"
    return ""


def _pay_link(booking: Booking) -> str:
    url = reverse("payments:pay", args=[booking.pk])
    return format_html('<a class="btn btn-sm btn-primary" href="{}">Pay</a>', url)


def _calendar_link(booking: Booking) -> str:
    url = reverse("bookings:calendar", args=[booking.pk])
    return format_html('<a class="btn btn-sm whitespace-nowrap" href="{}" download>Add to calendar</a>', url)


# Every column, by the name the pages give it.
COLUMNS = {
    "number": Column("#", lambda booking, number: number),
    "user": Column("User", lambda booking, number: person(booking.user.name, booking.user.email)),
    "court": Column("Court", lambda booking, number: booking.court_name),
    "date": Column("Date", lambda booking, number: day(booking.date)),
    "slots": Column("Slot", lambda booking, number: slots_html(booking.slots)),
    "email": Column("Email", lambda booking, number: person(booking.user.name, booking.user.email)),
    "price": Column("Price", lambda booking, number: f"${money(booking.price)}"),
    "status": Column(
        "Status", lambda booking, number: status_badge(getattr(booking, "shown_status", booking.status))
    ),
    "pay_by": Column("Pay by", lambda booking, number: deadline(booking.payment_deadline)),
    "court_link": Column("Court", lambda booking, number: _court_link(booking)),
    "paid": Column("Paid", lambda booking, number: _paid(booking)),
    "changed": Column("Updated", lambda booking, number: when(booking.changed_at)),
    "note": Column("Note", lambda booking, number: _note(booking)),
    "pay": Column("Pay", lambda booking, number: _pay_link(booking), label_hidden=True),
    "add_to_calendar": Column(
        "Add to calendar", lambda booking, number: _calendar_link(booking), label_hidden=True
    ),
}
