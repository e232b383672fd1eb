"""Paying for a booking: the quote (with a coupon), the PaymentIntent, and the confirmation that
Stripe, not the browser, vouches for.

Each step that asks Stripe to do something first records on the Payment row what is under way (and
commits it), then asks Stripe with an idempotency key made from the row's id, then records the
answer. The steps for one booking take turns on the booking's row lock, so that even a stand-in
that ignores idempotency keys sees each of them once, and a step tried again after a failure finds
the row's state, checks what Stripe has done already, and never moves money twice.
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from accounts.services import user_make_member
from audit.services import audit_record
from bookings.models import Booking
from bookings.services import booking_confirm
from club.errors import Conflict, Forbidden
from club.money import discounted, round_money, to_cents
from club.retries import backoff

from . import gateway, notices, tasks
from .models import Coupon, Payment, Refund
from .selectors import coupon_uses

# Stripe charges no less than this, in cents, for US dollars.
MINIMUM_CHARGE_CENTS = 50
# A PaymentIntent in one of these states can still be paid: ask again, and it is reused.
OPEN_INTENT_STATES = {"requires_payment_method", "requires_confirmation", "requires_action"}
# One in these has been paid, or is being: it is confirmed (or refunded), never replaced.
PAID_INTENT_STATES = {"processing", "requires_capture", "succeeded"}
COUPON_REFUSED = "{refusal} Your payment has been refunded: you can pay for this booking again."
BOOKING_LOST = "The booking was cancelled, or its slots were taken, before the payment arrived."
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
    uses, uses_by_person = coupon_uses(coupon=coupon, user_id=user_id)
    return coupon.refusal(today=timezone.localdate(), uses=uses, uses_by_person=uses_by_person)


def payment_quote(*, booking: Booking, coupon_code: str = "") -> Quote:
    """What paying for `booking` costs, with the coupon `coupon_code` if one is given and its
    owner may use it now."""
    coupon = None
    if code := coupon_code.strip().upper():
        coupon = Coupon.objects.filter(code=code).first()
        if coupon is None:
            raise ValidationError({"couponCode": Coupon.not_on_offer(code)})
        if refusal := _coupon_refusal(coupon=coupon, user_id=booking.user_id):
            raise ValidationError({"couponCode": refusal})
    discount = coupon.discount if coupon else 0
    total = discounted(booking.price, discount)
    if to_cents(total) < MINIMUM_CHARGE_CENTS:
        raise ValidationError({"couponCode": "With this coupon there is too little left to pay by card."})
    return Quote(price=booking.price, coupon=coupon, discount=discount, total=total)


def _booking_lock(booking_id: int) -> None:
    Booking.objects.select_for_update().only("pk").get(pk=booking_id)


def payment_intent_create(
    *, user: User, booking: Booking, coupon_code: str = "", amount_cents: int | None = None
) -> str:
    """The client secret of the one open PaymentIntent for the owner's approved booking, for the
    amount the server computes (a different amount claimed by the client is refused). Asking again
    on the same terms reuses it; asking with another coupon cancels it and makes a new one."""
    if booking.user_id != user.pk:
        raise Forbidden("Only the booking's owner may pay for it.")
    if booking.status != Booking.Status.APPROVED:
        raise Conflict(
            f"This booking is {booking.get_status_display().lower()}: only an approved booking is paid."
        )
    if booking.court.is_archived:
        raise Conflict("This court is closed for booking (archived), so the booking cannot be paid.")
    quote = payment_quote(booking=booking, coupon_code=coupon_code)
    if amount_cents is not None and amount_cents != quote.total_cents:
        raise ValidationError({"amountInCents": f"The amount to pay is {quote.total_cents} cents."})
    try:
        payment, client_secret = _payment_open(booking=booking, user=user, quote=quote)
    except _PaidAlready as paid:
        if paid.intent.status != "succeeded":
            raise Conflict("This booking has been paid already: the payment is being confirmed.") from None
        # Paid, and neither the browser nor the webhook was heard (an outage): it is confirmed now.
        payment_confirm(payment_intent_id=paid.intent.id)
        raise Conflict("This booking has been paid already: it is confirmed.") from None
    return client_secret or _intent_create(payment=payment)


class _PaidAlready(Exception):
    """The booking's pending payment has been paid at Stripe: its `intent` is to be confirmed."""

    def __init__(self, intent):
        self.intent = intent


