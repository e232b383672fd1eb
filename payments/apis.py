from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.models import User
from accounts.permissions import IsAdmin
from accounts.selectors import user_list
from bookings.models import Booking
from bookings.selectors import own_bookings
from club.errors import Conflict
from club.schema import errors

from . import gateway
from .models import Payment
from .selectors import payment_list
from .serializers import MemberOutput, PaymentIntentInput, PaymentOutput, QuoteInput, SavePaymentInput
from .services import membership_end, payment_confirm, payment_intent_create, payment_quote


def _own_approved_booking(request, booking_id: int) -> Booking:
    return get_object_or_404(
        own_bookings(request.user),
        pk=booking_id,
        status=Booking.Status.APPROVED,
    )


class QuoteApi(APIView):
    """POST /api/bookings/{id}/quote {couponCode}: the price, the coupon's discount and the total."""

    @extend_schema(
        request=QuoteInput,
        responses={
            200: inline_serializer(
                "Quote",
                {
                    "price": serializers.DecimalField(max_digits=10, decimal_places=2),
                    "couponCode": serializers.CharField(),
                    "discount": serializers.IntegerField(),
                    "total": serializers.DecimalField(max_digits=10, decimal_places=2),
                    "totalInCents": serializers.IntegerField(),
                },
            ),
            **errors(400, 401, 404),
        },
    )
    def post(self, request, booking_id: int):
        data = QuoteInput(data=request.data)
        data.is_valid(raise_exception=True)
        coupon_code = data.validated_data.get("couponCode", "")
        quote = payment_quote(booking=_own_approved_booking(request, booking_id), coupon_code=coupon_code)
        return Response(
            {
                "price": str(quote.price),
                "couponCode": quote.coupon.code if quote.coupon else "",
                "discount": quote.discount,
                "total": str(quote.total),
                "totalInCents": quote.total_cents,
            }
        )


class PaymentIntentApi(APIView):
    """POST /api/create-payment-intent (spec §7): the client secret to pay an approved booking."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "payment"

    @extend_schema(
        request=PaymentIntentInput,
        responses={
            200: inline_serializer("ClientSecret", {"clientSecret": serializers.CharField()}),
            **errors(400, 401, 403, 404, 409, 503),
        },
    )
    def post(self, request):
        data = PaymentIntentInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        if "userEmail" in fields and fields["userEmail"].lower() != request.user.email:
            raise exceptions.PermissionDenied("You can only pay for your own bookings.")
        booking = get_object_or_404(own_bookings(request.user), pk=fields["bookingId"])
        client_secret = payment_intent_create(
            user=request.user,
            booking=booking,
            coupon_code=fields.get("couponCode", ""),
            amount_cents=fields.get("amountInCents"),
        )
        return Response({"clientSecret": client_secret})


class SavePaymentApi(APIView):
    """POST /api/save-payment (spec §7): confirm the booking, once Stripe says the payment succeeded."""

    @extend_schema(
        request=SavePaymentInput, responses={200: PaymentOutput, **errors(400, 401, 403, 409, 503)}
    )
    def post(self, request):
        data = SavePaymentInput(data=request.data)
        data.is_valid(raise_exception=True)
        payment = payment_confirm(payment_intent_id=data.validated_data["paymentIntentId"], user=request.user)
        return Response(PaymentOutput(payment).data)


class PaymentListApi(APIView):
    """GET /api/payments?email=: your payments; an admin's, anyone's."""

    @extend_schema(
        parameters=[
            OpenApiParameter("email", str, description="One person's (yours, or anyone's for an admin).")
        ],
        responses={200: PaymentOutput(many=True), **errors(401, 403)},
    )
    def get(self, request):
        email = request.query_params.get("email", "").strip().lower()
        if email and email != request.user.email and not request.user.is_admin:
            raise exceptions.PermissionDenied("You can only list your own payments.")
        return Response(PaymentOutput(payment_list(viewer=request.user, email=email), many=True).data)


class MemberListApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        parameters=[OpenApiParameter("search", str, description="Part of a name or e-mail, any case.")],
        responses={200: MemberOutput(many=True), **errors(401, 403)},
    )
    def get(self, request):
        members = user_list(search=request.query_params.get("search", ""), role=User.Role.MEMBER)
        return Response(MemberOutput(members, many=True).data)


class MemberApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(responses={204: None, **errors(401, 403, 404, 409)})
    def delete(self, request, member_id: int):
        membership_end(member=get_object_or_404(User, pk=member_id, role=User.Role.MEMBER))
        return Response(status=status.HTTP_204_NO_CONTENT)


class StripeWebhookApi(APIView):
    """Stripe's events: `payment_intent.succeeded` confirms the booking, as save-payment does.
    A bad or missing signature answers 400; a repeated event finds the work done and answers 200."""

    authentication_classes = []  # Stripe signs the request instead; the signature is checked below
    permission_classes = [AllowAny]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[OpenApiParameter("Stripe-Signature", str, OpenApiParameter.HEADER, required=True)],
        responses={200: None, 400: OpenApiResponse(description="The signature does not match.")},
    )
    def post(self, request):
        try:
            event = gateway.parse_webhook(request.body, request.headers.get("Stripe-Signature", ""))
        except ValueError:
            return HttpResponse("Invalid signature.", status=400)
        if event.type == "payment_intent.succeeded":
            intent_id = event.data.object.id
            if Payment.objects.filter(payment_intent_id=intent_id).exists():
                try:
                    payment_confirm(payment_intent_id=intent_id)
                except Conflict:
                    return HttpResponse("Not confirmed.", status=200)  # recorded as is; nothing to retry
        return HttpResponse(status=200)
