from typing import Any, NoReturn

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone


class AppendOnly(Exception):
    """The audit trail is never changed nor deleted by the app (docs/rules.md, Audit trail)."""


class AuditEntryQuerySet(models.QuerySet["AuditEntry"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnly("Audit entries are never changed.")

    def delete(self) -> NoReturn:
        raise AppendOnly("Audit entries are never deleted.")


def _shown(value: Any) -> str:
    """A kept value as people read it: a list (a court's slots, each one as it is: a court's
    slots are what changed, not the hours they cover) or a mapping as its items, nothing as a dash."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_shown(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{key.replace('_', ' ')} {_shown(item)}" for key, item in value.items())
    return str(value)


class AuditEntry(models.Model):
    """One admin action. Rows are only ever added: the model refuses changes and deletions, and on
    PostgreSQL a trigger does too."""

    at = models.DateTimeField(default=timezone.now, editable=False)
    # Null for the site's own actions. A person who acted keeps their record (deactivated, not
    # deleted): the trail never changes, so it cannot let go of them.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Kept as it was, should the person's record change.
    actor_email = models.CharField(max_length=254, blank=True)
    action = models.CharField(max_length=50, help_text='What was done, e.g. "booking.approve".')
    target_type = models.CharField(max_length=50, help_text='What it was done to, e.g. "booking".')
    target_id = models.CharField(max_length=50)
    summary = models.CharField(max_length=300)
    # Money and days as the API writes them (DjangoJSONEncoder: "12.50", "2026-11-24").
    before = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [
            models.Index(fields=["at", "id"], name="audit_list"),
            models.Index(fields=["target_type", "target_id", "at"], name="audit_by_target"),
            models.Index(fields=["action", "at"], name="audit_by_action"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_email or 'the site'}: {self.summary}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AppendOnly("Audit entries are never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnly("Audit entries are never deleted.")

    @property
    def changes(self) -> list[str]:
        """The values kept, a line each as people read them: "field: old → new" for a field the
        action changed, "field: value" for one it only set or only removed (what was made or
        deleted). A field kept before and after with the same value (a court's other fields
        beside the one changed) did not change, and has no line."""
        before, after = self.before or {}, self.after or {}
        lines = []
        for name in [*before, *(name for name in after if name not in before)]:
            label = name.replace("_", " ")
            if name in before and name in after:
                if before[name] != after[name]:
                    lines.append(f"{label}: {_shown(before[name])} → {_shown(after[name])}")
            else:
                lines.append(f"{label}: {_shown(before.get(name, after.get(name)))}")
        return lines