@transaction.atomic
def _payment_open(*, booking: Booking, user: User, quote: Quote) -> tuple[Payment, str]:
    """The booking's pending payment for `quote`, with its intent's client secret when it has an
    intent already. One on other terms, or whose intent was cancelled at Stripe or is unknown to
    it, is cancelled and replaced: the new row is committed before Stripe is asked for its intent.
    One whose intent has been paid raises _PaidAlready: it is confirmed, not replaced."""
    _booking_lock(booking.pk)
    current = booking.payments.filter(status=Payment.Status.PENDING).first()
    if current is not None:
        intent = _stripe_intent(current)
        if intent is not None and intent.status in PAID_INTENT_STATES:
            raise _PaidAlready(intent)
        same_terms = (current.amount, current.coupon_id) == (quote.total, quote.coupon_id)
        # No intent: none was made yet (reused), or Stripe knows it no more (replaced).
        reusable = intent.status in OPEN_INTENT_STATES if intent else not current.payment_intent_id
        if same_terms and reusable:
            return current, intent.client_secret if intent else ""
        _payment_cancel(current, intent)
    payment = Payment.objects.create(
        booking=booking,
        user=user,
        amount=quote.total,
        currency=settings.CURRENCY,
        coupon=quote.coupon,
        discount=quote.discount,
    )
    return payment, ""


@transaction.atomic
def _intent_create(*, payment: Payment) -> str:
    """Makes the PaymentIntent of a pending payment that has none yet. Its key is the payment's,
    so a try repeated after an answer was lost gets the intent Stripe made then."""
    _booking_lock(payment.booking_id)
    payment = Payment.objects.get(pk=payment.pk)
    if payment.status != Payment.Status.PENDING:
        raise Conflict(
            "Another payment for this booking was started at the same time (with another coupon, "
            "say). Please try again."
        )
    if payment.payment_intent_id:  # made by a request on the same terms that had the lock first
        return gateway.retrieve_intent(payment.payment_intent_id).client_secret
    intent = gateway.create_intent(
        amount_cents=payment.amount_cents,
        # Only what the row never changes: a retry under the same key must send the same request.
        metadata={
            "booking_id": str(payment.booking_id),
            "user_id": str(payment.user_id),
            "payment_id": str(payment.pk),
        },
        idempotency_key=f"payment-intent-{payment.pk}",
    )
    payment.payment_intent_id = intent.id
    payment.save(update_fields=["payment_intent_id"])
    return intent.client_secret


def _stripe_intent(payment: Payment):
    """The payment's PaymentIntent as Stripe has it; None when it has no intent id, or when Stripe
    knows none by it: either way, nobody can pay it (one Stripe made without its answer reaching us
    was never handed to anyone)."""
    if not payment.payment_intent_id:
        return None
    try:
        return gateway.retrieve_intent(payment.payment_intent_id)
    except gateway.IntentNotFound:
        return None


def _payment_cancel(payment: Payment, intent) -> None:
    """Cancels a pending payment (its booking locked) and `intent`, its PaymentIntent as Stripe
    showed it (_stripe_intent)."""
    if intent is not None and intent.status != "canceled":
        gateway.cancel_intent(intent.id, idempotency_key=f"payment-intent-cancel-{payment.pk}")
    payment.set_status(Payment.Status.CANCELLED)
    payment.save(update_fields=["status"])


def payment_cancel(*, payment_id: int) -> None:
    """Cancels a pending payment and its intent, unless it has been paid meanwhile: its
    confirmation then decides. Safe to run again."""
    booking_id = Payment.objects.values_list("booking_id", flat=True).get(pk=payment_id)
    with transaction.atomic():
        _booking_lock(booking_id)
        payment = Payment.objects.get(pk=payment_id)
        if payment.status != Payment.Status.PENDING:
            return
        intent = _stripe_intent(payment)
        if intent is None or intent.status not in PAID_INTENT_STATES:
            _payment_cancel(payment, intent)


def payments_cancel_for_coupon(*, coupon_id: int) -> None:
    """Cancels the pending payments made with the coupon on terms it no longer gives: another
    discount, or a use it no longer allows their payer (withdrawn, out of its dates, used up)."""
    coupon = Coupon.objects.filter(pk=coupon_id).first()
    if coupon is None:
        return  # deleted since: its payments were cancelled on the way (payments.receivers)
    for payment in Payment.objects.filter(coupon=coupon, status=Payment.Status.PENDING):
        if payment.discount != coupon.discount or _coupon_refusal(coupon=coupon, user_id=payment.user_id):
            payment_cancel(payment_id=payment.pk)


