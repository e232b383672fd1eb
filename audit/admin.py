import json

from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.contrib.admin.utils import construct_change_message, flatten_fieldsets
from django.db import transaction

from kernel.admin import ReadOnlyAdmin, RefusalsSaid

from .models import AuditEntry
from .services import audit_record, snapshot


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "actor_email", "action", "target_type", "target_id", "summary"]
    list_filter = ["action", "target_type"]
    search_fields = ["actor_email", "summary", "target_id"]
    date_hierarchy = "at"


class AuditedAdmin(RefusalsSaid):
    """Records fixed by hand: each addition, change and deletion is one audit entry, in the fix's
    transaction, with Django's change message and the values before and after (of the changed
    fields for a change, of every field shown otherwise)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        message = construct_change_message(form, formsets, not change)
        if not message:  # saved with nothing changed: no fix
            return
        fields = form.changed_data if change else list(form.fields)
        self._audit(
            request,
            "change" if change else "add",
            form.instance,
            # An unsaved LogEntry says the change in Django's words, as the History page does.
            LogEntry(change_message=json.dumps(message)).get_change_message(),
            before={name: form.initial.get(name) for name in fields} if change else None,
            after=snapshot(form.instance, fields),
        )

    def delete_model(self, request, obj):
        self._audit_deletion(request, obj)
        super().delete_model(request, obj)

    @transaction.atomic
    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self._audit_deletion(request, obj)
        super().delete_queryset(request, queryset)

    def _audit_deletion(self, request, obj) -> None:
        shown = flatten_fieldsets(self.get_fieldsets(request, obj))
        self._audit(request, "delete", obj, "Deleted.", before=snapshot(obj, shown), after=None)

    def _audit(self, request, done: str, obj, what: str, *, before, after) -> None:
        audit_record(
            actor=request.user,
            action=f"admin.{done}",
            target=obj,
            summary=f"Django admin, {obj._meta.verbose_name} {obj}: {what}",
            before=before,
            after=after,
        )
