from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone

from accounts.models import User
from memberships.models import Membership, Plan
from memberships.services import membership_open, membership_period_paid, plan_create


def make_plan(**fields: Any) -> Plan:
    """A yearly plan with a long name and a benefit of each kind (`fields` change any of it)."""
    return plan_create(
        **{
            "name": "Premium Year With A Long Name",
            "price": Decimal("480.00"),
            "period": "yearly",
            "renews_automatically": True,
            "member_price_kind": "percent",
            "member_price_value": Decimal("25"),
            "booking_window_days": 60,
            "hours_per_week": 10,
            "peak_hours_per_week": 4,
            "members_only_hours": True,
            **fields,
        }
    )


def make_membership(*, user: User, plan: Plan | None = None, days: int = 30) -> Membership:
    """`user`'s membership of `plan` (make_plan's by default), its first period of `days` paid now."""
    membership = membership_open(user=user, plan=plan or make_plan())
    now = timezone.now()
    return membership_period_paid(
        membership_id=membership.pk, period_start=now, period_end=now + timedelta(days=days), reason="Paid."
    )