def payment_confirm(*, payment_intent_id: str, user: User | None = None) -> Payment:
    """Confirms a booking once Stripe says its PaymentIntent succeeded, for the amount, currency
    and booking on record (and, when `user` is given, that user's own). Called by the browser
    (save-payment) and by Stripe's webhook; whichever comes second finds the work done.

    The booking becomes confirmed and its owner a member (admins stay admins). A payment for a
    booking that expired meanwhile keeps the booking if its slots are still free. Otherwise the
    money is refunded: for a booking cancelled meanwhile or whose slots were taken, and when the
    coupon no longer allows this use (then the booking stays approved, to be paid again, and the
    caller is told why in a Conflict).
    """
    payment = (
        Payment.objects.select_related("booking", "user").filter(payment_intent_id=payment_intent_id).first()
    )
    if payment is None:
        raise ValidationError({"paymentIntentId": "This payment is not one of ours."})
    if user is not None and payment.user_id != user.pk:
        raise Forbidden("This payment belongs to someone else.")
    if payment.status in Payment.AWAITING_PAYMENT:
        try:
            intent = gateway.retrieve_intent(payment_intent_id, with_payment_method=True)
        except gateway.IntentNotFound:
            payment_cancel(payment_id=payment.pk)
            raise Conflict(PAYMENT_FORGOTTEN) from None
        if intent.status != "succeeded":
            raise Conflict(f"The payment has not succeeded (its status is {intent.status}).")
        if (
            intent.amount != payment.amount_cents
            or intent.currency != payment.currency
            or intent.metadata.to_dict().get("booking_id") != str(payment.booking_id)
        ):
            raise Conflict("The payment does not match the booking it was made for.")
        payment = _record_payment(payment, card_last4=gateway.card_last4(intent))
    if payment.status == Payment.Status.REFUNDING:
        payment = _refund_payment_not_kept(payment)
    if payment.status == Payment.Status.REFUNDED and payment.booking.status == Booking.Status.APPROVED:
        # The booking still waits for its payment: this one did not count, and the payer hears why.
        raise Conflict(payment.refund_reason)
    return payment


def payments_reconcile(*, now: datetime | None = None) -> int:
    """Compares with Stripe each payment still pending PAYMENT_RECONCILE_SECONDS after it was
    started (and not compared for as long), and finishes it (payment_reconcile): neither the
    browser's save-payment nor Stripe's webhook may have been heard, in an outage of our own. Run by
    the scheduler (settings.PERIODIC_TASKS); answers how many were compared."""
    now = now or timezone.now()
    due = now - timedelta(seconds=settings.PAYMENT_RECONCILE_SECONDS)
    pending = (
        Payment.objects.filter(status=Payment.Status.PENDING, created_at__lt=due)
        .filter(Q(stripe_checked_at=None) | Q(stripe_checked_at__lt=due))
        .order_by("created_at")
        .values_list("pk", flat=True)[:RECONCILE_BATCH]
    )
    compared = 0
    for payment_id in pending:
        try:
            payment_reconcile(payment_id=payment_id, now=now)
        except gateway.PaymentProviderUnavailable as error:
            logger.warning("Payment %s could not be compared with Stripe: %s", payment_id, error)
        except Conflict as refusal:  # recorded: a refund, say; its payer is told by e-mail
            logger.info("Payment %s reconciled: %s", payment_id, refusal)
        compared += 1
    return compared


def payment_reconcile(*, payment_id: int, now: datetime | None = None) -> str:
    """Finishes a pending payment as its PaymentIntent stands at Stripe: paid, it is confirmed as
    save-payment would (or refunded, if the booking can no longer be kept); cancelled, unknown to
    Stripe, never made, or no longer payable because its booking is not waiting for payment, it is
    cancelled, and its slots and booking are left to their own rules. An intent its owner can still
    pay, or that Stripe is still processing, is left for the next comparison. Answers the payment's
    status."""
    Payment.objects.filter(pk=payment_id).update(stripe_checked_at=now or timezone.now())
    payment = Payment.objects.select_related("booking").get(pk=payment_id)
    if payment.status != Payment.Status.PENDING:
        return payment.status
    intent = _stripe_intent(payment)
    stripe_status = intent.status if intent else "canceled"
    if stripe_status == "succeeded":
        return payment_confirm(payment_intent_id=intent.id).status
    if stripe_status in PAID_INTENT_STATES or (
        stripe_status in OPEN_INTENT_STATES and payment.booking.status == Booking.Status.APPROVED
    ):
        return payment.status
    payment_cancel(payment_id=payment.pk)
    return Payment.objects.values_list("status", flat=True).get(pk=payment.pk)


