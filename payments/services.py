"""Paying for a booking: the quote (with a coupon), the PaymentIntent, the confirmation that
Stripe, not the browser, vouches for, and refunds.

No transaction is open while Stripe is asked anything. Each step first commits on its row what is
under way (a pending payment, a refund claimed for sending), asks Stripe with an idempotency key
made from the row's id, then records the answer in a short transaction, on the condition that the
row still stands as it was. The rows' states (one pending payment per booking, one claim per
refund) and the keys keep simultaneous callers apart; a step tried again finds the row's state,
checks what Stripe did already, and never moves money twice. What a crash leaves half done is
finished by the worker (refunds_send_stalled, payments_reconcile).
"""

import logging
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, TypedDict, Unpack, cast

import stripe
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, DurationField, ExpressionWrapper, F, Q
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import user_make_member
from audit.services import audit_record
from bookings.models import Booking
from bookings.selectors import policy_get
from bookings.series import pays_with_series
from bookings.services import booking_confirm, booking_share_paid
from bookings.shares import Share, booking_shares, left_to_pay, payers, shared, shares_shown
from kernel.errors import Conflict, Forbidden
from kernel.money import discounted, round_money, to_cents
from kernel.retries import backoff
from memberships.models import Membership
from memberships.selectors import club_sells_memberships
from memberships.services import membership_period_paid
from programs.models import Registration
from programs.services import registration_confirm

from . import gateway, notices
from .coupons import normalised_code
from .models import NOT_ON_OFFER, Coupon, Payment, Refund

# Stripe charges no less than this, in cents, for US dollars.
MINIMUM_CHARGE_CENTS = 50
# A PaymentIntent in one of these states can still be paid (and is reused).
OPEN_INTENT_STATES = {"requires_payment_method", "requires_confirmation", "requires_action"}
# One in these has been paid, or is being: it is confirmed (or refunded), never replaced.
PAID_INTENT_STATES = {"processing", "requires_capture", "succeeded"}
COUPON_REFUSED = "{refusal} Your payment has been refunded: you can pay for this booking again."
BOOKING_LOST = "The booking was cancelled, or its slots were taken, before the payment arrived."
PAID_IN_FULL = "The booking had been paid in full before this payment arrived."
DUE_CHANGED = (
    "What you owe for this booking changed before the payment arrived (its players or guests "
    "changed, or someone paid): your payment is refunded, and you can pay what is due now."
)
MEMBERSHIP_LOST = "The membership had ended before the payment arrived."
PAYMENT_FORGOTTEN = "Stripe has no record of this payment, so nothing was charged. Please pay again."
# The most pending payments one run of payments_reconcile compares with Stripe.
RECONCILE_BATCH = 100

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Quote:
    price: Decimal
    coupon: Coupon | None
    discount: int
    total: Decimal

    @property
    def total_cents(self) -> int:
        return to_cents(self.total)

    @property
    def coupon_id(self) -> int | None:
        return self.coupon.pk if self.coupon else None


def _coupon_refusal(*, coupon: Coupon, user_id: int) -> str:
    """Coupon.refusal, counting the payments that succeeded with it: in all, and by `user_id`."""
    uses = Payment.objects.filter(coupon=coupon, status=Payment.Status.SUCCEEDED).aggregate(
        uses=Count("pk"), uses_by_person=Count("pk", filter=Q(user_id=user_id))
    )
    return coupon.refusal(today=timezone.localdate(), **uses)


def amount_due(*, booking: Booking, payer: User) -> Decimal:
    """What `payer` pays of `booking` now (docs/rules.md, Paying together): a player their share;
    the organiser their own and their guests', or, once they have paid those or been asked to,
    whatever is still left."""
    policy = policy_get()
    return _owed(booking, payer, booking_shares(booking, policy=policy), payers(booking), shared(policy))


def _owed(booking: Booking, payer: User, shares: list[Share], paid_by: set[int], sharing: bool) -> Decimal:
    """amount_due, from the booking's `shares` and the people who have paid for it."""
    if _pays_the_rest(booking, payer.pk, paid_by):
        return left_to_pay(shares, paid_by)
    if payer.pk != booking.user_id:
        if not sharing or all(share.payer_id != payer.pk for share in shares):
            raise Forbidden("Only the booking's organiser pays for it.")
        if payer.pk in paid_by:
            raise Conflict("You have paid your share of this booking already.")
    return sum((share.amount for share in shares if share.payer_id == payer.pk), Decimal(0))


