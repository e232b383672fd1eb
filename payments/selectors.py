from datetime import date, datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db.models import Count, DecimalField, F, OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce, TruncMonth
from django.utils import timezone

from accounts.models import User
from club.days import period, within_days
from content.models import Coupon

from .models import Payment, Refund


def payment_list(*, viewer: User, email: str = "") -> QuerySet[Payment]:
    """The payments that happened (not the intents still open, nor those cancelled unpaid), with
    their refunds, that `viewer` may see: their own; an admin, everyone's, or one person's with
    `email` (as stored)."""
    payments = Payment.objects.exclude(status__in=[Payment.Status.PENDING, Payment.Status.CANCELLED])
    payments = payments.select_related("user", "coupon", "booking").prefetch_related("refunds")
    if not viewer.is_admin:
        payments = payments.filter(user=viewer)
    if email:
        payments = payments.filter(user__email=email)
    return payments


def coupon_uses(*, coupon: Coupon, user_id: int) -> tuple[int, int]:
    """How many payments succeeded with `coupon`: in all, and by the user `user_id`."""
    uses = Payment.objects.filter(coupon=coupon, status=Payment.Status.SUCCEEDED).aggregate(
        total=Count("pk"), by_person=Count("pk", filter=Q(user_id=user_id))
    )
    return uses["total"], uses["by_person"]


# The payments that took money: kept, or given back since (their refunds count apart).
PAID = [Payment.Status.SUCCEEDED, Payment.Status.REFUNDING, Payment.Status.REFUNDED]


def _taken(start: datetime, end: datetime) -> QuerySet[Payment]:
    """The payments made from `start` up to `end`."""
    return Payment.objects.filter(status__in=PAID, paid_at__gte=start, paid_at__lt=end)


def _given_back(start: datetime, end: datetime) -> QuerySet[Refund]:
    """The refunds made from `start` up to `end`, whenever their payment was."""
    return Refund.objects.filter(status=Refund.Status.SUCCEEDED, refunded_at__gte=start, refunded_at__lt=end)


def net_revenue(*, start: datetime, end: datetime) -> Decimal:
    """What the club took from `start` up to `end`: the payments made then, less the refunds made
    then (whenever their payment was)."""
    total = _taken(start, end).aggregate(total=Sum("amount"))["total"] or Decimal(0)
    return total - (_given_back(start, end).aggregate(total=Sum("amount"))["total"] or Decimal(0))


def revenue_by_month(*, date_from: date, date_to: date) -> dict[date, dict[str, Decimal]]:
    """What the club took in each month (by the club's calendar) from `date_from` to `date_to`, as
    net_revenue counts it: {first day of the month: {"gross", "refunds", "net"}} for the months
    with money moving, in two aggregate queries."""
    start, end = period(date_from, date_to)
    month = TruncMonth("at", tzinfo=timezone.get_current_timezone())

    def by_month(rows: QuerySet, at: str) -> dict[date, Decimal]:
        sums = rows.annotate(at=F(at)).annotate(month=month).order_by().values("month")
        return {row["month"].date(): row["total"] for row in sums.annotate(total=Sum("amount"))}

    gross, refunds = by_month(_taken(start, end), "paid_at"), by_month(_given_back(start, end), "refunded_at")
    zero = Decimal("0.00")
    return {
        month: {
            "gross": gross.get(month, zero),
            "refunds": refunds.get(month, zero),
            "net": gross.get(month, zero) - refunds.get(month, zero),
        }
        for month in sorted(gross.keys() | refunds.keys())
    }


def failed_refunds() -> QuerySet[Refund]:
    """Refunds Stripe refused, waiting for an admin to retry them."""
    return Refund.objects.filter(status=Refund.Status.FAILED)


def late_refunds(*, now: datetime | None = None) -> QuerySet[Refund]:
    """Refunds still pending REFUND_LATE_SECONDS after they were recorded: Stripe has not answered
    the worker's tries for that long (they go on by themselves), or no worker is running."""
    since = (now or timezone.now()) - timedelta(seconds=settings.REFUND_LATE_SECONDS)
    return Refund.objects.filter(status=Refund.Status.PENDING, created_at__lt=since)


def _refunded() -> Subquery:
    """The sum of a payment's refunds made, for an annotation (0 when there are none)."""
    refunds = (
        Refund.objects.filter(payment=OuterRef("pk"), status=Refund.Status.SUCCEEDED)
        .order_by()
        .values("payment")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return Coalesce(
        Subquery(refunds), Value(Decimal(0)), output_field=DecimalField(max_digits=12, decimal_places=2)
    )


def ledger(
    *,
    date_from: date | None = None,
    date_to: date | None = None,
    status: str = "",
    court=None,
    coupon=None,
    email: str = "",
) -> QuerySet[Payment]:
    """The payments that took money (docs/rules.md, The ledger), newest first: paid from
    `date_from` to `date_to` (the club's days, as moments, so the index on paid_at serves them),
    in one `status`, for one court, with one coupon, by people whose e-mail contains `email`."""
    payments = Payment.objects.filter(within_days("paid_at", date_from, date_to), status__in=PAID)
    if status:
        payments = payments.filter(status=status)
    if court:
        payments = payments.filter(booking__court=court)
    if coupon:
        payments = payments.filter(coupon=coupon)
    if email := email.strip():
        payments = payments.filter(user__email__icontains=email)
    return payments.order_by("-paid_at", "-id")


# What a coupon took off a payment: its booking's list price less what was charged.
_DISCOUNT = F("booking__price") - F("amount")


def with_ledger_figures(payments: QuerySet[Payment]) -> QuerySet[Payment]:
    """The ledger's rows, each with `list_price` (its booking's price), `discount_amount`,
    `refunded` (its refunds made) and `net` (what the club kept), and what they show."""
    return payments.select_related("booking", "user", "coupon").annotate(
        list_price=F("booking__price"),
        discount_amount=_DISCOUNT,
        refunded=_refunded(),
        net=F("amount") - F("refunded"),
    )


def ledger_totals(payments: QuerySet[Payment]) -> dict[str, Decimal]:
    """The totals of a filtered ledger, in two sums over its rows: gross (charged), discounts (list
    prices less charged), refunds (made, on those payments) and net (gross less refunds)."""
    zero = Value(Decimal("0.00"))
    totals = payments.order_by().aggregate(
        count=Count("pk"),
        gross=Coalesce(Sum("amount"), zero),
        discounts=Coalesce(Sum(_DISCOUNT), zero),
    )
    made = Refund.objects.filter(status=Refund.Status.SUCCEEDED, payment__in=payments.order_by().values("pk"))
    refunds = made.aggregate(total=Coalesce(Sum("amount"), zero))["total"]
    return {**totals, "refunds": refunds, "net": totals["gross"] - refunds}
