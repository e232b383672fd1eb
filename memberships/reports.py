"""The memberships' figures for the admins (docs/rules.md, Reports): the members of each plan, those
who joined and those who left, month by month; and the renewals failing now (the dashboard)."""

from dataclasses import dataclass
from datetime import date, datetime
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db.models import Count, F, Q, QuerySet, Window

from kernel.days import day_start, moments, months_of

from .models import Membership

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


@dataclass(frozen=True)
class MembersMonth:
    """A month's memberships: those in force at some moment of it, by plan (in the order of
    Members.plans), and those that began and that ended in it."""

    by_plan: list[int]
    new: int
    ended: int

    @property
    def in_force(self) -> int:
        return sum(self.by_plan)


@dataclass(frozen=True)
class Members:
    """The plans held in a period, by name, and each month's memberships."""

    plans: list[str]
    months: dict[date, MembersMonth]


def members_by_month(*, date_from: date, date_to: date) -> Members:
    """Each month of the club's calendar from `date_from` to `date_to` (its days in the period): the
    memberships of each plan in force at any moment of it, and those begun and ended in it. A
    membership is in force from the moment its first period was paid (`started_at`) until it ended
    (`ended_at`): active, or past due within its grace. One never paid is none of these.

    One query, however many memberships: each month's three figures counted by plan."""
    start, end = cast(tuple[datetime, datetime], moments(date_from, date_to))
    months = months_of(date_from, date_to)
    bounds = [start, *(day_start(month) for month in months[1:]), end]
    counts: dict[str, Any] = {}
    for index, (first, after) in enumerate(pairwise(bounds)):
        counts |= {
            f"in_force_{index}": Count(
                "pk", filter=Q(started_at__lt=after) & (Q(ended_at=None) | Q(ended_at__gt=first))
            ),
            f"new_{index}": Count("pk", filter=Q(started_at__gte=first, started_at__lt=after)),
            f"ended_{index}": Count("pk", filter=Q(ended_at__gte=first, ended_at__lt=after)),
        }
    rows = Membership.objects.filter(Q(ended_at=None) | Q(ended_at__gte=start), started_at__lt=end)
    # Its figures are named by the month's index: rows the type checker cannot read from `counts`.
    by_plan = cast(
        list[dict[str, Any]],
        list(rows.values(plan_name=F("plan__name")).annotate(**counts).order_by("plan_name")),
    )
    return Members(
        plans=[row["plan_name"] for row in by_plan],
        months={
            month: MembersMonth(
                by_plan=[row[f"in_force_{index}"] for row in by_plan],
                new=sum(row[f"new_{index}"] for row in by_plan),
                ended=sum(row[f"ended_{index}"] for row in by_plan),
            )
            for index, month in enumerate(months)
        },
    )


class Failing(TypedDict):
    """What renewals_failing adds to each membership."""

    failing_count: int


def renewals_failing() -> "QuerySet[WithAnnotations[Membership, Failing]]":
    """The memberships past due now (a renewal's payment was refused, and its holder has not paid it
    yet), the grace period ending soonest first, with their holder and plan; each with
    `failing_count`, how many there are: a slice of them still knows the total."""
    return (
        Membership.objects.filter(status=Membership.Status.PAST_DUE)
        .select_related("user", "plan")
        .annotate(failing_count=Window(Count("pk")))
        .order_by("grace_until", "pk")
    )
