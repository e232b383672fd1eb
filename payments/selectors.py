from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, TruncMonth
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking, Player, Policy
from bookings.selectors import overdue
from kernel.days import between, moments

from .models import Payment, Refund


def payments_due(*, user: User) -> QuerySet[Booking]:
    """A person's approved bookings still waiting for their payment, and, with shared payment,
    those they play in whose share they have not paid; the nearest deadline first, each with
    `shared` (whether each player pays their share). One query: the bookings approved are few."""
    sharing = Exists(Policy.objects.filter(pk=1, price_sharing=Policy.PriceSharing.SHARED))
    plays = Player.objects.filter(booking=OuterRef("pk"), user=user, status=Player.Status.PLAYING)
    paid = Payment.objects.filter(booking=OuterRef("pk"), user=user, status=Payment.Status.SUCCEEDED)
    share_due = sharing & Exists(plays) & ~Exists(paid)
    approved = Booking.objects.filter(status=Booking.Status.APPROVED).exclude(overdue())
    due = approved.filter(Q(user=user) | share_due).annotate(shared=sharing)
    return due.order_by("payment_due_at", "id")


def payment_list(*, viewer: User, email: str = "") -> QuerySet[Payment]:
    """The payments that took money, with their refunds and shown status, that `viewer` may see:
    their own; an admin, everyone's, or those of `email`."""
    payments = Payment.objects.exclude(status__in=[Payment.Status.PENDING, Payment.Status.CANCELLED])
    payments = payments.select_related(
        "user", "coupon", "booking", "membership__plan", "registration__program"
    )
    payments = payments.prefetch_related("refunds")
    if not viewer.is_admin:
        payments = payments.filter(user=viewer)
    if email:
        payments = payments.filter(user__email=email)
    return with_paid_status(payments)


_MONEY = models.DecimalField(max_digits=12, decimal_places=2)
# The payments that took money: kept, or given back since (their refunds count apart).
PAID = [Payment.Status.SUCCEEDED, Payment.Status.REFUNDING, Payment.Status.REFUNDED]


class PaidStatus(models.TextChoices):
    """The status a payment that took money shows: its own, with its refunds read in (one refunded
    for a cancellation stays `succeeded` in its row)."""

    SUCCEEDED = "succeeded", "Succeeded"
    PARTIALLY_REFUNDED = "partially_refunded", "Partially refunded"
    REFUNDING = "refunding", "Refunding"
    REFUNDED = "refunded", "Refunded"


