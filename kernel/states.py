"""Status fields that move only as declared: the one way every model with a `status` changes it."""

from collections.abc import Callable
from typing import Any, ClassVar

from django.db import models, transaction

from .errors import Conflict


class StatusMachine(models.Model):
    """A model whose `status` moves only along its TRANSITIONS (from each status, the ones it may
    become), by `move` (under the row lock) or `move_where` (one conditional UPDATE, for a claim that
    takes no lock); no other code assigns `status` (club/tests/test_status_machines.py)."""

    TRANSITIONS: ClassVar[dict[str, set[str]]] = {}
    # Declared by each concrete model, with its choices (the abstract base has no fields).
    status: str
    get_status_display: Callable[[], str]

    class Meta:
        abstract = True

    def move(
        self,
        to: str,
        *,
        locked: bool = False,
        only_from: str = "",
        note: dict[str, Any] | None = None,
        **changes: Any,
    ) -> str:
        """Moves this row to `to` with `changes` saved with it, if its transitions allow it from its
        status re-read under the row lock (and only from `only_from`, when given); else Conflict.
        `locked`: the caller has just read the row under its lock. Answers the status it left."""
        with transaction.atomic(savepoint=False):
            if not locked:
                rows = type(self)._base_manager.select_for_update(of=("self",)).filter(pk=self.pk)
                # The concrete model's field, which django-stubs cannot see from the abstract base.
                self.status = rows.values_list("status", flat=True).get()  # type: ignore[misc]
            from_status = self.status
            if to not in self.TRANSITIONS.get(from_status, ()) or only_from not in ("", from_status):
                raise Conflict(
                    f"This {self._meta.verbose_name} is {self.get_status_display().lower()} "
                    f"and cannot be {to}."
                )
            self.status = to
            for name, value in changes.items():
                setattr(self, name, value)
            self.save(update_fields=["status", *changes])  # type: ignore[misc]  # as above
            self.moved(from_status, **(note or {}))
        return from_status

    def moved(self, from_status: str, **note: Any) -> None:
        """Records a move, in its transaction: a model with a history writes its row here."""

    @classmethod
    def move_where(cls, to: str, *conditions: models.Q, **changes: Any) -> int:
        """Moves to `to`, with `changes`, the rows that meet `conditions` and may become `to`; answers
        how many moved."""
        sources = [status for status, targets in cls.TRANSITIONS.items() if to in targets]
        rows = cls._base_manager.filter(*conditions, status__in=sources)  # type: ignore[misc]  # as above
        return rows.update(status=to, **changes)  # type: ignore[misc]  # as above
