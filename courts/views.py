from django.shortcuts import render
from django.urls import reverse

from accounts.guards import admin_required
from club.dashboard import island_page

from .selectors import court_list as open_courts
from .selectors import court_page
from .serializers import CourtOutput


def court_list(request):
    page = court_page(page_number=request.GET.get("page"))
    context = {"page": page, "page_numbers": page.paginator.get_elided_page_range(page.number)}
    return render(request, "courts/court_list.html", context)


@admin_required
def manage(request):
    """Manage Courts: the courts-admin island edits the list through the court API."""
    props = {"courts": CourtOutput(open_courts(), many=True).data, "createUrl": reverse("api-courts")}
    return island_page(request, heading="Manage Courts", island="courts-admin", props=props)
