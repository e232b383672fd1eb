from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from audit.services import audit_record, audited_update, snapshot

from .models import PLACES_DEFAULT, Court, PriceBand
from .pricing import band_refusal, overlap_message

# A court's values as the audit trail keeps them (its price bands in the change's sentence).
AUDITED = ["name", "type", "price", "image", "slots", "places", "is_archived"]


@transaction.atomic
def court_create(
    *,
    by: User | None = None,
    name: str,
    type: str,
    price: Decimal,
    image: str,
    slots: list[str] | None = None,
    places: int = PLACES_DEFAULT,
    price_bands: list[dict[str, Any]] | None = None,
) -> Court:
    """A new court; without slots it is listed but cannot be booked until an admin adds them.
    `price_bands`: each a PriceBand's fields. `by`: the admin (None: the site itself)."""
    court = Court(name=name, type=type, price=price, image=image, slots=slots or [], places=places)
    court.full_clean()
    court.save()
    _replace_price_bands(court, price_bands or [])
    audit_record(
        actor=by,
        action="court.create",
        target=court,
        summary=f"Added {court}",
        after=snapshot(court, AUDITED),
    )
    return court


@transaction.atomic
def court_update(
    *, court: Court, by: User | None = None, price_bands: list[dict[str, Any]] | None = None, **fields: Any
) -> Court:
    """Changes the court's `fields`; `price_bands`, when given, replace all of its bands."""

    def save(court: Court) -> None:
        court.full_clean()
        court.save()
        if price_bands is not None:
            _replace_price_bands(court, price_bands)

    def summary(before: dict[str, Any], after: dict[str, Any]) -> str:
        if price_bands is None:
            return f"Changed {court}"
        return f"Changed {court} (price bands: {', '.join(map(str, court.bands)) or 'none'})"

    return audited_update(
        court, by=by, action="court.update", changes=fields, summary=summary, audited=AUDITED, save=save
    )


def _replace_price_bands(court: Court, bands: list[dict[str, Any]]) -> None:
    """Makes `bands` the court's, once each is valid and no two overlap; a refusal is said under
    `priceBands`, the API's field."""
    new = [PriceBand(court=court, **band) for band in bands]
    for number, band in enumerate(new, start=1):
        try:
            band.full_clean(exclude=["court"])
        except ValidationError as error:
            raise ValidationError({"priceBands": [band_refusal(number, error.message_dict)]}) from error
    if (overlap := overlap_message(new)) is not None:
        raise ValidationError({"priceBands": [overlap]})
    court.price_bands.all().delete()
    PriceBand.objects.bulk_create(new)
    court.bands = sorted(new, key=lambda band: (band.starts, band.pk))  # PriceBand.Meta.ordering


@transaction.atomic
def court_delete(*, court: Court, by: User | None = None) -> bool:
    """Deletes a court, or archives it when it has bookings, so that none loses its court; answers
    whether it was deleted."""
    archived = court.bookings.exists()
    audit_record(
        actor=by,
        action="court.archive" if archived else "court.delete",
        target=court,
        summary=f"{'Archived' if archived else 'Deleted'} {court}",
        before=snapshot(court, AUDITED),
    )
    if archived:
        court.is_archived = True
        court.save(update_fields=["is_archived"])
        return False
    court.delete()
    return True


@transaction.atomic
def court_restore(*, court: Court, by: User | None = None) -> Court:
    """Opens an archived court to booking again; an open court is left as it is."""
    if court.is_archived:
        court.is_archived = False
        court.save(update_fields=["is_archived"])
        audit_record(actor=by, action="court.restore", target=court, summary=f"Restored {court}")
    return court
