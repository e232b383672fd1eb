from django.urls import reverse
from rest_framework import serializers

from kernel.api import CamelCaseModelSerializer
from kernel.days import DateLabel, day

from .models import Plan
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
