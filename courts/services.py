import secrets
import time
from decimal import Decimal

from django.db import transaction

from .models import Court, CourtListVersion
from .selectors import forget_kept_court_list


@transaction.atomic
def court_create(
    *, name: str, type: str, price: Decimal, image: str, slots: list[str] | None = None
) -> Court:
    """A new court. Without slots it is listed but cannot be booked until an admin adds them: slots
    are optional when a court is added."""
    court = Court(name=name, type=type, price=price, image=image, slots=slots or [])
    court.full_clean()
    court.save()
    return court


@transaction.atomic
def court_update(*, court: Court, **fields) -> Court:
    for field, value in fields.items():
        setattr(court, field, value)
    court.full_clean()
    court.save()
    return court


@transaction.atomic
def court_delete(*, court: Court) -> bool:
    """Deletes a court, or archives it when it has bookings, so no booking or payment loses its
    court: an archived court is hidden from /courts and cannot be booked. Answers whether it was
    deleted."""
    if court.bookings.exists():
        court.is_archived = True
        court.save(update_fields=["is_archived"])
        return False
    court.delete()
    return True


@transaction.atomic
def court_restore(*, court: Court) -> Court:
    """Opens an archived court to booking again, as it was when archived. Saved through the model,
    so the open courts' list changes (courts.receivers). An open court is left as it is."""
    if court.is_archived:
        court.is_archived = False
        court.save(update_fields=["is_archived"])
    return court


def new_list_version() -> str:
    """A version of the courts' list never used before: the time of the change and a random part."""
    return f"{time.time_ns()}-{secrets.token_hex(8)}"


def court_list_changed() -> None:
    """Every app process serves the open courts' list afresh from its next request
    (courts.selectors.court_list_slice).

    The receivers in courts.receivers call it on every save and delete of a court, whether made by
    the services above, in Django admin or anywhere else through the model; a bulk write, which
    sends no signal, must call it itself. The version changes in the same transaction as the court,
    so no process can see the change without the new version, or keep a list read before the change
    under a version set after it.

    This process forgets its kept list at once, and again when the transaction commits: a read made
    in between (another thread's) keeps the list as it was before, under the version before.
    """
    CourtListVersion.objects.update_or_create(pk=1, defaults={"version": new_list_version()})
    forget_kept_court_list()
    transaction.on_commit(forget_kept_court_list)
