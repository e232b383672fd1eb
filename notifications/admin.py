from django.contrib import admin

from audit.admin import AuditedAdmin
from kernel.admin import ReadOnlyAdmin

from .models import Notification, Preferences


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """Never deleted here: the row (event, recipient, about) is what makes each message go once."""

    list_display = ["created_at", "event", "recipient", "about", "status", "attempts", "sent_at"]
    list_filter = ["status", "event"]
    search_fields = ["recipient__email", "about", "subject"]
    date_hierarchy = "created_at"
    list_select_related = ["recipient"]


@admin.register(Preferences)
class PreferencesAdmin(AuditedAdmin):
    """To set on a person's word. Rows are not deleted: a person with none gets every message."""

    list_display = ["user", "reminders", "announcements"]
    list_filter = ["reminders", "announcements"]
    search_fields = ["user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]

    def get_readonly_fields(self, request, obj=None):
        return ["user"] if obj else []  # the row's key: another person's is another row

    def has_delete_permission(self, request, obj=None):
        return False