@transaction.atomic
def _record_payment(payment: Payment, *, card_last4: str) -> Payment:
    """What a payment Stripe says succeeded becomes: the booking confirmed and its owner a member,
    or a refund due (recorded here, made once this has committed)."""
    _booking_lock(payment.booking_id)
    payment = (
        Payment.objects.select_for_update(of=("self",)).select_related("booking", "user").get(pk=payment.pk)
    )
    if payment.status not in Payment.AWAITING_PAYMENT:
        return payment  # the other path recorded it while Stripe was being asked
    now = timezone.now()
    payment.paid_at, payment.card_last4 = now, card_last4
    if payment.coupon_id:
        # Under the coupon's lock, so that simultaneous payments with it count each other's use.
        coupon = Coupon.objects.select_for_update().get(pk=payment.coupon_id)
        if refusal := _coupon_refusal(coupon=coupon, user_id=payment.user_id):
            return _refund_due(payment, reason=COUPON_REFUSED.format(refusal=refusal))
    try:
        booking_confirm(booking=payment.booking, by=payment.user)
    except Conflict:  # SlotTaken included
        return _refund_due(payment, reason=BOOKING_LOST)
    payment.set_status(Payment.Status.SUCCEEDED)
    payment.save(update_fields=["status", "paid_at", "card_last4"])
    user_make_member(user=payment.user, since=now)
    notices.paid(payment)
    return payment


def _refund_due(payment: Payment, *, reason: str) -> Payment:
    """The payment cannot be kept: all of it is to be given back (its refund row, made once this
    has committed)."""
    payment.set_status(Payment.Status.REFUNDING)
    payment.refund_reason = reason
    payment.save(update_fields=["status", "paid_at", "card_last4", "refund_reason"])
    Refund.objects.create(payment=payment, amount=payment.amount, reason=reason)
    return payment


def _refund_payment_not_kept(payment: Payment) -> Payment:
    """Makes the refund of a payment that could not be kept (_refund_due) and answers the payment
    as it then is: refunded, or still refunding if Stripe failed (the error is raised)."""
    for refund_id in payment.refunds.exclude(status=Refund.Status.SUCCEEDED).values_list("pk", flat=True):
        refund_send(refund_id=refund_id)
    return Payment.objects.select_related("booking", "user").get(pk=payment.pk)


def refund_percent_of(payment: Payment, percent: int) -> Decimal:
    """`percent` of what was paid, rounded as all money is."""
    return round_money(payment.amount * percent / 100)


def refund_for_cancelled_booking(*, booking: Booking, by: User, percent: int) -> Refund | None:
    """Records the refund a paid booking's cancellation owes (`percent` of its payment, as the
    bookings' policy decides), in the cancellation's transaction, and queues it: the worker makes
    it once that has committed. None when the policy gives nothing back."""
    payment = booking.payments.filter(status=Payment.Status.SUCCEEDED).first()
    amount = refund_percent_of(payment, percent) if payment else Decimal(0)
    if amount <= 0:
        return None
    who = "the club" if by.pk != booking.user_id else "you"
    refund = Refund.objects.create(
        payment=payment,
        amount=amount,
        reason=f"Booking cancelled by {who} ({percent}% refund).",
        requested_by=by,
    )
    tasks.send_refund.enqueue(refund_id=refund.pk)
    return refund


