"""What memberships tell their holders by e-mail, in the transaction of the change they tell of. The
receipt of each period and a failed renewal's notice are the payments' (payments.notices)."""

from datetime import datetime, timedelta

from django.db.models import CharField, Value
from django.db.models.functions import Cast, Concat
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from kernel.days import day
from notifications.selectors import told_about
from notifications.services import absolute_url, notify

from .models import Membership, Plan

# A yearly renewal is announced this long before it is charged.
RENEWAL_NOTICE = timedelta(days=7)


def _tell(membership: Membership, *, event: str, about: str, subject: str, optional: str = "") -> bool:
    return (
        notify(
            event=event,
            recipient=membership.user,
            about=about,
            subject=subject,
            template=event,
            context={
                "membership": membership,
                "membership_url": absolute_url(reverse("memberships:membership")),
            },
            optional=optional,
        )
        is not None
    )


def welcome(membership: Membership) -> None:
    _tell(
        membership,
        event="membership_welcome",
        about=f"membership:{membership.pk}",
        subject=f"Welcome to the club: your {membership.plan} membership",
    )


def ended(membership: Membership) -> None:
    _tell(
        membership,
        event="membership_ended",
        about=f"membership:{membership.pk}",
        subject=f"Your {membership.plan} membership has ended",
    )


def remind_renewals(now: datetime | None = None) -> int:
    """Tells the holders of yearly memberships renewing within RENEWAL_NOTICE what they will be
    charged and when, once per renewal. Answers how many were told."""
    now = now or timezone.now()
    renewing = Membership.objects.filter(
        status=Membership.Status.ACTIVE,
        renews=True,
        cancel_at_period_end=False,
        plan__period=Plan.Period.YEARLY,
        period_end__gt=now,
        period_end__lte=now + RENEWAL_NOTICE,
    ).select_related("user", "plan")
    about = Concat(Value("membership:"), Cast("pk", CharField()), Value(":"), Cast("period_end", CharField()))
    told = renewing.annotate(about=about).exclude(about__in=told_about(event="membership_renewal"))
    return sum(
        _tell(
            membership,
            event="membership_renewal",
            about=membership.about,
            subject=f"Your {membership.plan} membership renews on {day(membership.period_end)}",
        )
        for membership in told
    )


@task
def send_renewal_reminders() -> int:
    return remind_renewals()
