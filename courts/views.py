from django.conf import settings
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse

from accounts.guards import admin_required
from club.dashboard import island_page
from club.pagination import page_of

from .selectors import court_list as open_courts
from .selectors import courts_for_admin, with_price_bands
from .serializers import CourtAdminOutput

# Shown instead of a court's image that fails to load (an address that no longer answers).
COURT_IMAGE_PLACEHOLDER = "img/courts/placeholder.svg"


def court_list(request):
    page = page_of(request, with_price_bands(open_courts()), settings.COURTS_PER_PAGE)
    context = {"page": page, "image_placeholder": static(COURT_IMAGE_PLACEHOLDER)}
    return render(request, "courts/court_list.html", context)


@admin_required
def manage(request):
    """Manage Courts: the courts-admin island edits the list through the court API, and lists the
    archived courts to restore."""
    props = {
        "courts": CourtAdminOutput(courts_for_admin(archived=False), many=True).data,
        "archived": CourtAdminOutput(courts_for_admin(archived=True), many=True).data,
        "createUrl": reverse("api-courts"),
        "imagePlaceholder": static(COURT_IMAGE_PLACEHOLDER),
    }
    return island_page(request, heading="Manage Courts", island="courts-admin", props=props)
