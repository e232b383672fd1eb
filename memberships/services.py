"""Membership plans, written (Membership Plans, the API and Django admin), each change audited;
and memberships, moved through their states by what Stripe answers (payments owns the talking to
Stripe and calls these) and by the calendar (the worker)."""

from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.tasks import task
from django.utils import timezone

from accounts.models import User
from accounts.services import user_make_member, user_unmake_member
from audit.services import audited_create, audited_delete, audited_update
from kernel.api import camel_case
from kernel.errors import Conflict

from . import notices
from .models import NAME_TAKEN, Membership, Plan

# A membership not paid for a day after it was started was given up (its payment, if made later,
# finds it ended and is refunded).
ABANDONED_AFTER = timedelta(days=1)
PLAN_IN_USE = (
    "People hold or have held this plan, so it is kept with their memberships: take it off sale instead."
)

# A plan's values as the audit trail keeps them (and as Django admin edits them).
PLAN_AUDITED = [
    "name",
    "description",
    "price",
    "period",
    "season_starts_on",
    "season_ends_on",
    "renews_automatically",
    "on_sale",
    "member_price_kind",
    "member_price_value",
    "booking_window_days",
    "open_bookings_limit",
    "hours_per_day",
    "hours_per_week",
    "peak_hours_per_week",
    "members_only_hours",
]


def _save_plan(plan: Plan) -> Plan:
    """Validates the plan (Plan.clean: the season's dates, renewal, the member price; each field's
    bounds) and saves it; one message per field, keyed by the API's names."""
    try:
        # The table's constraints say again what Plan.clean says under each field.
        plan.full_clean(validate_constraints=False)
    except ValidationError as error:
        refusals = {camel_case(name): messages[0] for name, messages in error.message_dict.items()}
        raise ValidationError(refusals) from error
    try:
        with transaction.atomic():
            plan.save()
    except IntegrityError as error:  # the same name saved concurrently
        raise ValidationError({"name": NAME_TAKEN}) from error
    return plan


@transaction.atomic
def plan_create(*, by: User | None = None, **fields: Any) -> Plan:
    """A new plan of `fields` (Plan's: name, price and period at least)."""
    return audited_create(
        Plan(**fields),
        by=by,
        action="plan.create",
        summary=lambda plan: f"Added plan {plan}",
        audited=PLAN_AUDITED,
        save=_save_plan,
    )


@transaction.atomic
def plan_update(*, plan: Plan, by: User | None = None, **fields: Any) -> Plan:
    return audited_update(
        plan,
        by=by,
        action="plan.update",
        changes=fields,
        summary=lambda before, after: f"Changed plan {plan}",
        audited=PLAN_AUDITED,
        save=_save_plan,
    )


@transaction.atomic
def plan_delete(*, plan: Plan, by: User | None = None) -> None:
    """Deletes a plan nobody has bought; one in use is a Conflict (its memberships keep it)."""
    Plan.objects.select_for_update().filter(pk=plan.pk).first()
    if plan.memberships.exists():
        raise Conflict(PLAN_IN_USE)
    audited_delete(plan, by=by, action="plan.delete", summary=f"Deleted plan {plan}", audited=PLAN_AUDITED)


def membership_open(*, user: User, plan: Plan) -> Membership:
    """The person's membership of `plan`, awaiting its first payment: the one they started already,
    or a new one (one started for another plan is given up). Someone holding a membership, or a plan
    off sale, is refused."""
    if not plan.on_sale:
        raise Conflict(f"The {plan} plan is not on sale.")
    with transaction.atomic():
        User.objects.select_for_update().only("pk").get(pk=user.pk)
        current = (
            Membership.objects.filter(user=user, status__in=Membership.LIVE).select_related("plan").first()
        )
        if current is not None and current.status != Membership.Status.PENDING:
            raise Conflict(
                f"You hold the {current.plan} membership already ({current.get_status_display().lower()})."
            )
        if current is not None and (current.plan_id, current.price) == (plan.pk, plan.price):
            return current
        if current is not None:
            current.move(
                Membership.Status.EXPIRED,
                note={"reason": f"Given up for the {plan} plan."},
                ended_at=timezone.now(),
            )
        return Membership.objects.create(
            user=user, plan=plan, renews=plan.renews_automatically, price=plan.price
        )


