from datetime import date, datetime, timedelta

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from courts.models import Court

from .models import BookedSlot, Booking, BookingStatusChange, CalendarFeed, Policy, WaitlistEntry

Status = Booking.Status


def overdue(now: datetime | None = None, *, via: str = "") -> Q:
    """Bookings whose wait is over (`via`: the path to the booking from another model): approvals
    unpaid past their payment deadline (`payment_due_at`), and requests nobody decided on within
    the policy's decision window or before their first slot began. They count as expired from that
    moment: lists leave them out and their slots are free, although the row changes only when
    `bookings.services.bookings_expire` runs."""
    now = now or timezone.now()

    def on(**lookups) -> Q:
        return Q(**{f"{via}{field}": value for field, value in lookups.items()})

    unpaid = on(status=Status.APPROVED, payment_due_at__lt=now)
    undecided = on(status=Status.PENDING) & (
        on(created_at__lte=Value(now) - _decision_window()) | on(starts_at__lte=now)
    )
    return unpaid | undecided


def _decision_window() -> CombinedExpression:
    """The policy's decision window, read by the query that needs it, so that a list of bookings
    costs no query more for it (a new club's default until its policy row is made)."""
    hours = Policy.objects.filter(pk=1).values("decision_window_hours")
    default = Policy._meta.get_field("decision_window_hours").default
    return Coalesce(Subquery(hours), Value(default)) * Value(timedelta(hours=1))


def open_bookings(*, user: User) -> QuerySet[Booking]:
    """A person's bookings that wait for a decision or a payment, and may still get it."""
    return Booking.objects.filter(user=user, status__in=[Status.PENDING, Status.APPROVED]).exclude(overdue())


def bookings_visible_to(user: User) -> QuerySet[Booking]:
    """The bookings a person may see: their own; an admin, everyone's."""
    bookings = Booking.objects.select_related("user", "court")
    return bookings if user.is_admin else bookings.filter(user=user)


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
    """Bookings in `status` that `viewer` may see, in date order; optionally only one person's
    (`email`, as stored), those of people whose e-mail contains `email_contains`, of courts whose
    name contains `title`, of one `court`, on one `date` or from `date_from` to `date_to`. Overdue
    ones are left out: they have expired in all but name."""
    bookings = bookings_visible_to(viewer).filter(status=status)
    if status in (Status.PENDING, Status.APPROVED):
        bookings = bookings.exclude(overdue())
    if email:
        bookings = bookings.filter(user__email=email)
    if email_contains := email_contains.strip():
        bookings = bookings.filter(user__email__icontains=email_contains)
    if title := title.strip():
        bookings = bookings.filter(court_name__icontains=title)
    if court:
        bookings = bookings.filter(court=court)
    if date:
        bookings = bookings.filter(date=date)
    if date_from:
        bookings = bookings.filter(date__gte=date_from)
    if date_to:
        bookings = bookings.filter(date__lte=date_to)
    return bookings.order_by("date", "id")


def offer_run_out(now: datetime | None = None, *, via: str = "") -> Q:
    """Waitlist offers whose hold is over (`via`: the path to the entry from another model): their
    slots are free from that moment, although the entry lapses only when
    `bookings.waitlist.waitlist_pass_on` runs."""
    return Q(
        **{f"{via}status": WaitlistEntry.Status.OFFERED, f"{via}offer_expires_at__lte": now or timezone.now()}
    )


def taken_slots(*, court_id: int, date) -> list[str]:
    """The slots of a court held on a date (overdue bookings and run-out offers hold none)."""
    now = timezone.now()
    held = BookedSlot.objects.filter(court_id=court_id, date=date).exclude(
        overdue(now, via="booking__") | offer_run_out(now, via="offer__")
    )
    return list(held.values_list("slot", flat=True))


def own_bookings(user: User) -> QuerySet[Booking]:
    """A person's own bookings, whatever their role (paying is only ever for oneself)."""
    return Booking.objects.select_related("user", "court").filter(user=user)


def with_shown_status(bookings: QuerySet[Booking]) -> QuerySet[Booking]:
    """`bookings`, each with `shown_status` (an overdue one is expired, as everywhere: `overdue`),
    and `changed_at` and `reason`, from its latest status change (the reason an admin gave)."""
    latest = BookingStatusChange.objects.filter(booking=OuterRef("pk")).order_by("-at", "-id")
    return bookings.annotate(
        shown_status=Case(When(overdue(), then=Value(Status.EXPIRED)), default=F("status")),
        changed_at=Subquery(latest.values("at")[:1]),
        reason=Subquery(latest.values("reason")[:1]),
    )


def own_booking_list(*, user: User, status: str = "") -> QuerySet[Booking]:
    """Every booking of a person, whatever became of it (or only those shown in `status`), the
    latest first, with_shown_status."""
    bookings = with_shown_status(own_bookings(user))
    if status:
        bookings = bookings.filter(shown_status=status)
    return bookings.order_by("-date", "-id")


def with_payment(bookings: QuerySet[Booking]) -> QuerySet[Booking]:
    """`bookings`, each with what its succeeded payment charged: `paid_amount`, and `paid_coupon`
    (the code) and `paid_discount` (its percent) if a coupon was used; None where nothing was paid.
    (A booking has at most one succeeded payment: payments refunds any other. The payments app
    builds on this one, so its rows are reached by their relation's name, not imported.) Subqueries
    rather than a join, so that counting the bookings (a page's total) reads the bookings alone."""
    payments = Booking._meta.get_field("payments").related_model.objects
    paid = payments.filter(booking=OuterRef("pk"), status="succeeded")
    return bookings.annotate(
        paid_amount=Subquery(paid.values("amount")[:1]),
        paid_coupon=Subquery(paid.values("coupon__code")[:1]),
        paid_discount=Subquery(paid.values("discount")[:1]),
    )


