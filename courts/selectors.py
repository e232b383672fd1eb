import gzip
import hashlib
import time
from dataclasses import dataclass

from django.db import connection
from django.db.models import Exists, F, OuterRef, Prefetch, QuerySet
from rest_framework.renderers import JSONRenderer

from .models import Court, CourtListVersion, PriceBand

# Slices (with their Link headers) kept per process for the current version: a bound, since the
# query string and the Host header are the caller's to choose.
_MAX_SLICES = 64
MAX_LINKS = 64


def court_list() -> QuerySet[Court]:
    """Courts open to booking, in the order visitors see them."""
    return Court.objects.filter(is_archived=False)


def courts_all() -> QuerySet[Court]:
    """Every court, archived ones too (a request for one is refused with its reason)."""
    return Court.objects.all()


def courts_for_admin(*, archived: bool) -> QuerySet[Court]:
    """Manage Courts' open or archived courts, each with `has_bookings`: whether deleting it would
    archive it (courts.services.court_delete) rather than delete it, and its price bands."""
    booked = Court.objects.filter(pk=OuterRef("pk"), bookings__isnull=False)
    return with_price_bands(Court.objects.filter(is_archived=archived).annotate(has_bookings=Exists(booked)))


def with_price_bands(courts: QuerySet[Court]) -> QuerySet[Court]:
    """`courts`, each with its price bands (Court.bands) read in one more query for all of them:
    for a page of courts, which a join would not slice (courts_with_price_bands)."""
    return courts.prefetch_related(Prefetch("price_bands", queryset=PriceBand.objects.all(), to_attr="bands"))


_BAND_COLUMNS = {
    f"band_{name}": F(f"price_bands__{name}") for name in ("id", "weekdays", "starts", "ends", "price")
}


def courts_with_price_bands(courts: QuerySet[Court]) -> list[Court]:
    """`courts`, in their order, each with its price bands (Court.bands), in one query however many
    courts and bands: the courts joined to their bands, a row per band (a court without any comes
    once, with none). For the day sheet and the open courts' list, which each read courts in one
    query."""
    found: dict[int, Court] = {}
    for row in courts.annotate(**_BAND_COLUMNS):
        court = found.setdefault(row.pk, row)
        if court is row:
            court.bands = []
        if row.band_id is not None:
            court.bands.append(
                PriceBand(
                    id=row.band_id,
                    court=court,
                    weekdays=row.band_weekdays,
                    starts=row.band_starts,
                    ends=row.band_ends,
                    price=row.band_price,
                )
            )
    for court in found.values():
        court.bands.sort(key=lambda band: (band.starts, band.id))  # PriceBand.Meta.ordering
    return list(found.values())


def court_list_version() -> str:
    """The current version of the open courts' list (courts.services.court_list_changed): one
    query, in plain SQL, since the ORM would cost more than the query itself."""
    table = connection.ops.quote_name(CourtListVersion._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {table} WHERE id = 1")  # noqa: S608 - our own table name
        row = cursor.fetchone()
    if row is None:  # the table was emptied (a test database's flush): a version again
        from .services import court_list_changed

        court_list_changed()
        return CourtListVersion.objects.get(pk=1).version
    return row[0]


@dataclass
class CourtListSlice:
    body: bytes  # the JSON array, as DRF's JSONRenderer writes it
    gzipped: bytes | None  # the same, compressed once (None when too short to gain from it)
    total: int
    etag: str  # strong, quoted
    last_modified: int  # when the list last changed, in seconds since the epoch
    links: dict[str, str]  # the Link header, per URL asked for


@dataclass
class _Serialised:
    version: str
    rows: list
    slices: dict[tuple[int, int], CourtListSlice]
    checked: float  # when the version was last read (time.monotonic)


_serialised: _Serialised | None = None


def forget_kept_court_list() -> None:
    """This process serves the list afresh from its next read, whatever the read's `recheck_after`
    (courts.services.court_list_changed)."""
    global _serialised
    _serialised = None


def court_list_slice(*, limit: int, offset: int, recheck_after: float = 0) -> CourtListSlice:
    """The open courts from `offset`, at most `limit` of them, serialised as GET /api/courts answers
    them. The list is public and the same for every caller: nothing in it depends on who asks.

    The serialisation is kept in this process's memory for the list's current version, which lives
    in the database and changes in the same transaction as any court, so a change made through any
    app process is served by every other from its next request. A hit costs the version's query
    and nothing else; a miss, one query more, for the whole list, made after reading the version,
    so a list kept under a version is never older than that version.

    With `recheck_after` (seconds), a list whose version was read that recently is served without
    reading it again: no query at all. A change made by this process is served at once all the
    same (forget_kept_court_list); one made by another process, within `recheck_after`.
    """
    global _serialised
    serialised = _serialised
    now = time.monotonic()
    if serialised is None or now - serialised.checked >= recheck_after:
        version = court_list_version()
        if serialised is None or serialised.version != version:
            from .serializers import CourtOutput

            rows = CourtOutput(courts_with_price_bands(court_list()), many=True).data
            serialised = _Serialised(version, rows, {}, now)
            _serialised = serialised
        serialised.checked = now
    version = serialised.version
    found = serialised.slices.get((limit, offset))
    if found is None:
        body = JSONRenderer().render(serialised.rows[offset : offset + limit])
        total = len(serialised.rows)
        # The validator covers what a 304 lets the client keep: the rows and the total.
        digest = hashlib.blake2b(f"{total}:".encode() + body, digest_size=16).hexdigest()
        changed_ns = int(version.split("-", 1)[0]) if version.split("-", 1)[0].isdigit() else 0
        # Compressed once per version, without GZipMiddleware's random padding: that blunts BREACH
        # on pages carrying a secret, and this public list carries none and echoes nothing.
        gzipped = gzip.compress(body, mtime=0) if len(body) >= 200 else None
        found = CourtListSlice(body, gzipped, total, f'"{digest}"', changed_ns // 1_000_000_000, {})
        if len(serialised.slices) >= _MAX_SLICES:
            serialised.slices.clear()
        serialised.slices[(limit, offset)] = found
    return found