@transaction.atomic
def membership_period_paid(
    *, membership_id: int, period_start: datetime, period_end: datetime, reason: str
) -> Membership:
    """A period of the membership is paid, until `period_end`: it is active until then, its holder a
    member. A payment heard of again, or after a later one, moves nothing back; one for a membership
    ended meanwhile is a Conflict (the payment is not kept)."""
    membership = Membership.objects.select_for_update().select_related("user", "plan").get(pk=membership_id)
    if membership.status not in Membership.LIVE:
        raise Conflict(
            f"This membership is {membership.get_status_display().lower()}: its payment is refunded."
        )
    first = membership.started_at is None
    if membership.period_end is None or period_end > membership.period_end:
        membership.period_start, membership.period_end = period_start, period_end
        membership.save(update_fields=["period_start", "period_end"])
    if membership.status in (Membership.Status.PENDING, Membership.Status.PAST_DUE):
        membership.move(
            Membership.Status.ACTIVE,
            locked=True,
            note={"reason": reason},
            grace_until=None,
            started_at=membership.started_at or timezone.now(),
        )
        user_make_member(user=membership.user, since=membership.started_at or timezone.now())
        if first:
            notices.welcome(membership)
    return membership


@transaction.atomic
def membership_renewal_failed(*, membership_id: int, grace_until: datetime, reason: str) -> Membership:
    """A renewal's payment failed: past due, its benefits kept until `grace_until`."""
    membership = Membership.objects.select_for_update().get(pk=membership_id)
    if membership.status == Membership.Status.ACTIVE:
        membership.move(
            Membership.Status.PAST_DUE, locked=True, note={"reason": reason}, grace_until=grace_until
        )
    return membership


@transaction.atomic
def membership_cancel_at_period_end(*, membership_id: int, cancel: bool = True) -> Membership:
    """Its holder asks to end the membership when its period ends (or, `cancel` False, takes that back)."""
    membership = Membership.objects.select_for_update().get(pk=membership_id)
    if membership.status not in (Membership.Status.ACTIVE, Membership.Status.PAST_DUE):
        raise Conflict(
            f"This membership is {membership.get_status_display().lower()}: there is nothing to end."
        )
    membership.cancel_at_period_end = cancel
    membership.save(update_fields=["cancel_at_period_end"])
    return membership


@transaction.atomic
def membership_end(*, membership_id: int, reason: str, now: datetime | None = None) -> Membership:
    """Ends a live membership: cancelled when its holder asked for it, else expired. Its holder goes
    back to being a user, told by e-mail once it had begun."""
    membership = Membership.objects.select_for_update().select_related("user", "plan").get(pk=membership_id)
    if membership.status not in Membership.LIVE:
        return membership
    began = membership.status != Membership.Status.PENDING
    ended = (
        Membership.Status.CANCELLED
        if membership.cancel_at_period_end and began
        else Membership.Status.EXPIRED
    )
    membership.move(ended, locked=True, note={"reason": reason}, ended_at=now or timezone.now())
    if began:
        user_unmake_member(user=membership.user)
        notices.ended(membership)
    return membership


def memberships_end_lapsed(*, now: datetime | None = None) -> int:
    """Ends the memberships that do not renew by themselves whose period is over (a one-off period or a
    season), and those given up before their first payment for a day. Answers how many ended."""
    now = now or timezone.now()
    lapsed = Membership.objects.filter(status=Membership.Status.ACTIVE, renews=False, period_end__lte=now)
    abandoned = Membership.objects.filter(
        status=Membership.Status.PENDING, created_at__lte=now - ABANDONED_AFTER
    )
    ended = [
        membership_end(membership_id=membership_id, reason=reason, now=now)
        for rows, reason in ((lapsed, "Its period is over."), (abandoned, "Its first period was never paid."))
        for membership_id in rows.values_list("pk", flat=True)
    ]
    return len(ended)


@task
def end_lapsed_memberships() -> int:
    return memberships_end_lapsed()
