from django.contrib import admin

from club.admin import ReadOnlyAdmin

from .models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The audit trail, to read (as on the Audit Trail page): nobody changes or deletes an entry."""

    list_display = ["at", "actor_email", "action", "target_type", "target_id", "summary"]
    list_filter = ["action", "target_type"]
    search_fields = ["actor_email", "summary", "target_id"]
    date_hierarchy = "at"