@dataclass(frozen=True)
class SharesQuote:
    """Each player's share of a booking, whether it is paid, and what `viewer` pays now."""

    sharing: str
    price: Decimal
    guest_fees: Decimal
    shares: list[dict[str, object]]
    you_pay: Decimal | None
    pay_url: str


def shares_quote(*, booking: Booking, viewer: User) -> SharesQuote:
    """What each player of `booking` pays (docs/rules.md, Paying together), for one who may see
    the booking."""
    policy = policy_get()
    you_pay = None
    if booking.status == Booking.Status.APPROVED:
        with suppress(Conflict, Forbidden):  # a share paid, or nothing to pay for this viewer
            you_pay = amount_due(booking=booking, payer=viewer) or None
    return SharesQuote(
        sharing=policy.price_sharing,
        price=booking.price,
        guest_fees=booking.guest_fees,
        shares=shares_shown(booking, policy=policy),
        you_pay=you_pay,
        pay_url=reverse("payments:pay", args=[booking.pk]) if you_pay else "",
    )


def _pays_the_rest(booking: Booking, payer_id: int, paid_by: set[int]) -> bool:
    """Whether the organiser pays what is left: once they have paid their own part, or been asked to."""
    return payer_id == booking.user_id and (payer_id in paid_by or booking.rest_asked_at is not None)


def payment_quote(*, booking: Booking, payer: User, coupon_code: str = "") -> Quote:
    """What `payer` pays for `booking` now (amount_due), with the coupon `coupon_code` if they may
    use it now."""
    coupon = None
    if code := normalised_code(coupon_code):
        coupon = Coupon.objects.filter(code=code).first()
        if coupon is None:
            raise ValidationError({"couponCode": NOT_ON_OFFER.format(code=code)})
        if refusal := _coupon_refusal(coupon=coupon, user_id=payer.pk):
            raise ValidationError({"couponCode": refusal})
    price = amount_due(booking=booking, payer=payer)
    discount = coupon.discount if coupon else 0
    total = discounted(price, discount)
    if to_cents(total) < MINIMUM_CHARGE_CENTS:
        too_little = "With this coupon there is" if coupon else "There is"
        raise ValidationError({"couponCode": f"{too_little} too little left to pay by card."})
    return Quote(price=price, coupon=coupon, discount=discount, total=total)


def payment_intent_create(
    *, user: User, booking: Booking, coupon_code: str = "", amount_cents: int | None = None
) -> str | None:
    """The client secret of `user`'s one open PaymentIntent for what they pay of an approved
    booking (their own, or their share of one they play in), for the server's amount (the
    client's, if different, is refused)."""
    if booking.status != Booking.Status.APPROVED:
        raise Conflict(
            f"This booking is {booking.get_status_display().lower()}: only an approved booking is paid."
        )
    if booking.court.is_archived:
        raise Conflict("This court is closed for booking (archived), so the booking cannot be paid.")
    if pays_with_series(booking, user.pk, policy_get()):
        raise Conflict(
            "This date is paid with the rest of its series, at once, from the series' payment page."
        )
    quote = payment_quote(booking=booking, payer=user, coupon_code=coupon_code)
    if amount_cents is not None and amount_cents != quote.total_cents:
        raise ValidationError({"amountInCents": f"The amount to pay is {quote.total_cents} cents."})
    payment, client_secret = _payment_open(paying_for={"booking": booking}, user=user, quote=quote)
    return client_secret or _intent_create(payment=payment)


STARTED_MEANWHILE = "Another payment for this was started at the same time. Please try again."
# How often _payment_open looks again when payments for one booking are started at the same moment.
OPEN_TRIES = 3


