from datetime import date

from django.db.models import QuerySet

from kernel.days import between, moments

from .models import AuditEntry


def audit_trail(
    *,
    action: str = "",
    actor_email: str = "",
    target_type: str = "",
    target_id: str = "",
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[AuditEntry]:
    """The audit trail, newest first: of one kind of action (its prefix, "booking." say), by
    people whose e-mail contains `actor_email`, on one record, from and to a day."""
    matching = {
        "action__startswith": action,
        "actor_email__icontains": actor_email.strip(),
        "target_type": target_type,
        "target_id": target_id,
    }
    entries = AuditEntry.objects.filter(**{lookup: value for lookup, value in matching.items() if value})
    return entries.filter(between("at", *moments(date_from, date_to))).order_by("-at", "-id")
