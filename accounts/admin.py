"""People. EndedSession is not registered: it holds digests of the session cookies people signed
out of, which mean nothing to read and must not be lifted by hand (Sign out everywhere, on My
Profile, is the way to end someone's sessions)."""

from django.contrib import admin
from django.db import transaction

from audit.admin import AuditedAdmin

from .models import User
from .services import users_leave_an_admin


@admin.register(User)
class UserAdmin(AuditedAdmin):
    """Admins fix people's data here. Everyone signs in through Firebase, so there are no passwords
    to edit. The role and membership are read here, not changed: they change through their
    services, which keep their rules (the club's last admin stays one; a membership ends with its
    bookings' consequences): Make admin / Remove admin on All Users, End membership on Manage
    Members, a payment for a member, and `manage.py make_admin <email>` for the first admin (or to
    make an account an active admin again). The club's last active admin is neither deactivated
    nor deleted here."""

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