def _payment_open(
    *, paying_for: dict[str, Booking | Membership | Registration], user: User, quote: Quote
) -> tuple[Payment, str | None]:
    """The pending payment for `paying_for` (its booking or membership) on `quote`'s terms, with its
    intent's client secret if it has one; one on other terms, or whose intent Stripe cancelled or
    does not know, is replaced; one paid is a Conflict. The one pending payment per payer of a
    booking (or per membership) decides between simultaneous requests."""
    for _ in range(OPEN_TRIES):
        current = Payment.objects.filter(status=Payment.Status.PENDING, user=user, **paying_for).first()
        if current is not None:
            intent = _stripe_intent(current)
            if intent is not None and intent.status in PAID_INTENT_STATES:
                what = {"booking": "booking", "membership": "membership", "registration": "place"}[
                    next(iter(paying_for))
                ]
                if intent.status != "succeeded":
                    raise Conflict(f"This {what} has been paid already: the payment is being confirmed.")
                # Paid, and neither the browser nor the webhook was heard (an outage): it is confirmed now.
                payment_confirm(payment_intent_id=intent.id)
                raise Conflict(f"This {what} has been paid already: it is confirmed.")
            same_terms = (current.amount, current.coupon_id) == (quote.total, quote.coupon_id)
            # No intent: none was made yet (reused), or Stripe knows it no more (replaced).
            reusable = intent.status in OPEN_INTENT_STATES if intent else not current.payment_intent_id
            if same_terms and reusable:
                return current, intent.client_secret if intent else ""
            payment_cancel(payment_id=current.pk)
        try:
            with transaction.atomic():
                payment = Payment.objects.create(
                    **paying_for,
                    user=user,
                    amount=quote.total,
                    currency=settings.CURRENCY,
                    coupon=quote.coupon,
                    discount=quote.discount,
                )
        except IntegrityError:  # another request's payment is pending now (or the one paid meanwhile)
            continue
        return payment, ""
    raise Conflict(STARTED_MEANWHILE)


def _intent_create(*, payment: Payment, together: list[Payment] | None = None) -> str | None:
    """Makes and records the PaymentIntent of a pending payment that has none yet (and of the
    payments `together` with it, a series' dates paid at once: one intent for them all). One the
    rows do not all name (a payment cancelled before the answer was recorded) is cancelled, never
    handed out."""
    rows = together or [payment]
    intent = gateway.create_intent(
        amount_cents=to_cents(sum((row.amount for row in rows), Decimal(0))),
        # Only what the rows never change: a retry under the same key must send the same request.
        metadata={**_paid_for(payment), "user_id": str(payment.user_id), "payment_id": str(payment.pk)},
        idempotency_key=f"payment-intent-{payment.pk}",
    )
    with transaction.atomic():
        named = Payment.objects.filter(
            pk__in=[row.pk for row in rows], status=Payment.Status.PENDING, payment_intent_id=None
        ).update(payment_intent_id=intent.id)
        if named not in (0, len(rows)):
            transaction.set_rollback(True)  # some were cancelled meanwhile: none may name it
    recorded = (
        Payment.objects.filter(pk=payment.pk, status=Payment.Status.PENDING)
        .values_list("payment_intent_id", flat=True)
        .first()
    )
    if recorded == intent.id:
        return intent.client_secret
    gateway.cancel_intent(intent.id, idempotency_key=f"payment-intent-cancel-{payment.pk}")
    if recorded is None:
        if together:  # those not cancelled yet may not wait for an intent that will never come
            _cancel_together(payment)
        raise Conflict(STARTED_MEANWHILE)
    return gateway.retrieve_intent(recorded).client_secret


def _paid_for(payment: Payment) -> dict[str, str]:
    """What a payment's intent says it pays for, in its metadata."""
    if payment.series_id:
        return {"series_id": str(payment.series_id)}
    if payment.booking_id:
        return {"booking_id": str(payment.booking_id)}
    if payment.registration_id:
        return {"registration_id": str(payment.registration_id)}
    return {"membership_id": str(payment.membership_id)}


def _stripe_intent(payment: Payment) -> stripe.PaymentIntent | None:
    """The payment's PaymentIntent at Stripe; None when it has no intent id or Stripe knows none by
    it: either way nobody can pay it."""
    if not payment.payment_intent_id:
        return None
    try:
        return gateway.retrieve_intent(payment.payment_intent_id)
    except gateway.IntentNotFound:
        return None


def payment_cancel(*, payment_id: int) -> None:
    """Cancels a pending payment and its intent, unless it has been paid meanwhile (its confirmation
    then decides). The intent is cancelled at Stripe first, then the row, if it still names that
    intent (one recorded after the row was cancelled is cancelled by _intent_create)."""
    for _ in range(2):  # the intent id is recorded once: at most one more look
        payment = Payment.objects.get(pk=payment_id)
        if payment.status != Payment.Status.PENDING:
            return
        intent = _stripe_intent(payment)
        if intent is not None and intent.status in PAID_INTENT_STATES:
            return
        if intent is not None and intent.status != "canceled":
            gateway.cancel_intent(intent.id, idempotency_key=f"payment-intent-cancel-{payment.pk}")
        if payment.series_id is not None and _cancel_together(payment):
            return
        if Payment.move_where(
            Payment.Status.CANCELLED, Q(pk=payment_id, payment_intent_id=payment.payment_intent_id)
        ):
            return


