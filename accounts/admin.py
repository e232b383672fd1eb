from django.contrib import admin

from .models import User


@admin.register(User)
class UserAdmin(admin.ModelAdmin):
    """Staff fix people's data here. Members sign in through Firebase, so no passwords are edited;
    staff accounts for /admin/ are made with `manage.py createsuperuser`."""

    list_display = ["email", "name", "role", "created_at", "last_login"]
    list_filter = ["role", "is_staff", "is_active"]
    search_fields = ["email", "name"]
    ordering = ["email"]
    readonly_fields = ["created_at", "last_login", "firebase_uid"]
    fieldsets = [
        (None, {"fields": ["email", "name", "image", "role", "member_since"]}),
        ("Identity", {"fields": ["firebase_uid", "created_at", "last_login"]}),
        ("Staff access", {"fields": ["is_active", "is_staff", "is_superuser"]}),
    ]
