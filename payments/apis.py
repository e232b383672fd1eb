from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.models import User
from accounts.permissions import IsAdmin, SignInCheckedNow, require_self
from accounts.selectors import user_list
from bookings.models import Booking, Series
from bookings.selectors import bookings_seen_by, own_and_played
from kernel.api import valid
from kernel.days import when
from kernel.errors import Conflict
from kernel.pagination import SLICE_PARAMETERS, sliced_response
from kernel.schema import DETAIL, errors
from memberships.selectors import people_with_memberships, plan_list
from memberships.serializers import MemberWithMembershipOutput

from . import gateway
from .coupons import active_coupons, coupon_create, coupon_delete, coupon_update
from .membership_payments import (
    invoice_event,
    membership_cancel,
    membership_checkout,
    membership_end_by_club,
    renewal_checkout,
    subscription_sync,
)
from .models import Coupon, Payment, Refund
from .selectors import payment_list
from .serializers import (
    CouponInput,
    CouponOutput,
    MembershipCheckoutInput,
    PaymentIntentInput,
    PaymentListQuery,
    PaymentOutput,
    QuoteInput,
    QuoteOutput,
    RefundOutput,
    SavePaymentInput,
    SharesOutput,
)
from .series_payments import series_payment_intent_create
from .services import (
    payment_confirm,
    payment_intent_create,
    payment_quote,
    refund_retry,
    registration_payment_intent_create,
    shares_quote,
)

CLIENT_SECRET = inline_serializer("ClientSecret", {"clientSecret": serializers.CharField()})
# Stripe's events the site acts on: a payment made, and what becomes of memberships' subscriptions.
EVENTS_ACTED_ON = {
    "payment_intent.succeeded",
    "invoice.paid",
    "invoice.payment_succeeded",
    "invoice.payment_failed",
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
}


class QuoteApi(APIView):
    """GET /api/bookings/{id}/quote: each player's share, for those who may see the booking.
    POST {couponCode}: what the caller pays, the coupon's discount and the total (rate-limited:
    codes are not to be guessed by trying them)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "quote"

    def get_throttles(self):
        return super().get_throttles() if self.request.method == "POST" else []

    @extend_schema(responses={200: SharesOutput, **errors(401, 404)})
    def get(self, request, booking_id: int):
        booking = get_object_or_404(bookings_seen_by(request.user), pk=booking_id)
        return Response(SharesOutput(shares_quote(booking=booking, viewer=request.user)).data)

    @extend_schema(request=QuoteInput, responses={200: QuoteOutput, **errors(400, 401, 403, 404, 409)})
    def post(self, request, booking_id: int):
        data = valid(QuoteInput, request.data)
        booking = get_object_or_404(
            own_and_played(request.user), pk=booking_id, status=Booking.Status.APPROVED
        )
        quote = payment_quote(booking=booking, payer=request.user, coupon_code=data.get("couponCode", ""))
        return Response(QuoteOutput(quote).data)


class PaymentIntentApi(APIView):
    """POST /api/create-payment-intent: the client secret to pay an approved booking."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "payment"
    permission_classes = [IsAuthenticated, SignInCheckedNow]

    @extend_schema(
        request=PaymentIntentInput,
        responses={
            200: CLIENT_SECRET,
            **errors(400, 401, 403, 404, 409, 503),
        },
    )
    def post(self, request):
        fields = valid(PaymentIntentInput, request.data)
        message = "You can only pay for your own bookings."
        require_self(request.user, fields.get("userEmail"), or_admin=False, message=message)
        booking = get_object_or_404(own_and_played(request.user), pk=fields["bookingId"])
        client_secret = payment_intent_create(
            user=request.user,
            booking=booking,
            coupon_code=fields.get("couponCode", ""),
            amount_cents=fields.get("amountInCents"),
        )
        return Response({"clientSecret": client_secret})


