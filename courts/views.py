from django.templatetags.static import static
from django.urls import reverse

from accounts.guards import admin_required
from kernel.bounds import input_bounds
from kernel.pages import island_page

from .models import COURT_IMAGE_PLACEHOLDER
from .selectors import courts_for_admin
from .serializers import CourtAdminOutput, CourtInput, PriceBandInput


@admin_required
def manage(request):
    props = {
        "courts": CourtAdminOutput(courts_for_admin(archived=False), many=True).data,
        "archived": CourtAdminOutput(courts_for_admin(archived=True), many=True).data,
        "createUrl": reverse("api-courts"),
        "imagePlaceholder": static(COURT_IMAGE_PLACEHOLDER),
        "bounds": input_bounds(CourtInput()),
        "bandBounds": input_bounds(PriceBandInput()),
    }
    return island_page(request, heading="Manage Courts", island="courts-admin", props=props)
