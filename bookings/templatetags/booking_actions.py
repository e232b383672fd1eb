from django import template
from django.urls import reverse

from kernel.money import money

register = template.Library()

# Each action of the booking-action island (frontend/src/islands/booking-action.tsx) and its API call.
API_URL_NAMES = {
    "cancel-pending": "api-booking",
    "cancel-approved": "api-booking",
    "cancel-confirmed": "api-booking",
    "approve": "api-booking-approve",
    "reject": "api-booking-reject",
}


@register.filter
def booking_action(booking, action: str) -> dict:
    """The props of the booking-action island for one booking and action; cancelling a paid one
    says what comes back (the booking `with_payment` and `with_refund_percent`)."""
    props = {"action": action, "url": reverse(API_URL_NAMES[action], args=[booking.pk])}
    if action == "cancel-confirmed":
        props["refund"] = (
            f"{booking.refund_percent}% of the ${money(booking.paid_amount)} paid is refunded to the card."
            if booking.paid_amount
            else "Nothing was paid for it, so nothing is refunded."
        )
    return props
