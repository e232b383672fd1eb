from rest_framework import serializers

from accounts.serializers import NormalisedEmailField
from club.api import IdField

from .models import Payment, Refund


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
    bookingId = serializers.IntegerField(source="booking_id")
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


class PaymentIntentInput(serializers.Serializer):
    """`amountInCents`, if sent, must be the server's; `userEmail`, if sent, the caller's."""

    bookingId = IdField()
    amountInCents = serializers.IntegerField(min_value=0, required=False)
    userEmail = NormalisedEmailField(required=False)
    couponCode = serializers.CharField(max_length=40, required=False, allow_blank=True)


class PaymentListQuery(serializers.Serializer):
    email = NormalisedEmailField(
        required=False, allow_blank=True, help_text="One person's (yours, or anyone's for an admin)."
    )


class SavePaymentInput(serializers.Serializer):
    """Only `paymentIntentId` counts: the rest is what Stripe says, not the client."""

    paymentIntentId = serializers.CharField(max_length=255)
