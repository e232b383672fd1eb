"""Stripe's clock, for the memberships that renew at localstripe. localstripe has no clock of its
own: a subscription's period never ends there by itself. This page ends one now, as Stripe does
when a period ends (a test clock advanced): the subscription renews, charging the card on file, or
a declined card in its place (scripts/localstripe_server.py); then the membership is brought up to
date at once, as the webhook localstripe sends a second later would do again (both are idempotent)."""

import requests
from django.conf import settings
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from kernel.days import when
from memberships.models import Membership
from payments import gateway
from payments.membership_payments import subscription_sync

# The memberships whose period can end: paid for (one awaiting its first payment has no period yet).
BEGUN = (Membership.Status.ACTIVE, Membership.Status.PAST_DUE)


def _renewing():
    """The begun memberships with a Stripe subscription, the soonest to renew first."""
    return (
        Membership.objects.filter(status__in=BEGUN, stripe_subscription_id__isnull=False)
        .select_related("user", "plan")
        .order_by("period_end", "pk")
    )


def stripe_clock(request):
    return render(request, "local/stripe_clock.html", {"memberships": _renewing()})


@require_POST
def stripe_clock_renew(request, membership_id: int):
    """Renews the membership's subscription at localstripe now (`fail`: with a declined card)."""
    membership = get_object_or_404(_renewing(), pk=membership_id)
    subscription_id = str(membership.stripe_subscription_id)
    declined = request.POST.get("fail") == "true"
    try:
        answer = requests.post(
            f"{settings.STRIPE_API_BASE}/_config/subscriptions/{subscription_id}/renew",
            data={"fail": str(declined).lower()},
            timeout=settings.PROVIDER_TIMEOUT,
        )
    except requests.RequestException as error:
        messages.error(request, f"localstripe did not answer: {error}")
        return redirect("local-stripe-clock")
    if not answer.ok:
        messages.error(request, f"localstripe refused to renew {subscription_id}: {_refusal(answer)}")
        return redirect("local-stripe-clock")
    try:
        membership = subscription_sync(subscription_id=subscription_id) or membership
    except gateway.PaymentProviderUnavailable as error:
        messages.error(request, f"Renewed at localstripe, but not yet recorded here: {error}")
        return redirect("local-stripe-clock")
    messages.success(request, _outcome(membership))
    return redirect("local-stripe-clock")


def _refusal(answer: requests.Response) -> str:
    """localstripe's reason, as Stripe words its errors ({"error": {"message": …}})."""
    if answer.status_code == 404:  # localstripe says only "Not Found"
        return "it knows no such subscription (its data was cleared since the membership was bought)"
    try:
        return str(answer.json()["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return f"HTTP {answer.status_code}"


def _outcome(membership: Membership) -> str:
    whose = f"The {membership.plan} membership of {membership.user.name or membership.user.email}"
    if membership.status == Membership.Status.ACTIVE:
        return f"{whose} is renewed: paid until {when(membership.period_end)}."
    if membership.status == Membership.Status.PAST_DUE:
        return (
            f"{whose} could not be renewed: past due, its benefits kept until {when(membership.grace_until)}."
        )
    return f"{whose} has ended ({membership.get_status_display().lower()})."
