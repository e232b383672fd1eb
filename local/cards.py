"""What localstripe's fake Stripe.js lacks for a card payment. It cannot pay with card details, and
localstripe takes a payment method only with the secret key, so the adapter script hands the test
card to LocalConfirmApi, which does what Stripe.js does against real Stripe."""

import stripe
from django.shortcuts import get_object_or_404, render
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
    card = LocalCardInput()


class LocalConfirmApi(APIView):
    """Pays the caller's PaymentIntent with a test card, answering the way Stripe.js's
    confirmCardPayment does: {paymentIntent} or {error: {type, message}}."""

    @extend_schema(exclude=True)  # local mode only: not part of the product's API
    def post(self, request):
        data = valid(LocalConfirmInput, request.data)
        intent_id = data["clientSecret"].split("_secret_")[0]
        get_object_or_404(Payment, payment_intent_id=intent_id, user=request.user)
        client = gateway._client()
        try:
            method = client.v1.payment_methods.create(params={"type": "card", "card": data["card"]})
            client.v1.payment_intents.update(intent_id, params={"payment_method": method.id})
            intent = client.v1.payment_intents.confirm(intent_id)
        except stripe.CardError as error:
            return Response({"error": {"type": "card_error", "message": error.user_message}})
        return Response({"paymentIntent": {"id": intent.id, "status": intent.status}})
