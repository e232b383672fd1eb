from django.conf import settings
from django.shortcuts import render
from django.urls import reverse

from accounts.guards import admin_required
from club.dashboard import island_page
from club.pagination import page_of

from .selectors import court_list as open_courts
from .serializers import CourtOutput


def court_list(request):
    page = page_of(request, open_courts(), settings.COURTS_PER_PAGE)
    return render(request, "courts/court_list.html", {"page": page})


@admin_required
def manage(request):
    """Manage Courts: the courts-admin island edits the list through the court API."""
    props = {"courts": CourtOutput(open_courts(), many=True).data, "createUrl": reverse("api-courts")}
    return island_page(request, heading="Manage Courts", island="courts-admin", props=props)
