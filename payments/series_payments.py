"""Paying a series at once (docs/rules.md, Series): its organiser pays every approved date still
unpaid with one card payment. Each date has its own payment row, for what that date costs them,
all naming the one PaymentIntent: each date is confirmed, kept or refunded on its own, as if it
had been paid alone (payments.services), and the person has one receipt."""

from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction

from accounts.models import User
from bookings.models import Booking, Series
from bookings.selectors import overdue, policy_get
from bookings.series import paid_at_once
from kernel.errors import Conflict, Forbidden
from kernel.money import to_cents

from .models import Payment
from .services import (
    MINIMUM_CHARGE_CENTS,
    OPEN_INTENT_STATES,
    OPEN_TRIES,
    PAID_INTENT_STATES,
    STARTED_MEANWHILE,
    _intent_create,
    _stripe_intent,
    amount_due,
    payment_cancel,
    payment_confirm,
)

NOTHING_DUE = "No date of this series waits for its payment."


def series_due(*, series: Series, payer: User) -> list[tuple[Booking, Decimal]]:
    """The approved dates of the series that its organiser pays now, in date order, each with what
    they pay for it (amount_due: with players paying their shares, the organiser's own)."""
    if not paid_at_once(policy_get()):
        raise Conflict("Each date of a series is paid on its own, from its page.")
    if payer.pk != series.user_id:
        raise Forbidden("Only the series' organiser pays for it at once.")
    approved = (
        series.occurrences.filter(status=Booking.Status.APPROVED, court__is_archived=False)
        .exclude(overdue())
        .select_related("court", "user")
        .order_by("date", "id")
    )
    due = [(booking, amount_due(booking=booking, payer=payer)) for booking in approved]
    return [(booking, amount) for booking, amount in due if amount]


def series_payment_intent_create(*, user: User, series: Series) -> str | None:
    """The client secret of the one open PaymentIntent for every approved date of `user`'s series
    still unpaid (series_due), at the server's amounts."""
    due = series_due(series=series, payer=user)
    if not due:
        raise Conflict(NOTHING_DUE)
    if to_cents(sum((amount for _, amount in due), Decimal(0))) < MINIMUM_CHARGE_CENTS:
        raise Conflict("There is too little left to pay by card.")
    rows, client_secret = _payments_open(series=series, user=user, due=due)
    return client_secret or _intent_create(payment=rows[0], together=rows)


def _payments_open(
    *, series: Series, user: User, due: list[tuple[Booking, Decimal]]
) -> tuple[list[Payment], str | None]:
    """The pending payments of the series' `due` dates, one per date, with their intent's client
    secret if they have one; those for other dates or amounts, or whose intent Stripe cancelled or
    does not know, are replaced, as is a date's own pending payment. One paid is a Conflict."""
    terms = {(booking.pk, amount) for booking, amount in due}
    for _ in range(OPEN_TRIES):
        current = list(
            Payment.objects.filter(series=series, user=user, status=Payment.Status.PENDING).order_by("pk")
        )
        if current:
            intent = _stripe_intent(current[0])
            if intent is not None and intent.status in PAID_INTENT_STATES:
                if intent.status != "succeeded":
                    raise Conflict("This series has been paid already: the payment is being confirmed.")
                payment_confirm(payment_intent_id=intent.id)
                raise Conflict("This series has been paid already: it is confirmed.")
            same_terms = {(row.booking_id, row.amount) for row in current} == terms
            reusable = intent.status in OPEN_INTENT_STATES if intent else not current[0].payment_intent_id
            if same_terms and reusable:
                return current, intent.client_secret if intent else ""
            payment_cancel(payment_id=current[0].pk)  # with the others paid together
        # A date's own payment, opened on its page before the policy paid series at once, gives way.
        alone = Payment.objects.filter(
            booking__in=[booking for booking, _ in due], user=user, series=None, status=Payment.Status.PENDING
        )
        for payment_id in alone.values_list("pk", flat=True):
            payment_cancel(payment_id=payment_id)
        try:
            with transaction.atomic():
                rows = [
                    Payment.objects.create(
                        booking=booking, series=series, user=user, amount=amount, currency=settings.CURRENCY
                    )
                    for booking, amount in due
                ]
        except IntegrityError:  # another request's payments are pending now
            continue
        return rows, ""
    raise Conflict(STARTED_MEANWHILE)
