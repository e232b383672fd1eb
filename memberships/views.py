from django.urls import reverse

from accounts.guards import admin_required
from kernel.bounds import input_bounds
from kernel.pages import island_page

from .selectors import plan_list
from .serializers import PlanInput, PlanOutput


@admin_required
def membership_plans(request):
    props = {
        "plans": PlanOutput(plan_list(viewer=request.user), many=True).data,
        "createUrl": reverse("api-plans"),
        "bounds": input_bounds(PlanInput()),
    }
    return island_page(request, heading="Membership Plans", island="plans-admin", props=props)