def refund_send(*, refund_id: int) -> Refund:
    """Makes a recorded refund at Stripe and records it: succeeded (and its payer is told); or, when
    Stripe did not answer, pending, tried again by the worker later each time (_refund_not_made);
    or failed, when Stripe refused it, for an admin to retry. Either error is raised again to the
    caller.

    Under the refund's row lock, so that two callers (the browser and the webhook, the worker and
    an admin) take turns and the second finds it made. Nothing that fails here makes it twice:
    before asking Stripe, the refund Stripe may have made already for this row (its metadata names
    the row; or, for a payment not kept, any refund of it) is looked for, and recorded instead."""
    try:
        with transaction.atomic():
            refund = (
                Refund.objects.select_for_update(of=("self",))
                .select_related("payment__booking", "payment__user")
                .get(pk=refund_id)
            )
            if refund.status == Refund.Status.SUCCEEDED:
                return refund
            payment = refund.payment
            made = gateway.find_refund(payment.payment_intent_id, refund_id=refund.pk)
            if made is None and payment.status == Payment.Status.REFUNDING:
                made = gateway.any_refund(payment.payment_intent_id)
            if made is None:
                made = gateway.refund(
                    payment.payment_intent_id,
                    amount_cents=refund.amount_cents,
                    refund_id=refund.pk,
                    idempotency_key=f"refund-{payment.pk}-{refund.pk}",
                )
            refund.status, refund.stripe_refund_id, refund.error = Refund.Status.SUCCEEDED, made.id, ""
            refund.attempts += 1
            refund.refunded_at = timezone.now()
            refund.save(update_fields=["status", "stripe_refund_id", "error", "attempts", "refunded_at"])
            if payment.status == Payment.Status.REFUNDING:
                payment.set_status(Payment.Status.REFUNDED)
                payment.save(update_fields=["status"])
            notices.refunded(refund)
            return refund
    except gateway.PaymentProviderUnavailable as error:
        _refund_not_made(refund_id, error)
        raise


@transaction.atomic
def _refund_not_made(refund_id: int, error: gateway.PaymentProviderUnavailable) -> None:
    """Records a try at a refund that Stripe did not make. Refused, the refund fails, and waits for
    an admin (the dashboard lists it); not answered (an outage), it stays pending and its next try
    is queued, after a wait doubled each time (REFUND_RETRY_SECONDS at first, an hour at most)."""
    refund = Refund.objects.select_for_update().get(pk=refund_id)
    if refund.status == Refund.Status.SUCCEEDED:
        return  # made meanwhile by another caller
    refund.attempts += 1
    refund.error = str(error)[:500]
    if isinstance(error, gateway.PaymentRefused):
        refund.status = Refund.Status.FAILED
    else:
        refund.status = Refund.Status.PENDING
        refund.next_attempt_at = timezone.now() + backoff(
            refund.attempts, first_seconds=settings.REFUND_RETRY_SECONDS
        )
        tasks.send_refund.using(run_after=refund.next_attempt_at).enqueue(refund_id=refund.pk)
    refund.save(update_fields=["status", "error", "attempts", "next_attempt_at"])


def refunds_send_stalled(*, now: datetime | None = None) -> int:
    """Queues again the refunds still pending REFUND_STALL_SECONDS after their try was due: what
    was to make them ended first (a worker stopped in the middle of its task, or the request that
    was refunding a payment it could not keep). The try queued is due now, so a refund only waiting
    behind a long queue is queued again once per REFUND_STALL_SECONDS at most; refund_send finds a
    refund made already, so a second try of one that was only slow makes nothing twice. Run by the
    scheduler (settings.PERIODIC_TASKS); answers how many were queued."""
    now = now or timezone.now()
    stalled = Refund.objects.filter(
        status=Refund.Status.PENDING,
        next_attempt_at__lt=now - timedelta(seconds=settings.REFUND_STALL_SECONDS),
    )
    count = 0
    for refund_id in stalled.values_list("pk", flat=True):
        with transaction.atomic():
            if stalled.filter(pk=refund_id).update(next_attempt_at=now):
                tasks.send_refund.enqueue(refund_id=refund_id)
                count += 1
    return count


def refund_retry(*, refund: Refund, by: User) -> Refund:
    """An admin (`by`) tries a failed refund again (a pending one is under way: it is left to
    finish). The try is audited before Stripe is asked, whatever Stripe answers."""
    if refund.status != Refund.Status.FAILED:
        raise Conflict(f"This refund is {refund.get_status_display().lower()}: only a failed one is retried.")
    audit_record(
        actor=by,
        action="refund.retry",
        target=refund,
        summary=f"Retried refund #{refund.pk} of ${refund.amount} (payment #{refund.payment_id})",
        before={"status": refund.status, "error": refund.error},
    )
    return refund_send(refund_id=refund.pk)
