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
    entries = AuditEntry.objects.all()
    if action:
        entries = entries.filter(action__startswith=action)
    if actor_email := actor_email.strip():
        entries = entries.filter(actor_email__icontains=actor_email)
    if target_type:
        entries = entries.filter(target_type=target_type)
    if target_id:
        entries = entries.filter(target_id=target_id)
    return entries.filter(between("at", *moments(date_from, date_to))).order_by("-at", "-id")
