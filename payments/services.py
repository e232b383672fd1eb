"""Paying for a booking: the quote (with a coupon), the PaymentIntent, and the confirmation that
Stripe, not the browser, vouches for."""

from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_confirm
from club.errors import Conflict
from club.templatetags.money import round_money
from content.models import Coupon

from . import gateway
from .models import Payment

# Stripe charges no less than this, in cents, for US dollars.
MINIMUM_CHARGE_CENTS = 50
# A PaymentIntent in one of these states can still be paid: ask again, and it is reused.
OPEN_INTENT_STATES = {"requires_payment_method", "requires_confirmation", "requires_action"}


@dataclass(frozen=True)
class Quote:
    price: Decimal
    coupon: Coupon | None
    discount: int
    total: Decimal

    @property
    def total_cents(self) -> int:
        return int(self.total * 100)


def payment_quote(*, booking: Booking, coupon_code: str = "") -> Quote:
    """What paying for `booking` costs, with the coupon `coupon_code` if one is given."""
    coupon = None
    if code := coupon_code.strip().upper():
        coupon = Coupon.objects.filter(code=code).first()
        if coupon is None:
            raise ValidationError({"couponCode": f"There is no coupon {code}."})
        if not coupon.is_active:
            raise ValidationError({"couponCode": f"The coupon {code} is no longer active."})
    discount = coupon.discount if coupon else 0
    total = round_money(booking.price * (100 - discount) / 100)
    if int(total * 100) < MINIMUM_CHARGE_CENTS:
        raise ValidationError({"couponCode": "With this coupon there is too little left to pay by card."})
    return Quote(price=booking.price, coupon=coupon, discount=discount, total=total)


def payment_intent_create(
    *, user: User, booking: Booking, coupon_code: str = "", amount_cents: int | None = None
):
    """The client secret of a PaymentIntent for the owner's approved booking, for the amount the
    server computes (a different amount claimed by the client is refused). Asking again for the
    same booking and amount reuses the intent that is still open."""
    if booking.user_id != user.pk:
        raise PermissionError("Only the booking's owner may pay for it.")
    if booking.status != Booking.Status.APPROVED:
        raise Conflict(
            f"This booking is {booking.get_status_display().lower()}: only an approved booking is paid."
        )
    quote = payment_quote(booking=booking, coupon_code=coupon_code)
    if amount_cents is not None and amount_cents != quote.total_cents:
        raise ValidationError({"amountInCents": f"The amount to pay is {quote.total_cents} cents."})

    for open_payment in booking.payments.filter(status=Payment.Status.PENDING, amount=quote.total):
        intent = gateway.retrieve_intent(open_payment.payment_intent_id)
        if intent.status in OPEN_INTENT_STATES:
            return intent.client_secret

    intent = gateway.create_intent(
        amount_cents=quote.total_cents,
        metadata={
            "booking_id": str(booking.pk),
            "user_id": str(user.pk),
            "coupon": quote.coupon.code if quote.coupon else "",
        },
    )
    Payment.objects.create(
        booking=booking,
        user=user,
        amount=quote.total,
        currency=settings.CURRENCY,
        coupon=quote.coupon,
        discount=quote.discount,
        payment_intent_id=intent.id,
    )
    return intent.client_secret


def payment_confirm(*, payment_intent_id: str, user: User | None = None) -> Payment:
    """Confirms a booking once Stripe says its PaymentIntent succeeded, for the amount, currency
    and booking on record (and, when `user` is given, that user's own). Called by the browser
    (save-payment) and by Stripe's webhook; whichever comes second finds the work done.

    The booking becomes confirmed and its owner a member (admins stay admins). A payment for a
    booking that expired meanwhile keeps the booking if its slots are still free; otherwise, and
    for a booking cancelled meanwhile, the money is refunded.
    """
    payment = (
        Payment.objects.select_related("booking", "user").filter(payment_intent_id=payment_intent_id).first()
    )
    if payment is None:
        raise ValidationError({"paymentIntentId": "This payment is not one of ours."})
    if user is not None and payment.user_id != user.pk:
        raise PermissionError("This payment belongs to someone else.")
    if payment.status != Payment.Status.PENDING:
        return payment  # done already: a replay, or the other path got here first
    intent = gateway.retrieve_intent(payment_intent_id)
    if intent.status != "succeeded":
        raise Conflict(f"The payment has not succeeded (its status is {intent.status}).")
    if (
        intent.amount != payment.amount_cents
        or intent.currency != payment.currency
        or intent.metadata.to_dict().get("booking_id") != str(payment.booking_id)
    ):
        raise Conflict("The payment does not match the booking it was made for.")
    return _record_success(payment.pk)


@transaction.atomic
def _record_success(payment_id: int) -> Payment:
    payment = Payment.objects.select_for_update().select_related("booking", "user").get(pk=payment_id)
    if payment.status != Payment.Status.PENDING:
        return payment  # the other path confirmed it while Stripe was being asked
    now = timezone.now()
    payment.paid_at = now
    try:
        booking_confirm(booking=payment.booking, by=payment.user)
    except Conflict:  # SlotTaken included
        # The booking was cancelled or rejected, or expired and its slots were taken since.
        gateway.refund(payment.payment_intent_id)
        payment.status = Payment.Status.REFUNDED
        payment.save(update_fields=["status", "paid_at"])
        return payment
    payment.status = Payment.Status.SUCCEEDED
    payment.save(update_fields=["status", "paid_at"])
    member = payment.user
    if member.role == User.Role.USER:
        member.role = User.Role.MEMBER
        member.member_since = member.member_since or now
        member.save(update_fields=["role", "member_since"])
    return payment


def membership_end(*, member: User) -> User:
    """A member goes back to being a user; their account, bookings and payments stay."""
    if member.role != User.Role.MEMBER:
        raise Conflict(f"{member.email} is not a member.")
    member.role = User.Role.USER
    member.member_since = None
    member.save(update_fields=["role", "member_since"])
    return member
