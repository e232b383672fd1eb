from django import template
from django.urls import reverse

register = template.Library()

# Each action of the booking-action island (frontend/src/islands/booking-action.tsx) and its API call.
API_URL_NAMES = {
    "cancel-pending": "api-booking",
    "cancel-approved": "api-booking",
    "approve": "api-booking-approve",
    "reject": "api-booking-reject",
}


@register.filter
def booking_action(booking, action: str) -> dict:
    """The props of the booking-action island for one booking and action."""
    return {"action": action, "url": reverse(API_URL_NAMES[action], args=[booking.pk])}
