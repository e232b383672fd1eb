from django.contrib import admin

from .models import User


@admin.register(User)
class UserAdmin(admin.ModelAdmin):
    """Admins fix people's data here. Everyone signs in through Firebase, so there are no passwords
    to edit; `manage.py make_admin <email>` promotes a user."""

    list_display = ["email", "name", "role", "created_at", "last_login"]
    list_filter = ["role", "is_active"]
    search_fields = ["email", "name"]
    ordering = ["email"]
    readonly_fields = ["created_at", "last_login", "firebase_uid"]
    fieldsets = [
        (None, {"fields": ["email", "name", "image", "role", "member_since"]}),
        ("Identity", {"fields": ["firebase_uid", "created_at", "last_login"]}),
        ("Access", {"fields": ["is_active"]}),
    ]
