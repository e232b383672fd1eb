"""Paying for a booking: the quote (with a coupon), the PaymentIntent, and the confirmation that
Stripe, not the browser, vouches for.

Each step that asks Stripe to do something first records on the Payment row what is under way (and
commits it), then asks Stripe with an idempotency key made from the row's id, then records the
answer. The steps for one booking take turns on the booking's row lock, so that even a stand-in
that ignores idempotency keys sees each of them once, and a step tried again after a failure finds
the row's state, checks what Stripe has done already, and never moves money twice.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from accounts.services import user_make_member
from audit.services import audit_record
from bookings.models import Booking
from bookings.services import booking_confirm
from club.errors import Conflict, Forbidden
from club.money import discounted, round_money, to_cents
from content.models import Coupon

from . import gateway, notices, tasks
from .models import Payment, Refund
from .selectors import coupon_uses

# Stripe charges no less than this, in cents, for US dollars.
MINIMUM_CHARGE_CENTS = 50
# A PaymentIntent in one of these states can still be paid: ask again, and it is reused.
OPEN_INTENT_STATES = {"requires_payment_method", "requires_confirmation", "requires_action"}
# One in these has been paid, or is being: it is confirmed (or refunded), never replaced.
PAID_INTENT_STATES = {"processing", "requires_capture", "succeeded"}
COUPON_REFUSED = "{refusal} Your payment has been refunded: you can pay for this booking again."
BOOKING_LOST = "The booking was cancelled, or its slots were taken, before the payment arrived."


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
    payment, client_secret = _payment_open(booking=booking, user=user, quote=quote)
    return client_secret or _intent_create(payment=payment)


@transaction.atomic
def _payment_open(*, booking: Booking, user: User, quote: Quote) -> tuple[Payment, str]:
    """The booking's pending payment for `quote`, with its intent's client secret when it has an
    intent already. One on other terms, or whose intent was cancelled at Stripe, is cancelled and
    replaced: the new row is committed before Stripe is asked for its intent."""
    _booking_lock(booking.pk)
    current = booking.payments.filter(status=Payment.Status.PENDING).first()
    if current is not None:
        intent = gateway.retrieve_intent(current.payment_intent_id) if current.payment_intent_id else None
        if intent is not None and intent.status in PAID_INTENT_STATES:
            raise Conflict("This booking has been paid already: the payment is being confirmed.")
        same_terms = (current.amount, current.coupon_id) == (quote.total, quote.coupon_id)
        if same_terms and (intent is None or intent.status in OPEN_INTENT_STATES):
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


def _payment_cancel(payment: Payment, intent) -> None:
    """Cancels a pending payment (its booking locked) and `intent`, its PaymentIntent as Stripe
    showed it (None when the payment has no intent id: one Stripe made without its answer reaching
    us was never handed to anyone, so nobody can pay it)."""
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
        intent = gateway.retrieve_intent(payment.payment_intent_id) if payment.payment_intent_id else None
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
        intent = gateway.retrieve_intent(payment_intent_id, with_payment_method=True)
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
    """Makes a recorded refund at Stripe and records it: succeeded (and its payer is told), or
    failed with Stripe's error, for an admin to retry (the error is raised again to the caller).

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
        Refund.objects.filter(pk=refund_id).update(
            status=Refund.Status.FAILED, error=str(error)[:500], attempts=F("attempts") + 1
        )
        raise


def refunds_send_stalled(*, now: datetime | None = None) -> int:
    """Queues again the refunds still pending REFUND_STALL_SECONDS after they were recorded: what
    was to make them ended first (a worker stopped in the middle of its task, or the request that
    was refunding a payment it could not keep). refund_send finds a refund made already, so a
    second try of one that was only slow makes nothing twice. Run by the scheduler
    (settings.PERIODIC_TASKS); answers how many were queued."""
    now = now or timezone.now()
    stalled = list(
        Refund.objects.filter(
            status=Refund.Status.PENDING,
            created_at__lt=now - timedelta(seconds=settings.REFUND_STALL_SECONDS),
        ).values_list("pk", flat=True)
    )
    for refund_id in stalled:
        tasks.send_refund.enqueue(refund_id=refund_id)
    return len(stalled)


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
