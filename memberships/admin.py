from django import forms
from django.contrib import admin

from kernel.admin import ReadOnlyAdmin, ServiceAdmin
from kernel.bounds import bounded_formfield

from .models import Membership, MembershipChange, Plan
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


class MembershipChangeInline(admin.TabularInline):
    """Read only, as its membership is: Django admin edits no inline of a record it may not change."""

    model = MembershipChange
    fields = readonly_fields = ("at", "from_status", "to_status", "reason")


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    """Memberships, to read with their history: their states move only through their services, as
    Stripe answers and the calendar turns (memberships.services), never by hand."""

    list_display = ["user", "plan", "status", "period_end", "renews", "cancel_at_period_end", "grace_until"]
    list_filter = ["plan", "status"]
    search_fields = ["user__email"]
    date_hierarchy = "created_at"
    list_select_related = ["user", "plan"]
    inlines = [MembershipChangeInline]