def with_paid_status(rows: QuerySet[Any], payment: str = "") -> QuerySet[Any]:
    """`rows` (payments, or rows with a path `payment` to one) with `refunded` (the sum of the
    payment's refunds made, 0 when there are none) and `paid_status`."""
    refunds = (
        Refund.objects.filter(payment=models.OuterRef(f"{payment}pk"), status=Refund.Status.SUCCEEDED)
        .order_by()
        .values("payment")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    rows = rows.annotate(refunded=Coalesce(models.Subquery(refunds), Value(Decimal(0)), output_field=_MONEY))
    status, amount = f"{payment}status", F(f"{payment}amount")
    with_status: QuerySet[Any] = rows.annotate(
        paid_status=models.Case(
            models.When(
                Q(**{status: Payment.Status.REFUNDED}) | Q(refunded__gte=amount),
                then=Value(PaidStatus.REFUNDED),
            ),
            models.When(
                Q(**{status: Payment.Status.SUCCEEDED}, refunded__gt=0),
                then=Value(PaidStatus.PARTIALLY_REFUNDED),
            ),
            default=F(status),
        )
    )
    return with_status


@dataclass(frozen=True)
class Takings:
    """The money that moved in a period (docs/rules.md, Net): the payments made in it and the
    refunds made in it, whenever their payment was."""

    count: int = 0
    gross: Decimal = Decimal("0.00")
    refunds: Decimal = Decimal("0.00")

    @property
    def net(self) -> Decimal:
        return self.gross - self.refunds

    def __add__(self, other: "Takings") -> "Takings":
        return Takings(*(mine + theirs for mine, theirs in zip(astuple(self), astuple(other), strict=True)))

    def __sub__(self, other: "Takings") -> "Takings":
        return Takings(*(mine - theirs for mine, theirs in zip(astuple(self), astuple(other), strict=True)))


class Kind(models.TextChoices):
    """What a payment paid for: a booking, a period of a membership, or a place in a program."""

    BOOKING = "booking", "Booking"
    MEMBERSHIP = "membership", "Membership"
    REGISTRATION = "registration", "Registration"


def _kind(payment: str = "") -> models.Case:
    """The Kind of a payment (or of the payment at the path `payment`), from its own row: a payment
    is for a membership or a registration, or else for a booking (its table's constraint)."""
    return models.Case(
        models.When(**{f"{payment}membership__isnull": False}, then=Value(Kind.MEMBERSHIP.value)),
        models.When(**{f"{payment}registration__isnull": False}, then=Value(Kind.REGISTRATION.value)),
        default=Value(Kind.BOOKING.value),
        output_field=models.CharField(),
    )


# What a coupon took off a payment: its booking's list price less what was charged (none off a
# membership's, which takes no coupon).
_DISCOUNT = F("booking__price") - F("amount")


def _refunds_made(*, of: QuerySet[Payment] | None) -> QuerySet[Refund]:
    """The refunds made of the payments `of`, or of any."""
    made = Refund.objects.filter(status=Refund.Status.SUCCEEDED)
    return made if of is None else made.filter(payment__in=of.values("pk"))


def takings_by_month(
    *, start: datetime | None = None, end: datetime | None = None, payments: QuerySet[Payment] | None = None
) -> dict[date, Takings]:
    """The takings from `start` up to `end` (either open) in each month of the club's calendar that
    had money moving, of all the payments or of `payments` only: the one count of net that the
    dashboard, the reports and the ledger show."""
    month = TruncMonth("at", tzinfo=timezone.get_current_timezone())

    def by_month(rows: QuerySet[Any], at: str, **sums: Sum | Count) -> dict[date, dict[str, Any]]:
        rows = rows.filter(between(at, start, end)).annotate(at=F(at)).annotate(month=month)
        return {row.pop("month").date(): row for row in rows.order_by().values("month").annotate(**sums)}

    taken = Payment.objects.filter(status__in=PAID) if payments is None else payments
    paid = by_month(taken, "paid_at", count=Count("pk"), gross=Sum("amount"))
    refunds = by_month(_refunds_made(of=payments), "refunded_at", refunds=Sum("amount"))
    return {
        month: Takings(**paid.get(month, {}), **refunds.get(month, {}))
        for month in sorted(paid.keys() | refunds.keys())
    }


def takings_by_month_and_kind(
    *, start: datetime | None = None, end: datetime | None = None, payments: QuerySet[Payment] | None = None
) -> dict[date, dict[Kind, Takings]]:
    """takings_by_month, each month's apart for each Kind. The memberships' and the registrations'
    are summed on their own (a few among many) and the bookings' are the rest: grouping every
    payment by its kind cost the reports a fifth more time than that."""
    taken = Payment.objects.filter(status__in=PAID) if payments is None else payments
    every = takings_by_month(start=start, end=end, payments=payments)
    memberships = takings_by_month(start=start, end=end, payments=taken.filter(membership__isnull=False))
    registrations = takings_by_month(start=start, end=end, payments=taken.filter(registration__isnull=False))
    return {
        month: {
            Kind.BOOKING: month_takings
            - memberships.get(month, Takings())
            - registrations.get(month, Takings()),
            Kind.MEMBERSHIP: memberships.get(month, Takings()),
            Kind.REGISTRATION: registrations.get(month, Takings()),
        }
        for month, month_takings in every.items()
    }


@dataclass(frozen=True)
class ProgramTakings:
    program_id: int
    title: str
    takings: Takings


def takings_by_program(*, start: datetime | None = None, end: datetime | None = None) -> list[ProgramTakings]:
    """The registrations' takings from `start` up to `end`, each program's apart (docs/rules.md,
    Reports), the largest net first: two queries, the payments and the refunds grouped by program."""
    program = "registration__program_id"
    paid = (
        Payment.objects.filter(status__in=PAID, registration__isnull=False)
        .filter(between("paid_at", start, end))
        .order_by()
        .values(program, "registration__program__title")
        .annotate(count=Count("pk"), gross=Sum("amount"))
    )
    refunds = (
        _refunds_made(of=None)
        .filter(payment__registration__isnull=False)
        .filter(between("refunded_at", start, end))
        .order_by()
        .values(f"payment__{program}", "payment__registration__program__title")
        .annotate(refunds=Sum("amount"))
    )
    titles: dict[int, str] = {}
    figures: dict[int, Takings] = {}
    for row in paid:
        titles[row[program]] = row["registration__program__title"]
        figures[row[program]] = Takings(count=row["count"], gross=row["gross"])
    for row in refunds:
        key = row[f"payment__{program}"]
        titles[key] = row["payment__registration__program__title"]
        figures[key] = figures.get(key, Takings()) + Takings(refunds=row["refunds"])
    shown = [ProgramTakings(key, titles[key], figures[key]) for key in figures]
    return sorted(shown, key=lambda one: (-one.takings.net, one.title))


def takings(
    *, start: datetime | None = None, end: datetime | None = None, payments: QuerySet[Payment] | None = None
) -> Takings:
    """The takings from `start` up to `end`, all months together."""
    return sum(takings_by_month(start=start, end=end, payments=payments).values(), Takings())


def failed_refunds() -> QuerySet[Refund]:
    """Refunds Stripe refused, waiting for an admin to retry them."""
    return Refund.objects.filter(status=Refund.Status.FAILED)


def late_refunds(*, now: datetime | None = None) -> QuerySet[Refund]:
    """Refunds still not made REFUND_LATE_SECONDS after they were recorded: Stripe has not answered
    for that long, or no worker is running."""
    since = (now or timezone.now()) - timedelta(seconds=settings.REFUND_LATE_SECONDS)
    return Refund.objects.filter(
        status__in=[Refund.Status.PENDING, Refund.Status.SENDING], created_at__lt=since
    )


def _entries(
    rows: QuerySet[Any], payment: str, **fields: models.Expression | F
) -> QuerySet[Any, dict[str, Any]]:
    """The ledger's columns of `rows` (payments, or refunds with a path `payment` to theirs), with
    `fields` that differ between the two. The names are none of the models' fields, which a column
    may not take."""
    return rows.order_by().values(
        **fields,
        payment_number=F(f"{payment}pk"),
        payment_paid_at=F(f"{payment}paid_at"),
        person=F(f"{payment}user__email"),
        person_name=F(f"{payment}user__name"),
        paid_for=_kind(payment),
        booking_number=F(f"{payment}booking_id"),
        court_name=F(f"{payment}booking__court_name"),
        booking_date=F(f"{payment}booking__date"),
        slots=F(f"{payment}booking__slots"),
        membership_number=F(f"{payment}membership_id"),
        plan_name=F(f"{payment}membership__plan__name"),
        period_from=F(f"{payment}period_start"),
        period_to=F(f"{payment}period_end"),
        program_number=F(f"{payment}registration__program_id"),
        program_title=F(f"{payment}registration__program__title"),
        coupon_code=F(f"{payment}coupon__code"),
        currency_code=F(f"{payment}currency"),
        shown_status=F("paid_status"),
        intent_id=F(f"{payment}payment_intent_id"),
        invoice_id=F(f"{payment}stripe_invoice_id"),
    )


# The ledger's filters beside its period, and the payments' field each looks up.
LEDGER_FILTERS = {
    "kind": "payment_kind",
    "status": "paid_status",
    "court": "booking__court",
    "coupon": "coupon",
    "email": "user__email__icontains",
}
# The ledger's order: newest first, a payment before its refunds made at the same moment.
_NEWEST_FIRST = ("-at", "-payment_number", "-refund_number")


class Ledger:
    """The ledger for its filters (docs/rules.md, The ledger): its entries and their totals; a
    sequence of its entries for a Paginator."""

    def __init__(self, *, date_from: date | None = None, date_to: date | None = None, **filters: object):
        """`filters`: those of LEDGER_FILTERS that are set (LedgerFilters.filters)."""
        self.start, self.end = moments(date_from, date_to)
        chosen = {LEDGER_FILTERS[name]: value for name, value in filters.items() if value}
        paid = with_paid_status(Payment.objects.filter(status__in=PAID)).alias(payment_kind=_kind())
        self.payments = paid.filter(**chosen)
        # The payments the filters choose, if they choose some.
        self.chosen = self.payments if chosen else None

    def _made(self) -> tuple[QuerySet[Payment], QuerySet[Refund]]:
        """The payments paid and the refunds made in the period, that the filters choose."""
        paid = self.payments.filter(between("paid_at", self.start, self.end))
        return paid, _refunds_made(of=self.chosen).filter(between("refunded_at", self.start, self.end))

    def entries(self, *, keys: Sequence[Mapping[str, Any]] | None = None) -> QuerySet[Any, dict[str, Any]]:
        """The entries, newest first, as dicts: a payment when it was paid, a refund (its `money`
        below zero) when it was made; only those of `keys`, if given (a page's, from `__getitem__`)."""
        paid, refunds = self._made()
        if keys is not None:
            paid = paid.filter(pk__in=[key["payment_number"] for key in keys if key["refund_number"] is None])
            refunds = refunds.filter(pk__in=[key["refund_number"] for key in keys if key["refund_number"]])
        paid_entries = _entries(
            paid,
            "",
            kind=Value("payment"),
            at=F("paid_at"),
            money=F("amount"),
            # A membership's period has no price but what was charged for it.
            list_price=Coalesce(F("booking__price"), F("amount")),
            coupon_discount=_DISCOUNT,
            refund_number=Value(None, output_field=models.IntegerField()),
            refund_stripe_id=Value(""),
        )
        given_back = _entries(
            with_paid_status(refunds, "payment__"),
            "payment__",
            kind=Value("refund"),
            at=F("refunded_at"),
            money=-F("amount"),
            list_price=Value(None, output_field=_MONEY),
            coupon_discount=Value(None, output_field=_MONEY),
            refund_number=F("pk"),
            refund_stripe_id=F("stripe_refund_id"),
        )
        return paid_entries.union(given_back, all=True).order_by(*_NEWEST_FIRST)

    def count(self) -> int:
        """How many entries there are, counted without their details."""
        paid, refunds = self._made()
        return paid.order_by().values("pk").union(refunds.order_by().values("pk"), all=True).count()

    def __getitem__(self, page: slice) -> list[dict[str, Any]]:
        """A page of the entries, as a Paginator asks: the page's entries are chosen by when they
        were made alone, and only theirs joined to their details (sorting a month's thousands of
        entries with them all joined was most of the ledger's time)."""
        paid, refunds = self._made()
        number = models.IntegerField()
        keys = (
            paid.order_by()
            .values(at=F("paid_at"), payment_number=F("pk"), refund_number=Value(None, output_field=number))
            .union(
                refunds.order_by().values(
                    at=F("refunded_at"), payment_number=F("payment"), refund_number=F("pk")
                ),
                all=True,
            )
        )
        return list(self.entries(keys=list(keys.order_by(*_NEWEST_FIRST)[page])))

    def totals(self) -> dict[Kind, Takings]:
        """The totals of each kind (one that moved no money at nought)."""
        months = takings_by_month_and_kind(start=self.start, end=self.end, payments=self.chosen).values()
        return {kind: sum((kinds[kind] for kinds in months), Takings()) for kind in Kind}

    def discounts(self) -> Decimal:
        """What coupons took off the payments paid in the period. Apart from the takings, which
        need no list price: only the ledger shows it, and joining each payment to its booking for
        it was most of the reports' and the dashboard's count of a year's takings."""
        paid, _ = self._made()
        total: Decimal = paid.aggregate(
            total=Coalesce(Sum(_DISCOUNT), Value(Decimal(0)), output_field=_MONEY)
        )["total"]
        return total
