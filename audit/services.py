"""Recording admin actions (docs/rules.md, Audit trail). Each service that changes the club's
records on an admin's word calls audit_record in its own transaction, so the entry is kept if and
only if the change is."""

from django.db import models
from django.forms.models import model_to_dict

from .models import AuditEntry


def snapshot(instance: models.Model, fields: list[str]) -> dict:
    """The values of a record's `fields`, as the trail keeps them before and after a change."""
    return model_to_dict(instance, fields=fields)


def audit_record(
    *,
    actor,
    action: str,
    target: models.Model,
    summary: str,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEntry:
    """An entry for `action` by `actor` (a user, or None for the site itself) on `target`."""
    return AuditEntry.objects.create(
        actor=actor,
        actor_email=getattr(actor, "email", "") or "",
        action=action,
        target_type=target._meta.model_name,
        target_id=str(target.pk),
        summary=summary[:300],
        before=before,
        after=after,
    )
