from django.urls import reverse
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from accounts.serializers import NormalisedEmailField
from bookings.models import Policy
from kernel.api import IdField
from kernel.bounds import model_bounds
from kernel.days import DateLabel, day
from kernel.text import validate_one_line

from .models import DISCOUNT_RULE, MAX_USES_RULE, Coupon, Payment, Refund


class RefundOutput(serializers.ModelSerializer):
    paymentId = serializers.IntegerField(source="payment_id")
    refundedAt = serializers.DateTimeField(source="refunded_at", allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at")

    class Meta:
        model = Refund
        fields = [
            "id",
            "paymentId",
            "amount",
            "status",
            "reason",
            "error",
            "attempts",
            "createdAt",
            "refundedAt",
        ]


class PaymentOutput(serializers.ModelSerializer):
    """A payment for a booking (`bookingId`) or for a membership's period (`membershipId`, and the
    period), the other's fields null."""

    bookingId = serializers.IntegerField(source="booking_id", allow_null=True)
    membershipId = serializers.IntegerField(source="membership_id", allow_null=True)
    periodStart = serializers.DateTimeField(source="period_start", allow_null=True)
    periodEnd = serializers.DateTimeField(source="period_end", allow_null=True)
    paymentIntentId = serializers.CharField(source="payment_intent_id")
    paidAt = serializers.DateTimeField(source="paid_at", allow_null=True)
    userEmail = serializers.EmailField(source="user.email")
    couponCode = serializers.CharField(source="coupon.code", default="")
    refunds = RefundOutput(many=True, read_only=True)

    class Meta:
        model = Payment
        fields = [
            "id",
            "bookingId",
            "membershipId",
            "periodStart",
            "periodEnd",
            "amount",
            "currency",
            "status",
            "paymentIntentId",
            "paidAt",
            "userEmail",
            "couponCode",
            "discount",
            "refunds",
        ]


class QuoteInput(serializers.Serializer):
    couponCode = serializers.CharField(max_length=40, required=False, allow_blank=True)


@extend_schema_serializer(component_name="Quote")
class QuoteOutput(serializers.Serializer):
    price = serializers.DecimalField(max_digits=10, decimal_places=2)
    couponCode = serializers.CharField(source="coupon.code", default="")
    discount = serializers.IntegerField()
    total = serializers.DecimalField(max_digits=10, decimal_places=2)
    totalInCents = serializers.IntegerField(source="total_cents")


class ShareOutput(serializers.Serializer):
    name = serializers.CharField(help_text="Who plays it, as the players see them.")
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    guestFee = serializers.DecimalField(source="guest_fee", max_digits=10, decimal_places=2)
    paidBy = serializers.CharField(
        source="paid_by", help_text="Who pays it: a name, or empty while the organiser pays what is left."
    )
    paid = serializers.BooleanField()


@extend_schema_serializer(component_name="Shares")
class SharesOutput(serializers.Serializer):
    sharing = serializers.ChoiceField(choices=Policy.PriceSharing.choices)
    price = serializers.DecimalField(max_digits=10, decimal_places=2, help_text="Its guests' fees included.")
    guestFees = serializers.DecimalField(source="guest_fees", max_digits=10, decimal_places=2)
    shares = ShareOutput(many=True)
    youPay = serializers.DecimalField(
        source="you_pay",
        max_digits=10,
        decimal_places=2,
        allow_null=True,
        help_text="What the caller pays now; null when they pay nothing (now).",
    )
    payUrl = serializers.CharField(
        source="pay_url", help_text="The payment page; empty when nothing is to pay."
    )


class PaymentIntentInput(serializers.Serializer):
    """`amountInCents`, if sent, must be the server's; `userEmail`, if sent, the caller's."""

    bookingId = IdField()
    amountInCents = serializers.IntegerField(min_value=0, required=False)
    userEmail = NormalisedEmailField(required=False)
    couponCode = serializers.CharField(max_length=40, required=False, allow_blank=True)


class MembershipCheckoutInput(serializers.Serializer):
    planId = IdField()


class PaymentListQuery(serializers.Serializer):
    email = NormalisedEmailField(
        required=False, allow_blank=True, help_text="One person's (yours, or anyone's for an admin)."
    )


class SavePaymentInput(serializers.Serializer):
    """Only `paymentIntentId` counts: the rest is what Stripe says, not the client."""

    paymentIntentId = serializers.CharField(max_length=255)


class CouponOutput(serializers.ModelSerializer):
    isActive = serializers.BooleanField(source="is_active")
    oncePerPerson = serializers.BooleanField(source="once_per_person")
    maxUses = serializers.IntegerField(source="max_uses", allow_null=True)
    validFrom = serializers.DateField(source="valid_from", allow_null=True)
    validFromLabel = DateLabel(day, source="valid_from", allow_null=True)
    validUntil = serializers.DateField(source="valid_until", allow_null=True)
    validUntilLabel = DateLabel(day, source="valid_until", allow_null=True)
    url = serializers.SerializerMethodField(help_text="Where to change or delete this coupon.")

    class Meta:
        model = Coupon
        fields = [
            "id",
            "code",
            "discount",
            "description",
            "isActive",
            "oncePerPerson",
            "maxUses",
            "validFrom",
            "validFromLabel",
            "validUntil",
            "validUntilLabel",
            "url",
        ]

    def get_url(self, coupon: Coupon) -> str:
        return reverse("api-coupon", args=[coupon.pk])


# Bounded as the model is (Manage Coupons' inputs say the same bounds: kernel.bounds.input_bounds);
# the coupons' service checks the rest (payments.coupons).
class CouponInput(serializers.Serializer):
    code = serializers.CharField(**model_bounds(Coupon, "code"), validators=[validate_one_line])
    discount = serializers.IntegerField(
        **model_bounds(Coupon, "discount"),
        error_messages=dict.fromkeys(["invalid", "min_value", "max_value"], DISCOUNT_RULE),
    )
    description = serializers.CharField(
        **model_bounds(Coupon, "description"),
        required=False,
        allow_blank=True,
        validators=[validate_one_line],
    )
    isActive = serializers.BooleanField(source="is_active", required=False)
    oncePerPerson = serializers.BooleanField(source="once_per_person", required=False)
    maxUses = serializers.IntegerField(
        **model_bounds(Coupon, "max_uses"),
        source="max_uses",
        required=False,
        allow_null=True,
        error_messages={"min_value": MAX_USES_RULE},
        help_text="How many payments it may take in all; null for no limit.",
    )
    validFrom = serializers.DateField(source="valid_from", required=False, allow_null=True)
    validUntil = serializers.DateField(source="valid_until", required=False, allow_null=True)