def with_calendar_fields(bookings: QuerySet[Booking]) -> QuerySet[Booking]:
    """`bookings`, each with what its calendar event needs (bookings/calendar.py): `sequence`, the
    number of status changes since it was first confirmed (its event's revision), and `changed_at`,
    its latest change (else its creation)."""
    history = BookingStatusChange.objects.filter(booking=OuterRef("pk"))
    first_confirmed = history.filter(to_status=Status.CONFIRMED).order_by("at", "id").values("at")[:1]
    latest = history.order_by("-at", "-id").values("at")[:1]
    return bookings.annotate(
        confirmed_at=Subquery(first_confirmed),
        sequence=Count("history", filter=Q(history__at__gt=F("confirmed_at"))),
        changed_at=Coalesce(Subquery(latest), F("created_at")),
    )


def calendar_bookings(*, user: User) -> QuerySet[Booking]:
    """A person's bookings for their calendar: every one that is or has been confirmed (one that
    stopped being confirmed stays, so that calendars learn it is cancelled), with_calendar_fields,
    in date order."""
    ever_confirmed = Exists(
        BookingStatusChange.objects.filter(booking=OuterRef("pk"), to_status=Status.CONFIRMED)
    )
    bookings = Booking.objects.filter(Q(status=Status.CONFIRMED) | ever_confirmed, user=user)
    return with_calendar_fields(bookings).order_by("date", "id")


def calendar_feed_by_secret(secret: str) -> QuerySet[CalendarFeed]:
    """The feed a secret opens, with its owner (none once the secret has been replaced)."""
    return CalendarFeed.objects.select_related("user").filter(secret=secret)


def policy_get() -> Policy:
    """The club's booking policy; the first read makes it, with a new club's rules."""
    return Policy.objects.get_or_create(pk=1)[0]


def held_slots_of(*, user: User, date: date) -> QuerySet:
    """The slots a person's bookings hold on a day (whatever the court), overdue ones aside."""
    return (
        BookedSlot.objects.filter(booking__user=user, date=date)
        .exclude(overdue(via="booking__"))
        .values_list("slot", flat=True)
    )


def slots_let_go(
    *, user: User, court: Court, date: date, since: datetime
) -> list[tuple[list[str], datetime]]:
    """The slots of `court` on `date` that `user` let go of after `since`, each booking's with when:
    withdrawn or cancelled by the person while unpaid, or left unpaid past the payment window or
    checkout hold (`overdue`, whether or not it has expired by name yet)."""
    withdrawn = BookingStatusChange.objects.filter(
        booking__user=user,
        booking__court=court,
        booking__date=date,
        from_status__in=[Status.PENDING, Status.APPROVED],
        to_status=Status.CANCELLED,
        by=user,
        at__gt=since,
    ).values_list("booking__slots", "at")
    lapsed = Booking.objects.filter(
        user=user,
        court=court,
        date=date,
        status__in=[Status.APPROVED, Status.EXPIRED],
        payment_due_at__gt=since,
        payment_due_at__lt=timezone.now(),
    ).values_list("slots", "payment_due_at")
    return [*withdrawn, *lapsed]


def with_refund_percent(bookings: QuerySet[Booking], *, by: User, now: datetime) -> QuerySet[Booking]:
    """`bookings`, each with `refund_percent`: the share of its payment that cancelling it at `now`
    gives back (docs/rules.md, Cancelling). All of it when an admin (the club) cancels; for its
    owner, the policy's share before its cut-off, and its late share from the cut-off on. In SQL,
    so that a page of bookings costs no query more."""
    if by.is_admin:
        return bookings.annotate(refund_percent=Value(100))
    policy = policy_get()
    cutoff = timedelta(hours=policy.cancel_cutoff_hours)
    return bookings.annotate(
        refund_percent=Case(
            When(starts_at__gt=now + cutoff, then=Value(policy.refund_percent)),
            default=Value(policy.late_refund_percent),
        )
    )


def waitlist_line(*, court_id: int, date: date, slot: str) -> QuerySet[WaitlistEntry]:
    """The people waiting for one slot, the first in line first."""
    return WaitlistEntry.objects.filter(
        court_id=court_id, date=date, slot=slot, status=WaitlistEntry.Status.WAITING
    ).order_by("created_at", "id")


def waitlist_of(*, user: User) -> QuerySet[WaitlistEntry]:
    """A person's places on waitlists (waiting or offered), the soonest slot first, each with its
    `position`: 1 for the next in line when the slot frees, 2 behind them and so on (None for an
    offered entry: the slot is held for them)."""
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
    return (
        WaitlistEntry.objects.filter(user=user, status__in=WaitlistEntry.ACTIVE)
        .select_related("court")
        .annotate(position=position)
        .order_by("date", "slot", "id")
    )


def day_occupancy(*, date: date) -> tuple[int, int, int]:
    """One day of the open courts: how many bookings hold slots that day, how many slots they
    hold, and how many slots could be booked: those the open courts offer, less those blocks close
    (as in the reports, bookings.reports.Use). Overdue bookings hold nothing."""
    held = BookedSlot.objects.filter(date=date, offer__isnull=True, court__is_archived=False).exclude(
        overdue(via="booking__")
    )
    counts = held.aggregate(
        bookings=Count("booking", distinct=True),
        slots=Count("pk", filter=Q(booking__isnull=False)),
        blocked=Count("pk", filter=Q(block__isnull=False)),
    )
    offered = sum(
        len(slots) for slots in Court.objects.filter(is_archived=False).values_list("slots", flat=True)
    )
    return counts["bookings"], counts["slots"], offered - counts["blocked"]
