"""Recording admin actions (docs/rules.md, Audit trail). Each service that changes the club's
records on an admin's word calls audit_record in its own transaction, so the entry is kept if and
only if the change is."""

from collections.abc import Callable
from typing import Any, cast

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models
from django.forms.models import model_to_dict

from .models import AuditEntry


def snapshot(instance: models.Model, fields: list[str]) -> dict[str, Any]:
    """The values of a record's `fields`, as the trail keeps them before and after a change."""
    return model_to_dict(instance, fields=fields)


def audit_record(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    target: models.Model,
    summary: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> AuditEntry:
    """An entry for `action` by `actor` (a user, or None for the site itself) on `target`."""
    return AuditEntry.objects.create(
        # The stubs type the key as the site's user model (settings.AUTH_USER_MODEL): the audit
        # trail, which every app uses, knows only Django's base of it and imports no app.
        actor=actor,  # type: ignore[misc]
        actor_email=getattr(actor, "email", "") or "",
        action=action,
        target_type=cast(str, target._meta.model_name),  # None only before its model class is made
        target_id=str(target.pk),
        summary=summary[:300],
        before=before,
        after=after,
    )


def _checked_save(instance: models.Model) -> None:
    instance.full_clean()
    instance.save()


def audited_update[M: models.Model](
    instance: M,
    *,
    by: AbstractBaseUser | None,
    action: str,
    changes: dict[str, Any],
    summary: Callable[[dict[str, Any], dict[str, Any]], str],
    audited: list[str] | None = None,
    save: Callable[[M], object] = _checked_save,
) -> M:
    """Sets `changes` on `instance`, saves it with `save` (which may refuse) and, for a change an
    admin made (`by`), records `action`; the site's own changes (`by` None) leave no entry. The entry
    keeps the `audited` fields before and after, or, with `audited` None, the changed fields only
    (no entry when none changed). `summary(before, after)` says the change in a sentence."""
    names = audited if audited is not None else list(changes)
    before = snapshot(instance, names)
    for name, value in changes.items():
        setattr(instance, name, value)
    save(instance)
    after = snapshot(instance, names)
    if audited is None:
        before = {name: value for name, value in before.items() if after[name] != value}
        after = {name: after[name] for name in before}
    if by is not None and (audited is not None or after):
        said = summary(before, after)
        audit_record(actor=by, action=action, target=instance, summary=said, before=before, after=after)
    return instance


def audited_create[M: models.Model](
    instance: M,
    *,
    by: AbstractBaseUser | None,
    action: str,
    summary: Callable[[M], str],
    audited: list[str],
    save: Callable[[M], object] = _checked_save,
) -> M:
    """Saves the new `instance` with `save` (which may refuse) and records `action` by `by` (None:
    the site itself) with the `audited` fields as made; `summary(instance)` says it in a sentence."""
    save(instance)
    after = snapshot(instance, audited)
    audit_record(actor=by, action=action, target=instance, summary=summary(instance), after=after)
    return instance


def audited_delete(
    instance: models.Model, *, by: AbstractBaseUser | None, action: str, summary: str, audited: list[str]
) -> None:
    """Records `action` by `by` with the `audited` fields as they were, then deletes `instance`."""
    before = snapshot(instance, audited)
    audit_record(actor=by, action=action, target=instance, summary=summary, before=before)
    instance.delete()
