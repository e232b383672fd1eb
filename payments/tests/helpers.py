"""What the payment tests do as a person would (ask for an intent, save a payment) and what they
ask Stripe (here localstripe) to see what really happened there; and payments and refunds recorded
as made, for the tests of what the books sum."""

from datetime import datetime
from decimal import Decimal

from django.test import Client

from payments import gateway
from payments.models import Payment, Refund


def paid(booking, amount: str, at: datetime, status: str = "succeeded", **fields) -> Payment:
    """A payment of `amount` for `booking`, made at `at` (with a coupon, say, in `fields`)."""
    return Payment.objects.create(
        booking=booking,
        user=booking.user,
        amount=Decimal(amount),
        currency="usd",
        payment_intent_id=f"pi_{booking.pk}_{amount}_{at:%Y%m%d%H%M%S}",
        status=status,
        paid_at=at,
        **fields,
    )


def refunded(payment: Payment, amount: str, at: datetime | None, status: str = "succeeded") -> Refund:
    """A refund of `amount` of `payment`, made at `at` (None: not made)."""
    return Refund.objects.create(
        payment=payment, amount=Decimal(amount), reason="x", status=status, refunded_at=at
    )


def intent(client: Client, booking, **fields):
    return client.post(
        "/api/create-payment-intent", {"bookingId": booking.pk, **fields}, content_type="application/json"
    )


def save(client: Client, client_secret: str):
    intent_id = client_secret.split("_secret_")[0]
    return client.post("/api/save-payment", {"paymentIntentId": intent_id}, content_type="application/json")


def stripe_intents(booking) -> list:
    """The PaymentIntents Stripe holds for `booking`, whatever our database says."""
    intents = gateway._client().v1.payment_intents.list(params={"limit": 100})
    return [i for i in intents.data if i.metadata.to_dict().get("booking_id") == str(booking.pk)]


def stripe_refunds(intent_id: str) -> list:
    return gateway._client().v1.refunds.list(params={"payment_intent": intent_id}).data


def client_like(signed_in: Client) -> Client:
    """Another test client with the same session, for another thread."""
    client = Client()
    client.cookies.load({name: morsel.value for name, morsel in signed_in.cookies.items()})
    return client
