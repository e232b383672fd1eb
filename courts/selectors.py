from django.db.models import Exists, F, OuterRef, Prefetch, QuerySet

from .models import Court, PriceBand


def court_list() -> QuerySet[Court]:
    """Courts open to booking, in the order visitors see them."""
    return Court.objects.filter(is_archived=False)


def courts_all() -> QuerySet[Court]:
    """Every court, archived ones too (a request for one is refused with its reason)."""
    return Court.objects.all()


def courts_for_admin(*, archived: bool) -> QuerySet[Court]:
    """Manage Courts' open or archived courts, with `has_bookings` (whether deleting one archives it)
    and their price bands."""
    booked = Court.objects.filter(pk=OuterRef("pk"), bookings__isnull=False)
    return with_price_bands(Court.objects.filter(is_archived=archived).annotate(has_bookings=Exists(booked)))


def with_price_bands(courts: QuerySet[Court]) -> QuerySet[Court]:
    """`courts`, each with its price bands (Court.bands) read in one more query for all of them, so
    that a page of them can be sliced, which a join (courts_with_price_bands) would not allow."""
    # Filling Court.bands (a cached_property) is the point, which django-stubs takes for a clash.
    return courts.prefetch_related(Prefetch("price_bands", queryset=PriceBand.objects.all(), to_attr="bands"))  # type: ignore[no-redef]


# The price band's fields, read as `band_<field>` beside each court.
_BAND_FIELDS = ("id", "weekdays", "starts", "ends", "price", "members_only")


def courts_with_price_bands(courts: QuerySet[Court]) -> list[Court]:
    """`courts`, in their order, each with its price bands (Court.bands), in one query: the courts
    joined to their bands, a row per band. For the day sheet and a day's availability."""
    found: dict[int, Court] = {}
    for row in courts.annotate(**{f"band_{name}": F(f"price_bands__{name}") for name in _BAND_FIELDS}):
        court = found.setdefault(row.pk, row)
        if court is row:
            court.bands = []
        band = {name: getattr(row, f"band_{name}") for name in _BAND_FIELDS}
        if band["id"] is not None:
            court.bands.append(PriceBand(court=court, **band))
    for court in found.values():
        court.bands.sort(key=lambda band: (band.starts, band.id))  # PriceBand.Meta.ordering
    return list(found.values())
