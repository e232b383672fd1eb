from decimal import Decimal
from typing import Any

from memberships.models import Plan
from memberships.services import plan_create


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
