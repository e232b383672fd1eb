"""What a court's slots cost on a day (docs/rules.md, Prices): the court's price, or that of the
price band a slot starts in; and which slots a band keeps for members or makes peak. Pure functions
of the court and its bands: they read nothing but `court.bands`, which the selectors give many
courts in one query."""

from collections.abc import Callable, Iterable, Mapping
from datetime import date as Date
from datetime import time
from decimal import Decimal
from itertools import combinations

from django.core.exceptions import NON_FIELD_ERRORS

from kernel.slots import Slot

from .models import WEEKDAY_NAMES, Court, PriceBand

# What one person pays for a slot of the price given: the member price of the plan they hold, which
# the bookings app passes in (a court knows no plans). Left out: the price itself.
PriceFor = Callable[[Decimal], Decimal]


def band_for(bands: Iterable[PriceBand], *, weekday: int, start: time) -> PriceBand | None:
    """The first of `bands` that a slot starting at `start` on `weekday` (Monday 0) falls in."""
    return next(
        (band for band in bands if weekday in band.weekdays and band.starts <= start < band.ends), None
    )


def slot_bands(court: Court, date: Date, slots: list[str]) -> list[PriceBand | None]:
    """The band each of `slots` of `court` starts in on `date`, or None."""
    weekday = date.weekday()
    return [band_for(court.bands, weekday=weekday, start=Slot.parse(slot).start) for slot in slots]


def own_price(court: Court, price_for: PriceFor | None = None) -> Decimal:
    """What a slot of `court` outside its bands costs (the person `price_for` prices for)."""
    own = Decimal(court.price)  # as saved: a court made in code may still hold the string it was given
    return own if price_for is None else price_for(own)


def slot_prices(
    court: Court, date: Date, slots: list[str], price_for: PriceFor | None = None
) -> list[Decimal]:
    """The price of each of `slots` of `court` on `date`: its price band's, or the court's own; to
    the person `price_for` prices for, if given."""
    own = Decimal(court.price)
    prices = [own if band is None else Decimal(band.price) for band in slot_bands(court, date, slots)]
    return prices if price_for is None else [price_for(price) for price in prices]


def peak_prices(
    court: Court, date: Date, slots: list[str], price_for: PriceFor | None = None
) -> dict[str, Decimal]:
    """Those of `slots` whose price on `date` is not the court's own, with that price: both as the
    person `price_for` prices for pays them (a plan's fixed price makes every slot cost the same)."""
    if not court.bands:  # no slot to parse: every one is at the court's own price
        return {}
    own = own_price(court, price_for)
    prices = zip(slots, slot_prices(court, date, slots, price_for), strict=True)
    return {slot: price for slot, price in prices if price != own}


def members_only_slots(court: Court, date: Date, slots: list[str]) -> list[str]:
    """Those of `slots` that a members-only band keeps on `date` for the holders of a plan with
    the members-only hours."""
    if not any(band.members_only for band in court.bands):
        return []
    bands = zip(slots, slot_bands(court, date, slots), strict=True)
    return [slot for slot, band in bands if band is not None and band.members_only]


def peak_slots(court: Court, date: Date, slots: list[str]) -> list[str]:
    """Those of `slots` in a peak band on `date`: one priced above the court's own (PriceBand.kind),
    whoever books them."""
    if not court.bands:
        return []
    own = Decimal(court.price)
    bands = zip(slots, slot_bands(court, date, slots), strict=True)
    return [slot for slot, band in bands if band is not None and Decimal(band.price) > own]


def overlap_message(bands: Iterable[PriceBand]) -> str | None:
    """Why `bands` cannot be one court's, when two of them share a day and a time, else None."""
    for first, second in combinations(bands, 2):
        shared = sorted(set(first.weekdays) & set(second.weekdays))
        if shared and first.starts < second.ends and second.starts < first.ends:
            earlier, later = sorted([first, second], key=lambda band: (band.starts, band.ends))
            return (
                f"The bands {earlier.starts:%H:%M}-{earlier.ends:%H:%M} and "
                f"{later.starts:%H:%M}-{later.ends:%H:%M} overlap on {WEEKDAY_NAMES[shared[0]]}: "
                "a slot can have one price only."
            )
    return None


def band_refusal(number: int, errors: Mapping[str, object]) -> str:
    """Why the `number`th of a court's bands is refused, in one message ("Band 2: ends: …"), from its
    errors by field (Django's or DRF's)."""
    return f"Band {number}: {_flat(errors)}"


def _flat(detail: object) -> str:
    if isinstance(detail, dict):
        return "; ".join(
            _flat(inner) if field == NON_FIELD_ERRORS else f"{field}: {_flat(inner)}"
            for field, inner in detail.items()
        )
    if isinstance(detail, list):
        return " ".join(map(_flat, detail))
    return str(detail)