class SeriesPaymentIntentApi(APIView):
    """POST /api/series/{id}/payment-intent: the client secret to pay, at once, every approved date
    of your series still unpaid (when the policy pays series at once)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "payment"
    permission_classes = [IsAuthenticated, SignInCheckedNow]

    @extend_schema(request=None, responses={200: CLIENT_SECRET, **errors(401, 403, 404, 409, 503)})
    def post(self, request, series_id: int):
        series = get_object_or_404(Series, pk=series_id, user=request.user)
        return Response({"clientSecret": series_payment_intent_create(user=request.user, series=series)})


class RegistrationPaymentIntentApi(APIView):
    """POST /api/registrations/{id}/payment-intent: the client secret to pay for the place in a
    program held for you."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "payment"
    permission_classes = [IsAuthenticated, SignInCheckedNow]

    @extend_schema(request=None, responses={200: CLIENT_SECRET, **errors(401, 404, 409, 503)})
    def post(self, request, registration_id: int):
        registration = get_object_or_404(request.user.registrations.all(), pk=registration_id)
        secret = registration_payment_intent_create(user=request.user, registration=registration)
        return Response({"clientSecret": secret})


class SavePaymentApi(APIView):
    """POST /api/save-payment: confirm the booking, once Stripe says the payment succeeded."""

    permission_classes = [IsAuthenticated, SignInCheckedNow]

    @extend_schema(
        request=SavePaymentInput, responses={200: PaymentOutput, **errors(400, 401, 403, 409, 503)}
    )
    def post(self, request):
        intent_id = valid(SavePaymentInput, request.data)["paymentIntentId"]
        payment = payment_confirm(payment_intent_id=intent_id, user=request.user)
        return Response(PaymentOutput(payment).data)


