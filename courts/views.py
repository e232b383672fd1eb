from django.shortcuts import render
from django.urls import reverse

from accounts.guards import admin_required
from bookings.services import bookable_dates
from club.dashboard import island_page

from .selectors import court_list as open_courts
from .selectors import court_page
from .serializers import CourtOutput


def court_list(request):
    page = court_page(page_number=request.GET.get("page"))
    context = {"page": page, "page_numbers": page.paginator.get_elided_page_range(page.number)}
    if request.user.is_authenticated:
        context["booking_props"] = _booking_props(request, page.object_list)
    return render(request, "courts/court_list.html", context)


def _booking_props(request, courts) -> dict:
    """The booking modal island's props: this page's courts and the dates open to booking."""
    first, last = bookable_dates()
    return {
        "userEmail": request.user.email,
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


@admin_required
def manage(request):
    """Manage Courts: the courts-admin island edits the list through the court API."""
    props = {"courts": CourtOutput(open_courts(), many=True).data, "createUrl": reverse("api-courts")}
    return island_page(request, heading="Manage Courts", island="courts-admin", props=props)
