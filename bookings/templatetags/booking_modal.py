from django import template
from django.urls import reverse

from bookings.slots import bookable_dates

register = template.Library()


@register.simple_tag(takes_context=True)
def booking_modal_props(context, courts) -> dict:
    """The booking modal island's props for a page of courts: the courts (each slot's price on a
    day comes with its availability), and the dates open to booking. A tag, so that the courts page
    shows the modal without the courts app knowing the bookings app."""
    first, last = bookable_dates(context["request"].user)
    return {
        "userEmail": context["request"].user.email,
        "minDate": first.isoformat(),
        "maxDate": last.isoformat(),
        "bookingsUrl": reverse("api-bookings"),
        "courts": [
            {
                "id": court.pk,
                "name": court.name,
                "type": court.type,
                "price": str(court.price),
                "slots": court.slots,
                "availabilityUrl": reverse("api-court-availability", args=[court.pk]),
            }
            for court in courts
        ],
    }
