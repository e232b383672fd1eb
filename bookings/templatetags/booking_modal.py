from django import template
from django.urls import reverse

from bookings.slots import NO_SLOTS_CHOSEN, bookable_dates

register = template.Library()


@register.simple_tag(takes_context=True)
def booking_modal_props(context, courts) -> dict:
    """The booking modal island's props for a page of courts: the courts (each slot's price on a
    day comes with its availability), the dates open to booking, and the refusal of a request
    without slots, said before asking. A tag, so that the courts page
    shows the modal without the courts app knowing the bookings app."""
    first, last = bookable_dates(context["request"].user)
    return {
        "userEmail": context["request"].user.email,
        "minDate": first.isoformat(),
        "maxDate": last.isoformat(),
        "bookingsUrl": reverse("api-bookings"),
        "noSlotsMessage": NO_SLOTS_CHOSEN,
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
