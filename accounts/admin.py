"""People. EndedSession is not registered: its digests of signed-out cookies mean nothing to read,
and must not be lifted by hand."""

from django.contrib import admin
from django.db import transaction

from audit.admin import AuditedAdmin

from .models import User
from .services import users_leave_an_admin


@admin.register(User)
class UserAdmin(AuditedAdmin):
    """Admins fix people's data here (no passwords: Firebase keeps them). The role and membership
    are only read: their services keep their rules (All Users, Manage Members, a payment,
    `manage.py make_admin`). The club's last active admin is neither deactivated nor deleted here."""

    list_display = ["email", "name", "role", "created_at", "last_login"]
    list_filter = ["role", "is_active"]
    date_hierarchy = "created_at"
    search_fields = ["email", "name"]
    ordering = ["email"]
    readonly_fields = ["role", "member_since", "created_at", "last_login", "firebase_uid"]
    fieldsets = [
        (None, {"fields": ["email", "name", "image", "role", "member_since"]}),
        ("Identity", {"fields": ["firebase_uid", "created_at", "last_login"]}),
        ("Access", {"fields": ["is_active"]}),
    ]

    def save_model(self, request, obj, form, change):
        if not obj.is_active:
            users_leave_an_admin(leaving=[obj.pk])
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj):
        users_leave_an_admin(leaving=[obj.pk])
        super().delete_model(request, obj)

    @transaction.atomic
    def delete_queryset(self, request, queryset):
        users_leave_an_admin(leaving=[person.pk for person in queryset])
        super().delete_queryset(request, queryset)
