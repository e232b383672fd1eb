from django.conf import settings
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from accounts.guards import admin_required, login_required
from kernel.bounds import input_bounds
from kernel.pages import island_page

from .selectors import membership_current, plan_list
from .serializers import PlanInput, PlanOutput


def membership(request):
    """The plans on sale, what each gives, and the visitor's own membership if they hold one."""
    current = membership_current(user=request.user) if request.user.is_authenticated else None
    context = {"plans": plan_list(viewer=request.user, on_sale=True), "membership": current}
    return render(request, "memberships/membership.html", context)


@login_required
def join(request, plan_id: int):
    """Paying for a plan's first period, by card (the payment island on the membership's terms)."""
    plan = get_object_or_404(plan_list(viewer=request.user, on_sale=True), pk=plan_id)
    props = {
        "price": str(plan.price),
        "userEmail": request.user.email,
        "publishableKey": settings.STRIPE_PUBLISHABLE_KEY,
        "intentUrl": reverse("api-membership-checkout"),
        "intentBody": {"planId": plan.pk},
        "saveUrl": reverse("api-save-payment"),
        "doneUrl": reverse("memberships:membership"),
    }
    local_stripe = settings.LOCAL_MODE and settings.STRIPE_API_BASE
    context = {"plan": plan, "island_props": props, "local_stripe": local_stripe}
    return render(request, "memberships/join.html", context)


@admin_required
def membership_plans(request):
    props = {
        "plans": PlanOutput(plan_list(viewer=request.user), many=True).data,
        "createUrl": reverse("api-plans"),
        "bounds": input_bounds(PlanInput()),
    }
    return island_page(request, heading="Membership Plans", island="plans-admin", props=props)
