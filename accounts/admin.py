"""People. EndedSession is not registered: it holds digests of the session cookies people signed
out of, which mean nothing to read and must not be lifted by hand (Sign out everywhere, on My
Profile, is the way to end someone's sessions)."""

from django.contrib import admin

from club.admin import AuditedAdmin

from .models import User


@admin.register(User)
class UserAdmin(AuditedAdmin):
    """Admins fix people's data here. Everyone signs in through Firebase, so there are no passwords
    to edit. The role and membership are read here, not changed: they change through their
    services, which keep their rules (the club's last admin stays one; a membership ends with its
    bookings' consequences): Make admin / Remove admin on All Users, End membership on Manage
    Members, a payment for a member, and `manage.py make_admin <email>` for the first admin."""

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