class PaymentListApi(APIView):
    """GET /api/payments?email=: your payments; an admin's, anyone's."""

    @extend_schema(
        parameters=[PaymentListQuery, *SLICE_PARAMETERS],
        responses={200: PaymentOutput(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        email = valid(PaymentListQuery, request.query_params).get("email", "")
        require_self(request.user, email, or_admin=True, message="You can only list your own payments.")
        return sliced_response(request, payment_list(viewer=request.user, email=email), PaymentOutput)


class MemberListApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        parameters=[
            OpenApiParameter("search", str, description="Part of a name or e-mail, any case."),
            *SLICE_PARAMETERS,
        ],
        responses={200: MemberWithMembershipOutput(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        members = user_list(search=request.query_params.get("search", ""), role=User.Role.MEMBER)
        return sliced_response(request, people_with_memberships(members), MemberWithMembershipOutput)


class MemberApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(responses={204: None, **errors(401, 403, 404, 409)})
    def delete(self, request, member_id: int):
        member = get_object_or_404(user_list(role=User.Role.MEMBER), pk=member_id)
        membership_end_by_club(member=member, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StripeWebhookApi(APIView):
    """Stripe's events: `payment_intent.succeeded` confirms what was paid, as save-payment does;
    an invoice's or a subscription's event brings the membership up to date with Stripe. A repeated
    or late event finds the work done. Every answer is `{"detail": ...}`."""

    authentication_classes = []  # Stripe signs the request instead; the signature is checked below
    permission_classes = [AllowAny]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[OpenApiParameter("Stripe-Signature", str, OpenApiParameter.HEADER, required=True)],
        responses={
            200: OpenApiResponse(DETAIL, description="Received: what became of the event."),
            400: OpenApiResponse(DETAIL, description="A bad signature, or an event naming no object."),
            **errors(503),
        },
    )
    def post(self, request):
        try:
            event = gateway.parse_webhook(request.body, request.headers.get("Stripe-Signature", ""))
        except ValueError as error:
            return Response({"detail": str(error)}, status=status.HTTP_400_BAD_REQUEST)
        kind = event.get("type")
        data = event.get("data")
        obj = data.get("object") if isinstance(data, dict) else None
        object_id = obj.get("id") if isinstance(obj, dict) else None
        if not isinstance(kind, str) or kind not in EVENTS_ACTED_ON:
            return Response({"detail": "Not an event this site acts on: ignored."})
        if not isinstance(object_id, str) or not object_id:
            raise exceptions.ParseError("The event names no object (data.object.id).")
        if kind.startswith("invoice."):
            membership = invoice_event(invoice_id=object_id)
        elif kind.startswith("customer.subscription."):
            membership = subscription_sync(subscription_id=object_id)
        else:
            return self._intent_succeeded(object_id)
        if membership is None:
            return Response({"detail": "Not one of our memberships: ignored."})
        return Response({"detail": f"The membership is {membership.get_status_display().lower()}."})

    def _intent_succeeded(self, intent_id: str) -> Response:
        if not Payment.objects.filter(payment_intent_id=intent_id).exists():
            return Response({"detail": "Not one of our payments: ignored."})
        try:
            payment = payment_confirm(payment_intent_id=intent_id)
        except Conflict as refusal:  # recorded as it is: nothing for Stripe to send again
            return Response({"detail": f"Not confirmed: {refusal}"})
        return Response({"detail": f"The payment is recorded as {payment.status}."})


class MembershipCheckoutApi(APIView):
    """POST /api/memberships {planId}: the client secret to pay the first period of the caller's
    membership of a plan on sale (a renewing plan's: its subscription's first invoice)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "payment"
    permission_classes = [IsAuthenticated, SignInCheckedNow]

    @extend_schema(
        request=MembershipCheckoutInput,
        responses={200: CLIENT_SECRET, **errors(400, 401, 404, 409, 503)},
    )
    def post(self, request):
        plan_id = valid(MembershipCheckoutInput, request.data)["planId"]
        plan = get_object_or_404(plan_list(viewer=request.user, on_sale=True), pk=plan_id)
        return Response({"clientSecret": membership_checkout(user=request.user, plan=plan)})


class MembershipRenewalApi(APIView):
    """POST /api/memberships/me/renewal: the client secret to pay, with another card, the renewal of
    the caller's past-due membership (that card then pays the next ones)."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "payment"
    permission_classes = [IsAuthenticated, SignInCheckedNow]

    @extend_schema(request=None, responses={200: CLIENT_SECRET, **errors(401, 409, 503)})
    def post(self, request):
        return Response({"clientSecret": renewal_checkout(user=request.user)})


class MembershipCancelApi(APIView):
    """POST /api/memberships/me/cancel: the caller's renewing membership ends when the period paid
    ends, instead of renewing."""

    permission_classes = [IsAuthenticated, SignInCheckedNow]

    @extend_schema(request=None, responses={200: DETAIL, **errors(401, 409, 503)})
    def post(self, request):
        membership = membership_cancel(user=request.user)
        return Response(
            {"detail": f"Your membership ends on {when(membership.period_end)}: it will not renew."}
        )


class RefundRetryApi(APIView):
    """POST /api/refunds/{id}/retry: an admin tries a failed refund again (503 if Stripe fails again)."""

    permission_classes = [IsAdmin]

    @extend_schema(request=None, responses={200: RefundOutput, **errors(401, 403, 404, 409, 503)})
    def post(self, request, refund_id: int):
        refund = get_object_or_404(Refund, pk=refund_id)
        return Response(RefundOutput(refund_retry(refund=refund, by=request.user)).data)


class CouponListApi(APIView):
    """GET: the active coupons (anyone). POST: add a coupon (admins)."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(parameters=SLICE_PARAMETERS, responses={200: CouponOutput(many=True), **errors(400)})
    def get(self, request):
        return sliced_response(request, active_coupons(), CouponOutput)

    @extend_schema(request=CouponInput, responses={201: CouponOutput, **errors(400, 401, 403)})
    def post(self, request):
        coupon = coupon_create(by=request.user, **valid(CouponInput, request.data))
        return Response(CouponOutput(coupon).data, status=status.HTTP_201_CREATED)


class CouponDetailApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(request=CouponInput, responses={200: CouponOutput, **errors(400, 401, 403, 404)})
    def patch(self, request, coupon_id: int):
        coupon = get_object_or_404(Coupon, pk=coupon_id)
        changes = valid(CouponInput, request.data, partial=True)
        coupon = coupon_update(coupon=coupon, by=request.user, **changes)
        return Response(CouponOutput(coupon).data)

    @extend_schema(responses={204: None, **errors(401, 403, 404)})
    def delete(self, request, coupon_id: int):
        coupon_delete(coupon=get_object_or_404(Coupon, pk=coupon_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
