from django.urls import reverse
from rest_framework import serializers

from accounts.serializers import MemberOutput, UserOutput
from kernel.api import CamelCaseModelSerializer
from kernel.days import DateLabel, day

from .models import Membership, Plan
from .services import PLAN_AUDITED


class PlanOutput(CamelCaseModelSerializer[Plan]):
    seasonStartsOnLabel = DateLabel(day, source="season_starts_on", allow_null=True)
    seasonEndsOnLabel = DateLabel(day, source="season_ends_on", allow_null=True)
    url = serializers.SerializerMethodField(help_text="Where to change or delete this plan.")

    class Meta:
        model = Plan
        fields = ["id", *PLAN_AUDITED, "seasonStartsOnLabel", "seasonEndsOnLabel", "url"]
        read_only_fields = PLAN_AUDITED  # every field answered, those with a default too

    def get_url(self, plan: Plan) -> str:
        return reverse("api-plan", args=[plan.pk])


# Bounded as the model is (Membership Plans' inputs say the same bounds: kernel.bounds.input_bounds);
# the plans' service checks the rules between fields (Plan.clean).
class PlanInput(CamelCaseModelSerializer[Plan]):
    class Meta:
        model = Plan
        fields = PLAN_AUDITED
        # The service says a name already taken, once (Plan's unique name).
        extra_kwargs = {"name": {"validators": Plan._meta.get_field("name").validators}}


class PlanListQuery(serializers.Serializer):
    on_sale = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Admins: only the plans on sale (true) or off sale (false). Anyone else gets the "
        "plans on sale.",
    )


class MembershipPlanOutput(CamelCaseModelSerializer[Plan]):
    """The plan a membership is of, as its holder and the people lists name it."""

    periodLabel = serializers.CharField(
        source="period_label",
        read_only=True,
        help_text='How long a period lasts: "a month", "a year", a season\'s days.',
    )

    class Meta:
        model = Plan
        fields = ["id", "name", "price", "period", "periodLabel"]
        read_only_fields = fields


# The benefits' own values, each null for the club's rule (the booking policy's): what the lines say.
BENEFIT_LIMITS = [
    "member_price_kind",
    "member_price_value",
    "booking_window_days",
    "open_bookings_limit",
    "hours_per_day",
    "hours_per_week",
    "peak_hours_per_week",
    "members_only_hours",
]


class BenefitsOutput(CamelCaseModelSerializer[Plan]):
    """What a plan gives: its lines as people read them, and the values themselves."""

    lines = serializers.ListField(
        child=serializers.CharField(),
        source="benefits",
        read_only=True,
        help_text="What the plan gives, a sentence each, as the site lists it (none: the club's rules).",
    )

    class Meta:
        model = Plan
        fields = ["lines", *BENEFIT_LIMITS]
        read_only_fields = BENEFIT_LIMITS


class MembershipSummary(CamelCaseModelSerializer[Membership]):
    """A live membership as the people lists show it: its plan, its state and its dates. It renews
    at `periodEnd`, for `price` (the plan's when it was bought), when `renews` and not
    `cancelAtPeriodEnd`; otherwise it ends then."""

    plan = MembershipPlanOutput(read_only=True)
    statusLabel = serializers.CharField(source="get_status_display", read_only=True)
    periodEndLabel = DateLabel(day, source="period_end", allow_null=True)
    graceUntilLabel = DateLabel(day, source="grace_until", allow_null=True)

    class Meta:
        model = Membership
        fields = [
            "id",
            "plan",
            "status",
            "statusLabel",
            "renews",
            "price",
            "cancel_at_period_end",
            "period_end",
            "periodEndLabel",
            "grace_until",
            "graceUntilLabel",
        ]
        read_only_fields = fields


class MembershipOutput(MembershipSummary):
    """A live membership as its holder reads it: the summary and the plan's benefits."""

    benefits = BenefitsOutput(source="plan", read_only=True)

    class Meta(MembershipSummary.Meta):
        fields = [*MembershipSummary.Meta.fields, "benefits"]
        read_only_fields = fields


class MyMembershipOutput(serializers.Serializer):
    membership = MembershipOutput(
        allow_null=True,
        read_only=True,
        help_text="Your live membership (awaiting its first payment, active or past due), or null.",
    )


def _live_membership() -> MembershipSummary:
    """The people lists' membership of each person, read by memberships.selectors.people_with_memberships."""
    return MembershipSummary(
        source="live_membership",
        allow_null=True,
        read_only=True,
        help_text="Their live membership (awaiting its first payment, active or past due), or null.",
    )


class UserWithMembershipOutput(UserOutput):
    """A person as All Users lists them: their record and their membership."""

    membership = _live_membership()

    class Meta(UserOutput.Meta):
        fields = [*UserOutput.Meta.fields, "membership"]
        read_only_fields = fields


class MemberWithMembershipOutput(MemberOutput):
    """A member as Manage Members lists them: since when, and their membership (none for someone who
    became a member by paying for a booking)."""

    membership = _live_membership()

    class Meta(MemberOutput.Meta):
        fields = [*MemberOutput.Meta.fields, "membership"]
