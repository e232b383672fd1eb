"""The booking rules one person is held to (docs/rules.md, Member prices and limits): the club's
policy, with each limit that the membership plan they hold sets in place of the policy's, the
plan's member prices and its members-only hours."""

from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from courts.pricing import PriceFor
from memberships.models import Plan
from memberships.selectors import plan_in_force

from .models import Policy
from .selectors import policy_get


class Limit(NamedTuple):
    """One limit on a person, and the plan that sets it (None: the policy's, or no limit)."""

    value: int | None
    plan: Plan | None

    def holds(self, name: str = "") -> str:
        """The start of a refusal that names who set the limit: "Your Club plan lets you hold 4", or
        for someone else named `name`, "Mia Park's Club plan lets them hold 4"."""
        if self.plan is not None and name:
            return f"{name}'s {self.plan.name} plan lets them hold {self.value:g}"
        if self.plan is not None:
            return f"Your {self.plan.name} plan lets you hold {self.value:g}"
        return f"{name or 'You'} may hold at most {self.value:g}"


class PersonRules:
    """What `user` may book, holding `plan` (None: no plan in force): each limit the plan sets
    replaces the policy's; hours a week and peak hours a week are a plan's alone."""

    def __init__(self, user: User | AnonymousUser, *, plan: Plan | None, policy: Policy | None = None):
        self.user = user
        self.plan = plan
        self._policy = policy

    @cached_property
    def policy(self) -> Policy:
        """Read when first needed: an admin's day sheet needs none."""
        return self._policy or policy_get()

    @property
    def is_admin(self) -> bool:
        return isinstance(self.user, User) and self.user.is_admin

    def _plans_else(self, field: str, policys: Callable[[Policy], int | None]) -> Limit:
        """The plan's limit `field` if it sets it, else the policy's (`policys` of it)."""
        if self.plan is not None and (value := getattr(self.plan, field)) is not None:
            return Limit(value, self.plan)
        return Limit(policys(self.policy), None)

    @property
    def window(self) -> Limit:
        """How many days ahead the person may book: their plan's, else their role's (Policy)."""
        return self._plans_else("booking_window_days", lambda policy: policy.advance_days(self.user))

    @property
    def open_bookings(self) -> Limit:
        return self._plans_else("open_bookings_limit", attrgetter("open_bookings_limit"))

    @property
    def hours_a_day(self) -> Limit:
        return self._plans_else("hours_per_day", attrgetter("daily_hours_limit"))

    @property
    def unpaid_hours_a_day(self) -> Limit:
        """Hours of open bookings a day: the policy's alone, for everyone."""
        return Limit(self.policy.daily_open_hours_limit, None)

    @property
    def unpaid_hours_a_week(self) -> Limit:
        return Limit(self.policy.weekly_open_hours_limit, None)

    @property
    def hours_a_week(self) -> Limit:
        """A plan's alone: without one, no limit."""
        return self._plans_else("hours_per_week", lambda policy: None)

    @property
    def peak_hours_a_week(self) -> Limit:
        return self._plans_else("peak_hours_per_week", lambda policy: None)

    @property
    def members_only_hours(self) -> bool:
        """Whether the person may book the slots of members-only price bands: admins, and the
        holders of a plan that gives them."""
        return self.is_admin or (self.plan is not None and self.plan.members_only_hours)

    @property
    def price_for(self) -> PriceFor | None:
        """What the person pays for a slot of a price (courts.pricing): their plan's member price."""
        if self.plan is None or self.plan.member_price_kind == Plan.MemberPriceKind.NONE:
            return None
        return self.plan.slot_price


def rules_for(
    user: User | AnonymousUser, *, policy: Policy | None = None, now: datetime | None = None
) -> PersonRules:
    """The rules of `user` at `now`, with the plan they hold then (one query; none for a visitor)."""
    plan = plan_in_force(user=user, now=now) if isinstance(user, User) else None
    return PersonRules(user, plan=plan, policy=policy)
