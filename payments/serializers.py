from django.urls import reverse
from rest_framework import serializers

from accounts.models import User

from .models import Payment


class PaymentOutput(serializers.ModelSerializer):
    bookingId = serializers.IntegerField(source="booking_id")
    paymentIntentId = serializers.CharField(source="payment_intent_id")
    paidAt = serializers.DateTimeField(source="paid_at", allow_null=True)
    userEmail = serializers.EmailField(source="user.email")
    couponCode = serializers.CharField(source="coupon.code", default="")

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
        ]


class QuoteInput(serializers.Serializer):
    couponCode = serializers.CharField(max_length=40, required=False, allow_blank=True)


class PaymentIntentInput(serializers.Serializer):
    """The spec's payload; `amountInCents`, if sent, must be the server's; `couponCode` is ours."""

    bookingId = serializers.IntegerField(min_value=1)
    amountInCents = serializers.IntegerField(min_value=0, required=False)
    userEmail = serializers.EmailField(required=False)
    couponCode = serializers.CharField(max_length=40, required=False, allow_blank=True)


class SavePaymentInput(serializers.Serializer):
    """The spec's payload. Only `paymentIntentId` counts: the rest is what Stripe says, not the client."""

    paymentIntentId = serializers.CharField(max_length=255)


class MemberOutput(serializers.ModelSerializer):
    createdAt = serializers.DateTimeField(
        source="member_since", allow_null=True, help_text="When they became a member."
    )
    url = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["id", "name", "email", "createdAt", "url"]

    def get_url(self, member: User) -> str:
        return reverse("api-member", args=[member.pk])
