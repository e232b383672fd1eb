from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db.models import (
    Case,
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from courts.models import Court

from .models import BookedSlot, Booking, BookingStatusChange, Player, Policy, WaitlistEntry

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

Status = Booking.Status


class ShownStatus(TypedDict):
    """What with_shown_status adds to each booking."""

    shown_status: str
    changed_at: datetime | None
    changed_by_id: int | None
    reason: str | None


class Paid(TypedDict):
    """What with_payment adds to each booking."""

    paid_amount: Decimal | None
    paid_coupon: str | None
    paid_discount: Decimal | None


class RefundPercent(TypedDict):
    """What with_refund_percent adds to each booking."""

    refund_percent: int


class Position(TypedDict):
    """What waitlist_of adds to each place: its place in the line (None if offered)."""

    position: int | None


class Upcoming(TypedDict):
    """What upcoming_bookings adds to each booking."""

    upcoming_count: int


class CalendarFields(TypedDict):
    """What with_calendar_fields adds to each booking."""

    confirmed_at: datetime | None
    sequence: int
    changed_at: datetime


def overdue(now: datetime | None = None, *, via: str = "") -> Q:
    """Bookings whose wait is over (`via`: the path to them): approvals unpaid past their deadline,
    requests undecided within the decision window or before they begin. They count as expired at
    once, although the row changes only when services.bookings_expire runs."""
    now = now or timezone.now()

    def on(**lookups: object) -> Q:
        return Q(**{f"{via}{field}": value for field, value in lookups.items()})

    # The policy's decision window, read in the query (so that a list costs no query more).
    hours = Policy.objects.filter(pk=1).values("decision_window_hours")
    default = Policy._meta.get_field("decision_window_hours").default
    # Typed as an integer times a duration, which SQLite (make run's default) computes as PostgreSQL does.
    window_hours = Coalesce(Subquery(hours), Value(default), output_field=IntegerField())
    decision_window = ExpressionWrapper(
        window_hours * Value(timedelta(hours=1)), output_field=DurationField()
    )
    unpaid = on(status=Status.APPROVED, payment_due_at__lt=now)
    undecided = on(status=Status.PENDING) & (
        on(created_at__lte=Value(now) - decision_window) | on(starts_at__lte=now)
    )
    return unpaid | undecided


def open_bookings(*, user: User) -> QuerySet[Booking]:
    """A person's bookings that wait for a decision or a payment, and may still get it."""
    return Booking.objects.filter(user=user, status__in=[Status.PENDING, Status.APPROVED]).exclude(overdue())


def open_bookings_held(*, user: User) -> int:
    """How many open bookings a person holds, against their limit: a series of them counts as one."""
    counted = open_bookings(user=user).aggregate(
        one_off=Count("pk", filter=Q(series=None)), series=Count("series", distinct=True)
    )
    return int(counted["one_off"] + counted["series"])


def upcoming_bookings(
    *, user: User, now: datetime | None = None
) -> "QuerySet[WithAnnotations[Booking, Upcoming]]":
    """A person's bookings that hold their slots and have not begun, the soonest first, each with
    `upcoming_count`, how many there are: a slice of them still knows the total."""
    now = now or timezone.now()
    upcoming = Booking.objects.filter(user=user, status__in=Booking.HOLDING, starts_at__gt=now).exclude(
        overdue(now)
    )
    return upcoming.annotate(upcoming_count=Window(Count("pk"))).order_by("starts_at", "id")


def bookings_visible_to(user: User) -> QuerySet[Booking]:
    """The bookings a person may see: their own; an admin, everyone's."""
    return Booking.objects.select_related("user", "court") if user.is_admin else own_bookings(user)


def played_in(user: User, **booking_filters: Any) -> list[int]:
    """The bookings of others that `user` plays in (bookings/players.py), those `booking_filters`
    choose (their dates, say)."""
    plays = Player.objects.filter(user=user, status=Player.Status.PLAYING)
    chosen = {f"booking__{lookup}": value for lookup, value in booking_filters.items()}
    return list(plays.filter(**chosen).values_list("booking_id", flat=True))


def own_and_played(user: User) -> QuerySet[Booking]:
    """A person's own bookings and those they play in. Those are read first, by their ids: a
    condition on the players in the same query would have PostgreSQL read every booking of the club
    rather than the person's by their index (booking_list_by_user), 126 ms instead of 18 at 112k."""
    return Booking.objects.select_related("user", "court").filter(Q(user=user) | Q(pk__in=played_in(user)))


def bookings_seen_by(user: User) -> QuerySet[Booking]:
    """The bookings a person may look at: those they may see (bookings_visible_to), and those they
    play in."""
    return bookings_visible_to(user) if user.is_admin else own_and_played(user)


def booking_list(
    *,
    viewer: User,
    status: str,
    email: str = "",
    email_contains: str = "",
    title: str = "",
    court: Court | None = None,
    date: date | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[Booking]:
    """Bookings in `status` that `viewer` may see, in date order, filtered by the arguments given.
    Overdue ones have expired in all but name: left out."""
    bookings = bookings_visible_to(viewer).filter(status=status)
    if status in (Status.PENDING, Status.APPROVED):
        bookings = bookings.exclude(overdue())
    lookups = {
        "user__email": email,
        "user__email__icontains": email_contains.strip(),
        "court_name__icontains": title.strip(),
        "court": court,
        "date": date,
        "date__gte": date_from,
        "date__lte": date_to,
    }
    chosen = {lookup: value for lookup, value in lookups.items() if value}
    return bookings.filter(**chosen).order_by("date", "id")


def offer_run_out(now: datetime | None = None, *, via: str = "") -> Q:
    """Waitlist offers whose hold is over (`via`: the path to them): their slots are free, although
    the entry lapses only when waitlist.waitlist_pass_on runs."""
    return Q(
        **{f"{via}status": WaitlistEntry.Status.OFFERED, f"{via}offer_expires_at__lte": now or timezone.now()}
    )


def held_slots(**filters: Any) -> QuerySet[BookedSlot]:
    """The held-slot rows `filters` select, less overdue bookings' and run-out offers'."""
    now = timezone.now()
    return BookedSlot.objects.filter(**filters).exclude(
        overdue(now, via="booking__") | offer_run_out(now, via="offer__")
    )


def taken_slots(*, court_id: int, date: date) -> list[str]:
    return list(held_slots(court_id=court_id, date=date).values_list("slot", flat=True))


def own_bookings(user: User) -> QuerySet[Booking]:
    """A person's own bookings, whatever their role (paying is only ever for oneself)."""
    return Booking.objects.select_related("user", "court").filter(user=user)


def with_shown_status(bookings: QuerySet[Booking]) -> "QuerySet[WithAnnotations[Booking, ShownStatus]]":
    """`bookings`, each with `shown_status` (an overdue one is expired), and `changed_at`,
    `changed_by_id` and `reason` from its latest status change."""
    latest = BookingStatusChange.objects.filter(booking=OuterRef("pk")).order_by("-at", "-id")
    return bookings.annotate(
        shown_status=Case(When(overdue(), then=Value(Status.EXPIRED)), default=F("status")),
        changed_at=Subquery(latest.values("at")[:1]),
        changed_by_id=Subquery(latest.values("by")[:1]),
        reason=Subquery(latest.values("reason")[:1]),
    )


def own_booking_list(*, user: User, status: str = "") -> "QuerySet[WithAnnotations[Booking, ShownStatus]]":
    """My Bookings: a person's own and those they play in (`played`), the latest first."""
    played = Case(When(user=user, then=Value(False)), default=Value(True))
    bookings = with_shown_status(own_and_played(user)).annotate(played=played)
    if status:
        bookings = bookings.filter(shown_status=status)
    return bookings.order_by("-date", "-id")


def with_payment(bookings: QuerySet[Booking]) -> "QuerySet[WithAnnotations[Booking, Paid]]":
    """`bookings`, each with its succeeded payment's `paid_amount`, `paid_coupon` and
    `paid_discount` (or None). The payments app builds on this one: its model is reached by the
    relation, not imported. Subqueries, so that counting a page's total reads the bookings alone."""
    payments = Booking._meta.get_field("payments").related_model._default_manager
    paid = payments.filter(booking=OuterRef("pk"), status="succeeded")
    return bookings.annotate(
        paid_amount=Subquery(paid.values("amount")[:1]),
        paid_coupon=Subquery(paid.values("coupon__code")[:1]),
        paid_discount=Subquery(paid.values("discount")[:1]),
    )


def with_calendar_fields(bookings: QuerySet[Booking]) -> "QuerySet[WithAnnotations[Booking, CalendarFields]]":
    """`bookings`, each with its calendar event's `sequence` (status changes since it was first
    confirmed) and `changed_at`."""
    history = BookingStatusChange.objects.filter(booking=OuterRef("pk"))
    first_confirmed = history.filter(to_status=Status.CONFIRMED).order_by("at", "id").values("at")[:1]
    latest = history.order_by("-at", "-id").values("at")[:1]
    return bookings.annotate(
        confirmed_at=Subquery(first_confirmed),
        sequence=Count("history", filter=Q(history__at__gt=F("confirmed_at"))),
        changed_at=Coalesce(Subquery(latest), F("created_at")),
    )


def calendar_bookings(*, user: User) -> "QuerySet[WithAnnotations[Booking, CalendarFields]]":
    """A person's bookings ever confirmed, their own and those they play in (calendars learn of
    cancellations), with_calendar_fields."""
    confirmed = BookingStatusChange.objects.filter(booking=OuterRef("pk"), to_status=Status.CONFIRMED)
    bookings = own_and_played(user).filter(Q(status=Status.CONFIRMED) | Exists(confirmed))
    return with_calendar_fields(bookings).order_by("date", "id")


def policy_get() -> Policy:
    """The club's booking policy; the first read makes it, with a new club's rules."""
    return Policy.objects.get_or_create(pk=1)[0]


def slots_let_go(
    *, user: User, court: Court, date: date, since: datetime
) -> list[tuple[list[str], datetime]]:
    """The slots of `court` on `date` that `user` let go of after `since`, each booking's with when:
    cancelled while unpaid, or left unpaid past its payment deadline."""
    history = BookingStatusChange.objects.filter(booking__user=user, booking__court=court, booking__date=date)
    withdrawn = history.filter(
        from_status__in=[Status.PENDING, Status.APPROVED], to_status=Status.CANCELLED, by=user, at__gt=since
    )
    lapsed = user.bookings.filter(
        court=court,
        date=date,
        status__in=[Status.APPROVED, Status.EXPIRED],
        payment_due_at__gt=since,
        payment_due_at__lt=timezone.now(),
    )
    # Not None: lapsed are those due after `since`.
    lapsed_at = cast(
        "QuerySet[Booking, tuple[list[str], datetime]]", lapsed.values_list("slots", "payment_due_at")
    )
    return [*withdrawn.values_list("booking__slots", "at"), *lapsed_at]


def with_refund_percent(
    bookings: QuerySet[Booking], *, by: User, now: datetime
) -> "QuerySet[WithAnnotations[Booking, RefundPercent]]":
    """`bookings`, each with `refund_percent`: the share of its payment that `by` cancelling it at
    `now` gives back."""
    if by.is_admin:
        return bookings.annotate(refund_percent=Value(100))
    policy = policy_get()
    cutoff = timedelta(hours=policy.cancel_cutoff_hours)
    early = When(starts_at__gt=now + cutoff, then=Value(policy.refund_percent))
    return bookings.annotate(refund_percent=Case(early, default=Value(policy.late_refund_percent)))


def waitlist_of(*, user: User) -> "QuerySet[WithAnnotations[WaitlistEntry, Position]]":
    """A person's places on waitlists, the soonest first, each with its `position` (None if offered)."""
    ahead = (
        WaitlistEntry.objects.filter(
            Q(created_at__lt=OuterRef("created_at"))
            | Q(created_at=OuterRef("created_at"), id__lt=OuterRef("id")),
            court_id=OuterRef("court_id"),
            date=OuterRef("date"),
            slot=OuterRef("slot"),
            status=WaitlistEntry.Status.WAITING,
        )
        .order_by()
        .values("court_id")
        .annotate(count=Count("pk"))
        .values("count")
    )
    position = Case(
        When(status=WaitlistEntry.Status.WAITING, then=Coalesce(Subquery(ahead), Value(0)) + 1), default=None
    )
    places = user.waitlist.filter(status__in=WaitlistEntry.ACTIVE).select_related("court")
    return places.annotate(position=position).order_by("date", "slot", "id")


def day_occupancy(*, date: date) -> tuple[int, int, int]:
    """One day of the open courts: how many bookings hold slots, how many slots they hold, and how
    many could be booked (as reports.Use counts)."""
    held = BookedSlot.objects.filter(date=date, offer__isnull=True, court__is_archived=False).exclude(
        overdue(via="booking__")
    )
    counts = held.aggregate(
        bookings=Count("booking", distinct=True),
        slots=Count("pk", filter=Q(booking__isnull=False)),
        blocked=Count("pk", filter=Q(block__isnull=False)),
    )
    offered = sum(map(len, Court.objects.filter(is_archived=False).values_list("slots", flat=True)))
    return counts["bookings"], counts["slots"], offered - counts["blocked"]
