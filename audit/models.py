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
