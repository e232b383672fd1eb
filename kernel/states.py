"""Status fields that move only as declared: the one way every model with a `status` changes it."""

from typing import ClassVar

from django.db import models, transaction

from .errors import Conflict


class StatusMachine(models.Model):
    """A model whose `status` moves only along its TRANSITIONS (from each status, the ones it may
    become), declared beside its fields. It moves in one of two ways, and no other code assigns
    `status` (club/tests/test_status_machines.py reads the project for it):

    - `move`: the row locked, its status re-read and the move checked, then saved with the fields
      that change with it, and recorded by `moved` (a history row, where the model keeps one);
    - `move_where`: one conditional UPDATE of the rows in a status the move is declared from, for a
      claim that takes no lock (two workers, one row: the database lets one of them have it).

    A new row starts in any status: creating it is not a move."""

    TRANSITIONS: ClassVar[dict[str, set[str]]] = {}

    class Meta:
        abstract = True

    def move(
        self, to: str, *, locked: bool = False, only_from: str = "", note: dict | None = None, **changes
    ):
        """Moves this row to `to` with `changes` (field values saved with it), if its declared
        transitions allow it from its status under the row lock (and only from `only_from`, when
        given); raises Conflict otherwise. `locked`: the caller has just read this row under its
        lock, in the transaction it is in. `note` goes to `moved`. Answers the status it left."""
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
        """Moves to `to`, with `changes`, the rows that meet `conditions` and are in a status that
        may become `to`, in one UPDATE; answers how many moved."""
        sources = [status for status, targets in cls.TRANSITIONS.items() if to in targets]
        return cls._base_manager.filter(*conditions, status__in=sources).update(status=to, **changes)
