"""What localstripe's fake Stripe.js lacks for a card payment. It cannot pay with card details, and
localstripe takes a payment method only with the secret key, so the adapter script hands the test
card to LocalConfirmApi, which does what Stripe.js does against real Stripe: it pays the intent with
the card, or, for a card that needs 3-D Secure, tells the adapter to show the test page where the
person completes or fails the authentication, and passes the answer on."""

import stripe
from django.http import Http404
from django.shortcuts import render
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.api import valid
from payments import gateway
from payments.models import Payment


def adapter_script(request):
    return render(request, "local/stripe_adapter.js", content_type="text/javascript")


class LocalCardInput(serializers.Serializer):
    number = serializers.CharField(max_length=19)
    exp_month = serializers.CharField(max_length=2)
    exp_year = serializers.CharField(max_length=4)
    cvc = serializers.CharField(max_length=4)


class LocalConfirmInput(serializers.Serializer):
    clientSecret = serializers.CharField(max_length=255)
    card = LocalCardInput(required=False)
    # The person's answer on the 3-D Secure test page: completed, or failed.
    authenticated = serializers.BooleanField(required=False)

    def validate(self, data):
        if ("card" in data) == ("authenticated" in data):
            raise serializers.ValidationError("Send either the card or the authentication's answer.")
        return data


# What Stripe.js answers when the person fails a card's authentication.
AUTHENTICATION_FAILED = (
    "We are unable to authenticate your payment method. "
    "Please choose a different payment method and try again."
)


class LocalConfirmApi(APIView):
    """Pays the caller's PaymentIntent with a test card, answering the way Stripe.js's
    confirmCardPayment does: {paymentIntent} or {error: {type, message}}."""

    @extend_schema(exclude=True)  # local mode only: not part of the product's API
    def post(self, request):
        data = valid(LocalConfirmInput, request.data)
        intent_id = data["clientSecret"].split("_secret_")[0]
        # The caller's (a series paid at once has a row per date, all naming the one intent).
        if not Payment.objects.filter(payment_intent_id=intent_id, user=request.user).exists():
            raise Http404
        try:
            if "card" in data:
                intent = gateway.pay_with_card(intent_id, data["card"])
            else:
                client = gateway._client()
                answer = client.raw_request(
                    "post",
                    f"/v1/payment_intents/{intent_id}/_authenticate",
                    client_secret=data["clientSecret"],
                    success=str(data["authenticated"]).lower(),
                )
                intent = client.deserialize(answer, api_mode="V1")
        except stripe.CardError as error:
            refusal = {"code": error.code, "decline_code": getattr(error.error, "decline_code", None)}
            return Response({"error": {"type": "card_error", "message": error.user_message, **refusal}})
        if data.get("authenticated") is False:
            refusal = {"code": "payment_intent_authentication_failure", "message": AUTHENTICATION_FAILED}
            return Response({"error": {"type": "card_error", **refusal}})
        return Response({"paymentIntent": {"id": intent.id, "status": intent.status}})
