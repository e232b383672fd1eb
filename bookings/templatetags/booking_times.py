"""A booking's status, payment deadline and actions, as every booking page writes them
(bookings/tables.py); moments and days themselves come from club_time."""

from typing import Any

from django import template
from django.urls import reverse

from bookings.tables import deadline, status_badge
from kernel.money import money

register = template.Library()
register.filter("deadline", deadline)
register.filter("status_badge", status_badge)


@register.filter
def booking_action(booking: Any, action: str) -> dict[str, str]:
    """The props of the booking-action island for one booking and action; cancelling a paid one
    says what comes back (the booking `with_payment` and `with_refund_percent`, hence Any)."""
    # The island's (frontend/src/islands/booking-action.tsx) actions: cancel-*, approve, reject.
    name = "api-booking" if action.startswith("cancel-") else f"api-booking-{action}"
    props = {"action": action, "url": reverse(name, args=[booking.pk])}
    if action == "cancel-confirmed":
        props["refund"] = (
            f"{booking.refund_percent}% of the ${money(booking.paid_amount)} paid is refunded to the card."
            if booking.paid_amount
            else "Nothing was paid for it, so nothing is refunded."
        )
    return props
