from decimal import Decimal

from django.db import transaction

from .models import Court


def court_create(
    *, name: str, type: str, price: Decimal, image: str, slots: list[str] | None = None
) -> Court:
    """A new court. Without slots it is listed but cannot be booked until an admin adds them: slots
    are optional when a court is added."""
    court = Court(name=name, type=type, price=price, image=image, slots=slots or [])
    court.full_clean()
    court.save()
    return court


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
