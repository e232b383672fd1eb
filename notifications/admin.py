from django.contrib import admin

from .models import Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """What was sent, what waits and why: for reading. Messages are made by the services only."""

    list_display = ["created_at", "event", "recipient", "about", "status", "attempts", "sent_at"]
    list_filter = ["status", "event"]
    search_fields = ["recipient__email", "about", "subject"]
    date_hierarchy = "created_at"
    list_select_related = ["recipient"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