def _cancel_together(payment: Payment) -> int:
    """Cancels a series' pending payment with the others paid together with it: those naming its
    intent, or, before it has one, those of the same series and payer waiting for theirs."""
    together = Q(status=Payment.Status.PENDING, series_id=payment.series_id, user_id=payment.user_id)
    return Payment.move_where(
        Payment.Status.CANCELLED, together & Q(payment_intent_id=payment.payment_intent_id)
    )


def payments_cancel_for_coupon(*, coupon_id: int) -> None:
    """Cancels the pending payments made with the coupon on terms it no longer gives."""
    coupon = Coupon.objects.filter(pk=coupon_id).first()
    if coupon is None:
        return  # deleted since: its payments were cancelled on the way (payments.receivers)
    for payment in Payment.objects.filter(coupon=coupon, status=Payment.Status.PENDING):
        if payment.discount != coupon.discount or _coupon_refusal(coupon=coupon, user_id=payment.user_id):
            payment_cancel(payment_id=payment.pk)


def payment_confirm(*, payment_intent_id: str, user: User | None = None) -> Payment:
    """Confirms a booking once Stripe says its PaymentIntent succeeded, for the amount, currency
    and booking on record (and `user`'s own, if given), for the browser (save-payment) and Stripe's
    webhook: whichever comes second finds the work done. A payment that cannot be kept is refunded,
    and the caller told why in a Conflict."""
    rows = list(
        Payment.objects.select_related("booking", "membership", "registration", "user")
        .filter(payment_intent_id=payment_intent_id)
        .order_by("pk")
    )
    if not rows:
        raise ValidationError({"paymentIntentId": "This payment is not one of ours."})
    payment = rows[0]  # the one row, but for a series' dates paid together
    if user is not None and payment.user_id != user.pk:
        raise Forbidden("This payment belongs to someone else.")
    if any(row.status in Payment.AWAITING_PAYMENT for row in rows):
        try:
            intent = gateway.retrieve_intent(payment_intent_id, with_payment_method=True)
        except gateway.IntentNotFound:
            payment_cancel(payment_id=payment.pk)
            raise Conflict(PAYMENT_FORGOTTEN) from None
        if intent.status != "succeeded":
            raise Conflict(f"The payment has not succeeded (its status is {intent.status}).")
        # An invoice's intent is Stripe's, with Stripe's metadata: the invoice on record names it.
        metadata = intent.metadata.to_dict()
        if (
            intent.amount != to_cents(sum((row.amount for row in rows), Decimal(0)))
            or intent.currency != payment.currency
            or not (payment.stripe_invoice_id or _paid_for(payment).items() <= metadata.items())
        ):
            raise Conflict("The payment does not match what it was made for.")
        card_last4 = gateway.card_last4(intent)
        rows = [_record_payment(row, card_last4=card_last4, period=_period_paid(row)) for row in rows]
        if payment.series_id is not None:
            notices.series_paid(rows)
    for row in rows:
        if row.status == Payment.Status.REFUNDING:  # not kept: its refund is made now
            for refund_id in row.refunds.exclude(status=Refund.Status.SUCCEEDED).values_list("pk", flat=True):
                refund_send(refund_id=refund_id)
    rows = list(
        Payment.objects.select_related("booking", "membership", "registration", "user")
        .filter(pk__in=[r.pk for r in rows])
        .order_by("pk")
    )
    kept = [row for row in rows if row.status not in Payment.GIVEN_BACK]
    if not kept and _still_waiting(rows[0]):
        # What it paid for still waits for a payment: this one did not count, and the payer hears why.
        raise Conflict(rows[0].refund_reason)
    return kept[0] if kept else rows[0]


def _still_waiting(payment: Payment) -> bool:
    """Whether what the payment is for still waits to be paid: an approved booking, a membership
    not yet begun."""
    if payment.booking is not None:
        return payment.booking.status == Booking.Status.APPROVED
    if payment.registration is not None:
        return payment.registration.status == Registration.Status.HELD
    return payment.membership is not None and payment.membership.status == Membership.Status.PENDING


def _period_paid(payment: Payment) -> tuple[datetime, datetime] | None:
    """The membership period a payment made now pays for: its invoice's, for a subscription's; else
    the plan's from now. None for a booking's."""
    if payment.stripe_invoice_id:
        return gateway.invoice_period(gateway.retrieve_invoice(payment.stripe_invoice_id))
    if payment.membership is not None:
        return payment.membership.plan.period_from(timezone.now())
    return None


