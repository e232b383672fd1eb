"""The kinds of Django admin. Every registered admin is ReadOnlyAdmin, ServiceAdmin or AuditedAdmin
(audit.admin), or writes nothing at all, so that each fix made in Django admin is one audit entry
(club/tests/test_admin_kinds.py). Django's own LogEntry cannot be the trail: it keeps no values, and
writes bulk deletions with bulk_create, which sends no signal."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponseRedirect

from .errors import Conflict


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records the services make and change (an admin action may still call a service)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RefusalsSaid(admin.ModelAdmin):
    """A refusal a service makes only as it saves or deletes (a code another admin took meanwhile,
    the club's last admin) is said at the top of the page, its transaction rolled back."""

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


class ServiceAdmin(RefusalsSaid):
    """Records saved and deleted through their app's services, so that the services' rules and audit
    entries hold here too; a subclass calls them in `create(request, form, formsets)` (answers the
    record), `update(request, obj, changes, formsets)` (`obj` as it was, `changes` the form's changed
    values) and `remove(request, obj)`."""

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
