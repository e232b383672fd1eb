"""Membership plans, written (Membership Plans, the API and Django admin), each change audited."""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from audit.services import audited_create, audited_delete, audited_update
from kernel.api import camel_case

from .models import NAME_TAKEN, Plan

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
    audited_delete(plan, by=by, action="plan.delete", summary=f"Deleted plan {plan}", audited=PLAN_AUDITED)