def payments_reconcile(*, now: datetime | None = None) -> int:
    """Finishes the payments pending PAYMENT_RECONCILE_SECONDS after they were started (and not
    compared for as long), which an outage of ours kept from save-payment and the webhook. Answers
    how many were compared."""
    now = now or timezone.now()
    due = now - timedelta(seconds=settings.PAYMENT_RECONCILE_SECONDS)
    pending = list(
        Payment.objects.filter(status=Payment.Status.PENDING, created_at__lt=due)
        .filter(Q(stripe_checked_at=None) | Q(stripe_checked_at__lt=due))
        .order_by("created_at")
        .values_list("pk", flat=True)[:RECONCILE_BATCH]
    )
    for payment_id in pending:
        try:
            payment_reconcile(payment_id=payment_id, now=now)
        except gateway.PaymentProviderUnavailable as error:
            logger.warning("Payment %s could not be compared with Stripe: %s", payment_id, error)
        except Conflict as refusal:  # recorded: a refund, say; its payer is told by e-mail
            logger.info("Payment %s reconciled: %s", payment_id, refusal)
    return len(pending)


def payment_reconcile(*, payment_id: int, now: datetime | None = None) -> None:
    """Finishes a pending payment as its PaymentIntent stands at Stripe: paid, confirmed; still
    payable (for a booking waiting for it) or processing, left for the next comparison; else
    cancelled."""
    Payment.objects.filter(pk=payment_id).update(stripe_checked_at=now or timezone.now())
    payment = Payment.objects.select_related("booking", "membership", "registration").get(pk=payment_id)
    if payment.status != Payment.Status.PENDING:
        return
    intent = _stripe_intent(payment)
    stripe_status = intent.status if intent else "canceled"
    if intent is not None and stripe_status == "succeeded":
        payment_confirm(payment_intent_id=intent.id)
    elif stripe_status not in PAID_INTENT_STATES and not (
        stripe_status in OPEN_INTENT_STATES and _still_waiting(payment)
    ):
        payment_cancel(payment_id=payment.pk)


class Paid(TypedDict):
    """What a payment records when it is paid."""

    paid_at: datetime
    card_last4: str


@transaction.atomic
def _record_payment(
    payment: Payment, *, card_last4: str, period: tuple[datetime, datetime] | None = None
) -> Payment:
    """What the payment pays for, kept (a booking confirmed, a membership's `period` paid), or a
    refund due (made once this commits)."""
    if payment.membership_id:
        return _record_membership_payment(
            payment, card_last4=card_last4, period=cast(tuple[datetime, datetime], period)
        )
    if payment.registration_id:
        return _record_registration_payment(payment, card_last4=card_last4)
    Booking.objects.select_for_update().only("pk").get(pk=cast(int, payment.booking_id))
    payment = (
        Payment.objects.select_for_update(of=("self",)).select_related("booking", "user").get(pk=payment.pk)
    )
    if payment.status not in Payment.AWAITING_PAYMENT:
        return payment  # the other path recorded it while Stripe was being asked
    now = timezone.now()
    paid = Paid(paid_at=now, card_last4=card_last4)
    if payment.coupon_id:
        # Under the coupon's lock, so that simultaneous payments with it count each other's use.
        coupon = Coupon.objects.select_for_update().get(pk=payment.coupon_id)
        if refusal := _coupon_refusal(coupon=coupon, user_id=payment.user_id):
            return _refund_due(payment, reason=COUPON_REFUSED.format(refusal=refusal), **paid)
    booking = cast(Booking, payment.booking)
    if booking.status not in (Booking.Status.APPROVED, Booking.Status.EXPIRED):
        return _refund_due(payment, reason=_lost(booking), **paid)
    policy = policy_get()
    shares, paid_by = booking_shares(booking, policy=policy), payers(booking)
    try:
        due = _owed(booking, payment.user, shares, paid_by, shared(policy))
    except (Conflict, Forbidden):  # a player who has paid, or who plays no more
        due = None
    if due is None or payment.amount != discounted(due, payment.discount):
        return _refund_due(payment, reason=DUE_CHANGED, **paid)
    everyone_paid = not left_to_pay(shares, paid_by | {payment.user_id})
    if _pays_the_rest(booking, payment.user_id, paid_by) or everyone_paid:
        try:
            booking_confirm(booking=booking, by=payment.user)
        except Conflict:  # SlotTaken included
            return _refund_due(payment, reason=_lost(booking), **paid)
    elif booking.status == Booking.Status.APPROVED:
        booking_share_paid(booking=booking)  # the others still pay theirs
    else:
        return _refund_due(payment, reason=_lost(booking), **paid)
    payment.move(Payment.Status.SUCCEEDED, locked=True, **paid)
    if not club_sells_memberships():  # the club's first rule: paying for a booking makes a member
        user_make_member(user=payment.user, since=now)
    if payment.series_id is None:  # a series' dates paid together have one receipt (payment_confirm)
        notices.paid(payment)
    return payment


