from django import forms
from django.contrib import admin

from kernel.admin import ServiceAdmin
from kernel.bounds import bounded_formfield

from .models import Plan
from .services import PLAN_AUDITED, plan_create, plan_delete, plan_update


class PlanForm(forms.ModelForm):
    formfield_callback = bounded_formfield

    class Meta:
        model = Plan
        fields = PLAN_AUDITED


@admin.register(Plan)
class PlanAdmin(ServiceAdmin):
    """Plans are saved through their services, as on Membership Plans: the same rules and audit."""

    form = PlanForm
    list_display = ["name", "period", "price", "renews_automatically", "on_sale", "member_price_kind"]
    list_filter = ["period", "on_sale"]
    search_fields = ["name", "description"]

    def create(self, request, form, formsets):
        return plan_create(by=request.user, **form.cleaned_data)

    def update(self, request, obj, changes, formsets):
        plan_update(plan=obj, by=request.user, **changes)

    def remove(self, request, obj):
        plan_delete(plan=obj, by=request.user)
