"""Status fields that move only as declared: the one way every model with a `status` changes it."""

from typing import ClassVar

from django.db import models, transaction

from .errors import Conflict


class StatusMachine(models.Model):
    """A model whose `status` moves only along its TRANSITIONS (from each status, the ones it may
    become), by `move` (under the row lock) or `move_where` (one conditional UPDATE, for a claim that
    takes no lock); no other code assigns `status` (club/tests/test_status_machines.py)."""

    TRANSITIONS: ClassVar[dict[str, set[str]]] = {}

    class Meta:
        abstract = True

    def move(
        self, to: str, *, locked: bool = False, only_from: str = "", note: dict | None = None, **changes
    ):
        """Moves this row to `to` with `changes` saved with it, if its transitions allow it from its
        status re-read under the row lock (and only from `only_from`, when given); else Conflict.
        `locked`: the caller has just read the row under its lock. Answers the status it left."""
        with transaction.atomic(savepoint=False):
            if not locked:
                rows = type(self)._base_manager.select_for_update(of=("self",)).filter(pk=self.pk)
                self.status = rows.values_list("status", flat=True).get()
            from_status = self.status
            if to not in self.TRANSITIONS.get(from_status, ()) or only_from not in ("", from_status):
                raise Conflict(
                    f"This {self._meta.verbose_name} is {self.get_status_display().lower()} "
                    f"and cannot be {to}."
                )
            self.status = to
            for name, value in changes.items():
                setattr(self, name, value)
            self.save(update_fields=["status", *changes])
            self.moved(from_status, **(note or {}))
        return from_status

    def moved(self, from_status: str, **note) -> None:
        """Records a move, in its transaction: a model with a history writes its row here."""

    @classmethod
    def move_where(cls, to: str, *conditions: models.Q, **changes) -> int:
        """Moves to `to`, with `changes`, the rows that meet `conditions` and may become `to`; answers
        how many moved."""
        sources = [status for status, targets in cls.TRANSITIONS.items() if to in targets]
        return cls._base_manager.filter(*conditions, status__in=sources).update(status=to, **changes)