def _lost(booking: Booking) -> str:
    """Why a payment for `booking` (locked) cannot be kept."""
    return PAID_IN_FULL if booking.status == Booking.Status.CONFIRMED else BOOKING_LOST


def _record_membership_payment(
    payment: Payment, *, card_last4: str, period: tuple[datetime, datetime]
) -> Payment:
    """The membership's `period` paid, or, for a membership ended meanwhile, a refund due."""
    period_start, period_end = period

    def keep(locked: Payment) -> dict[str, Any]:
        try:
            membership_period_paid(
                membership_id=cast(int, locked.membership_id),
                period_start=period_start,
                period_end=period_end,
                reason=f"Paid ${locked.amount} (payment #{locked.pk}).",
            )
        except Conflict:
            raise Conflict(MEMBERSHIP_LOST) from None
        return {"period_start": period_start, "period_end": period_end}

    return _record_kept(payment, card_last4=card_last4, related="membership__plan", keep=keep)


def _record_registration_payment(payment: Payment, *, card_last4: str) -> Payment:
    """A place in a program paid: the registration confirmed, or, lost meanwhile, a refund due."""

    def keep(locked: Payment) -> dict[str, Any]:
        registration_confirm(registration=cast(Registration, locked.registration))
        return {}

    return _record_kept(payment, card_last4=card_last4, related="registration__program", keep=keep)


def _record_kept(
    payment: Payment, *, card_last4: str, related: str, keep: Callable[[Payment], dict[str, Any]]
) -> Payment:
    """Under the payment's lock (with its `related` record): what it pays for kept by `keep`, which
    answers the fields the payment records besides, or, when `keep` refuses with a Conflict, a
    refund due for its reason."""
    payment = (
        Payment.objects.select_for_update(of=("self",)).select_related(related, "user").get(pk=payment.pk)
    )
    if payment.status not in Payment.AWAITING_PAYMENT:
        return payment  # the other path recorded it while Stripe was being asked
    paid = Paid(paid_at=timezone.now(), card_last4=card_last4)
    try:
        recorded = keep(payment)
    except Conflict as lost:
        return _refund_due(payment, reason=str(lost), **paid)
    payment.move(Payment.Status.SUCCEEDED, locked=True, **recorded, **paid)
    notices.paid(payment)
    return payment


def _refund_due(payment: Payment, *, reason: str, **paid: Unpack[Paid]) -> Payment:
    """The payment (locked) cannot be kept: all of it is to be given back."""
    payment.move(Payment.Status.REFUNDING, locked=True, refund_reason=reason, **paid)
    Refund.objects.create(payment=payment, amount=payment.amount, reason=reason)
    return payment


def refunds_for_ended_booking(*, booking: Booking, by: User | None, percent: int) -> list[Refund]:
    """Records, in the transaction that ends the booking (cancelled, or expired before every share
    was paid), and queues a refund of `percent` of each payment made for it; none when the policy
    gives nothing back."""
    payments = booking.payments.filter(status=Payment.Status.SUCCEEDED).select_for_update()
    refunds = [
        _refund_share(
            payment, by=by, percent=percent, reason=_ended_reason(booking, by=by, payer=payment.user_id)
        )
        for payment in payments
    ]
    return [refund for refund in refunds if refund is not None]


def refunds_for_cancelled_registration(
    *, registration: Registration, by: User | None, percent: int
) -> list[Refund]:
    """Records, in the transaction that cancels a paid registration, and queues the refund of
    `percent` of what was paid for it; none when nothing comes back."""
    payments = registration.payments.filter(status=Payment.Status.SUCCEEDED).select_for_update()
    whose = "you" if by is not None and by.pk == registration.user_id else "the club"
    refunds = [
        _refund_share(payment, by=by, percent=percent, reason=f"Registration cancelled by {whose}")
        for payment in payments
    ]
    return [refund for refund in refunds if refund is not None]


