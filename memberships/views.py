from decimal import Decimal
from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from accounts.guards import admin_required, login_required
from accounts.models import User
from accounts.selectors import user_list
from kernel.bounds import input_bounds
from kernel.days import when
from kernel.pages import island_page
from kernel.pagination import island_first_page

from .models import Membership
from .selectors import membership_current, people_with_memberships, plan_list
from .serializers import MemberWithMembershipOutput, PlanInput, PlanOutput, UserWithMembershipOutput


def membership(request):
    """The plans on sale, what each gives, and the visitor's own membership if they hold one."""
    current = membership_current(user=request.user) if request.user.is_authenticated else None
    context = {"plans": plan_list(viewer=request.user, on_sale=True), "membership": current}
    renewing = current is not None and current.renews and not current.cancel_at_period_end
    if renewing and current.status != Membership.Status.PENDING:
        context["cancel_props"] = {
            "url": reverse("api-membership-cancel"),
            "endsOn": when(current.period_end),
        }
    return render(request, "memberships/membership.html", context)


def _card_form(request, *, price: Decimal, intent_url: str, intent_body: dict[str, Any]) -> dict[str, Any]:
    """The context of a page that pays for a membership with the card form (the payment island)."""
    props = {
        "price": str(price),
        "userEmail": request.user.email,
        "publishableKey": settings.STRIPE_PUBLISHABLE_KEY,
        "intentUrl": intent_url,
        "intentBody": intent_body,
        "saveUrl": reverse("api-save-payment"),
        "doneUrl": reverse("memberships:membership"),
    }
    return {"island_props": props, "local_stripe": settings.LOCAL_MODE and settings.STRIPE_API_BASE}


@login_required
def join(request, plan_id: int):
    """Paying for a plan's first period, by card."""
    plan = get_object_or_404(plan_list(viewer=request.user, on_sale=True), pk=plan_id)
    form = _card_form(
        request,
        price=plan.price,
        intent_url=reverse("api-membership-checkout"),
        intent_body={"planId": plan.pk},
    )
    return render(request, "memberships/join.html", {"plan": plan, **form})


@login_required
def renew(request):
    """Paying a past-due membership's renewal with another card (the renewal's e-mail links here);
    anyone else is sent to their membership page."""
    membership = membership_current(user=request.user)
    if membership is None or membership.status != Membership.Status.PAST_DUE:
        return redirect("memberships:membership")
    form = _card_form(
        request, price=membership.price, intent_url=reverse("api-membership-renewal"), intent_body={}
    )
    return render(request, "memberships/renew.html", {"membership": membership, **form})


@admin_required
def membership_plans(request):
    props = {
        "plans": PlanOutput(plan_list(viewer=request.user), many=True).data,
        "createUrl": reverse("api-plans"),
        "bounds": input_bounds(PlanInput()),
    }
    return island_page(request, heading="Membership Plans", island="plans-admin", props=props)


# The people lists show each person's membership, so they are memberships' pages (accounts, below
# memberships, cannot read it); their API lists are GET /api/users and GET /api/members.


@admin_required
def manage_users(request):
    people = people_with_memberships(user_list())
    props = island_first_page(people, UserWithMembershipOutput, reverse("api-users"))
    return island_page(request, heading="All Users", island="users-admin", props=props)


@admin_required
def manage_members(request):
    members = people_with_memberships(user_list(role=User.Role.MEMBER))
    props = island_first_page(members, MemberWithMembershipOutput, reverse("api-members"))
    return island_page(request, heading="Manage Members", island="members-admin", props=props)
