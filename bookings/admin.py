from django.contrib import admin

from .models import Policy
from .services import policy_update


@admin.register(Policy)
class PolicyAdmin(admin.ModelAdmin):
    """The booking policy's one row: admins change it here or with PATCH /api/policy."""

    fields = ["advance_days_user", "advance_days_member", "open_bookings_limit", "daily_hours_limit"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        policy_update(**{name: form.cleaned_data[name] for name in self.fields})
