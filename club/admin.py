"""What the apps' Django admin pages share. Every registered admin is one of three kinds, or writes
nothing at all (the task queue's own), so that each fix made in Django admin is one audit entry
(club/tests/test_admin_kinds.py holds them to it):

- ReadOnlyAdmin: records to read; an action may change them through a service, which audits;
- ServiceAdmin: records saved and deleted through their app's services, which audit;
- AuditedAdmin: records fixed by hand, audited here with the changed values before and after.

Django's own log (LogEntry) is kept for each record's History page, but it is not the audit trail:
it cannot say what the values were, and it writes the deletions of several records at once with
bulk_create, which sends no signal."""

import json

from django.contrib import admin, messages
from django.contrib.admin.models import LogEntry
from django.contrib.admin.utils import construct_change_message, flatten_fieldsets
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponseRedirect

from audit.services import audit_record, snapshot
from club.errors import Conflict


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records to read in Django admin, never to add, change or delete there: the services make
    and change them (an admin action may still call a service)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class _RefusalsSaid(admin.ModelAdmin):
    """A refusal a service makes only as it saves or deletes (a code another admin took meanwhile,
    the club's last admin): its transaction has rolled the change back (Django's change and delete
    views run in one, and so does each kind's delete_queryset, for Delete selected), and the page
    says why at its top, not an error page."""

    def _saying_refusals(self, view, request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except (ValidationError, Conflict) as refusal:
            said = " ".join(refusal.messages) if isinstance(refusal, ValidationError) else str(refusal)
            self.message_user(request, said, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def changeform_view(self, request, *args, **kwargs):
        return self._saying_refusals(super().changeform_view, request, *args, **kwargs)

    def delete_view(self, request, *args, **kwargs):
        return self._saying_refusals(super().delete_view, request, *args, **kwargs)

    def changelist_view(self, request, *args, **kwargs):
        return self._saying_refusals(super().changelist_view, request, *args, **kwargs)


class ServiceAdmin(_RefusalsSaid):
    """Records that Django admin adds, changes and deletes through their app's services, so that
    the services' rules and audit entries hold there too. A subclass says how with `create`,
    `update` and `remove`; the form (and its inlines) check the values first, so that a refusal
    shows on the page."""

    def create(self, request, form, formsets):
        """The new record, made by the service from the checked form."""
        raise NotImplementedError

    def update(self, request, obj, changes: dict, formsets) -> None:
        """`obj` as it was, changed by the service: `changes` are the form's changed values."""
        raise NotImplementedError

    def remove(self, request, obj) -> None:
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        """Saved by save_related, once the inlines are checked too."""

    def save_related(self, request, form, formsets, change):
        for formset in formsets:
            formset.save(commit=False)  # what changed, for Django's log; the service saves it
        if not change:
            form.instance.pk = self.create(request, form, formsets).pk  # Django's log and redirect need it
        elif form.has_changed() or any(formset.has_changed() for formset in formsets):
            changes = {name: form.cleaned_data[name] for name in form.changed_data}
            as_it_was = self.model._default_manager.get(pk=form.instance.pk)  # the form changed the instance
            self.update(request, as_it_was, changes, formsets)

    def delete_model(self, request, obj):
        self.remove(request, obj)

    @transaction.atomic
    def delete_queryset(self, request, queryset):
        for obj in queryset:
            self.remove(request, obj)


class AuditedAdmin(_RefusalsSaid):
    """Records fixed by hand in Django admin: each addition, change and deletion is one audit entry
    (`admin.add`, `admin.change`, `admin.delete`) with Django's change message and the values
    before and after: of the changed fields for a change, of every field shown for an addition or a
    deletion. It is written in the same transaction as the fix."""

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


# Django's groups grant permissions, which the club does not use: an admin is a role (User.role).
admin.site.unregister(Group)