def registration_payment_intent_create(*, user: User, registration: Registration) -> str | None:
    """The client secret of the one open PaymentIntent for the place held for `user`."""
    if registration.user_id != user.pk:
        raise Forbidden("Only the person registered pays for their place.")
    if (
        registration.status != Registration.Status.HELD
        or not registration.held_until
        or registration.held_until <= timezone.now()
    ):
        paid = registration.status == Registration.Status.CONFIRMED
        raise Conflict(
            f"This place is {'paid' if paid else 'no longer held for you'}: there is nothing to pay."
        )
    quote = Quote(price=registration.price, coupon=None, discount=0, total=registration.price)
    payment, client_secret = _payment_open(paying_for={"registration": registration}, user=user, quote=quote)
    return client_secret or _intent_create(payment=payment)


def _ended_reason(booking: Booking, *, by: User | None, payer: int) -> str:
    if booking.status == Booking.Status.EXPIRED:
        return "Booking expired before it was paid in full"
    if by is None or (by.pk != booking.user_id and by.is_admin):
        return "Booking cancelled by the club"
    return f"Booking cancelled by {'you' if by.pk == payer else 'its organiser'}"


def refund_for_ended_membership(*, membership: Membership, by: User) -> Refund | None:
    """Records, in the transaction that ends it, and queues the full refund of the period a
    membership the club ended had paid for and not yet used up; None when none is running."""
    payment = membership.payments.filter(
        status=Payment.Status.SUCCEEDED, period_end__gt=timezone.now()
    ).first()
    return _refund_share(payment, by=by, percent=100, reason="Membership ended by the club")


def _refund_share(payment: Payment | None, *, by: User | None, percent: int, reason: str) -> Refund | None:
    if payment is None or (amount := round_money(payment.amount * percent / 100)) <= 0:
        return None
    reason = f"{reason} ({percent}% refund)."
    refund = Refund.objects.create(payment=payment, amount=amount, reason=reason, requested_by=by)
    send_refund.enqueue(refund_id=refund.pk)
    return refund


def refund_send(*, refund_id: int) -> Refund:
    """Makes a recorded refund at Stripe and records what became of it (Stripe's error is raised
    again). Of simultaneous callers, the one that claims it (pending → sending) asks Stripe; the
    others only record a refund Stripe made. A refund Stripe made already for this row (or, for a
    payment not kept, any refund of it) is looked for first: the idempotency key lasts a day."""
    claimed = Refund.move_where(
        Refund.Status.SENDING, Q(pk=refund_id), claimed_at=timezone.now(), attempts=F("attempts") + 1
    )
    refund = Refund.objects.select_related("payment__booking", "payment__user").get(pk=refund_id)
    if not claimed and refund.status != Refund.Status.SENDING:
        return refund  # made; or failed, for an admin to retry; or pending, for the next try
    payment = refund.payment
    intent_id = cast(str, payment.payment_intent_id)  # a payment is refunded once paid, by its intent
    try:
        # An intent that paid a series' dates together is refunded a date at a time: only its own counts.
        alone = payment.series_id is None
        made = gateway.find_refund(
            intent_id, refund_id=refund.pk, or_any=alone and payment.status == Payment.Status.REFUNDING
        )
        if made is None and not claimed:
            return refund  # the caller who claimed it is asking Stripe for it now
        if made is None:
            made = gateway.refund(
                intent_id,
                amount_cents=refund.amount_cents,
                refund_id=refund.pk,
                idempotency_key=f"refund-{payment.pk}-{refund.pk}",
            )
    except gateway.PaymentProviderUnavailable as error:
        if claimed:
            _refund_not_made(refund_id, error)
        raise
    return _refund_made(refund_id, made)


@transaction.atomic
def _refund_made(refund_id: int, made: stripe.Refund) -> Refund:
    """Records the refund Stripe `made` for the row, and tells its payer."""
    refund = (
        Refund.objects.select_for_update(of=("self",))
        .select_related("payment__booking", "payment__user")
        .get(pk=refund_id)
    )
    if refund.status != Refund.Status.SENDING:
        return refund  # recorded by another caller; or its claim given up, for the next try to find
    refund.move(
        Refund.Status.SUCCEEDED, locked=True, stripe_refund_id=made.id, error="", refunded_at=timezone.now()
    )
    if refund.payment.status == Payment.Status.REFUNDING:
        refund.payment.move(Payment.Status.REFUNDED)
    notices.refunded(refund)
    return refund


@transaction.atomic
def _refund_not_made(refund_id: int, error: gateway.PaymentProviderUnavailable) -> None:
    """Refused by Stripe, the refund fails, for an admin to retry; not answered (an outage), it is
    pending again and its next try queued, after a wait doubled each time."""
    refund = Refund.objects.select_for_update().get(pk=refund_id)
    if refund.status != Refund.Status.SENDING:
        return  # recorded meanwhile by another caller
    if isinstance(error, gateway.PaymentRefused):
        refund.move(Refund.Status.FAILED, locked=True, error=str(error)[:500])
        return
    next_attempt_at = timezone.now() + backoff(refund.attempts, first_seconds=settings.REFUND_RETRY_SECONDS)
    refund.move(Refund.Status.PENDING, locked=True, error=str(error)[:500], next_attempt_at=next_attempt_at)
    send_refund.using(run_after=next_attempt_at).enqueue(refund_id=refund.pk)


def refunds_send_stalled(*, now: datetime | None = None) -> int:
    """Queues again the refunds pending REFUND_STALL_SECONDS after their try was due, or claimed
    that long ago (the claim given up): what was to make them ended first. Their try is due now, so
    one waiting behind a long queue is queued once per REFUND_STALL_SECONDS at most. Answers how
    many were queued."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.REFUND_STALL_SECONDS)
    stalled = Q(status=Refund.Status.PENDING, next_attempt_at__lt=since) | Q(
        status=Refund.Status.SENDING, claimed_at__lt=since
    )
    count = 0
    for refund_id, status in Refund.objects.filter(stalled).values_list("pk", "status"):
        with transaction.atomic():
            if status == Refund.Status.SENDING:
                queued = Refund.move_where(
                    Refund.Status.PENDING, Q(stalled, pk=refund_id), next_attempt_at=now
                )
            else:
                queued = Refund.objects.filter(stalled, pk=refund_id).update(next_attempt_at=now)
            if queued:
                send_refund.enqueue(refund_id=refund_id)
                count += 1
    return count


def refund_retry(*, refund: Refund, by: User) -> Refund:
    """An admin tries a failed refund again, audited before Stripe is asked."""
    if refund.status != Refund.Status.FAILED:
        raise Conflict(f"This refund is {refund.get_status_display().lower()}: only a failed one is retried.")
    with transaction.atomic():
        refund.move(Refund.Status.PENDING)
        audit_record(
            actor=by,
            action="refund.retry",
            target=refund,
            summary=f"Retried refund #{refund.pk} of ${refund.amount} (payment #{refund.payment_id})",
            before={"status": Refund.Status.FAILED, "error": refund.error},
        )
    return refund_send(refund_id=refund.pk)


def organisers_ask_for_the_rest(*, now: datetime | None = None) -> int:
    """With shared payment: the organisers of approved bookings whose players have not all paid
    when three quarters of its payment window have passed are asked, once, to pay what is left
    (docs/rules.md, Paying together). Answers how many were asked."""
    now = now or timezone.now()
    if not shared(policy_get()):
        return 0
    window = ExpressionWrapper(F("payment_due_at") - F("approved_at"), output_field=DurationField())
    last_quarter = F("payment_due_at") - ExpressionWrapper(window / 4, output_field=DurationField())
    due = Booking.objects.alias(last_call=last_quarter).filter(
        status=Booking.Status.APPROVED, rest_asked_at=None, last_call__lte=now, payment_due_at__gt=now
    )
    asked = 0
    for booking_id in due.filter(players__isnull=False).distinct().values_list("pk", flat=True):
        with transaction.atomic():
            if not Booking.objects.filter(pk=booking_id, rest_asked_at=None).update(rest_asked_at=now):
                continue  # another worker asked
            booking = Booking.objects.select_related("user", "court").get(pk=booking_id)
            left = amount_due(booking=booking, payer=booking.user)
            if left:
                notices.rest_due(booking, amount=left)
                asked += 1
    return asked


@task
def ask_for_the_rest() -> int:
    """Periodic (settings.PERIODIC_TASKS)."""
    return organisers_ask_for_the_rest()


@task
def send_refund(refund_id: int) -> str:
    """Makes a recorded refund; one Stripe does not make is recorded (and requeued) by refund_send."""
    try:
        return refund_send(refund_id=refund_id).status
    except gateway.PaymentProviderUnavailable as error:
        return f"not made: {error}"


@task
def send_stalled_refunds() -> int:
    return refunds_send_stalled()


@task
def reconcile_payments() -> int:
    return payments_reconcile()
