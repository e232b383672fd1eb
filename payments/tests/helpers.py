"""What the payment tests do as a person would (ask for an intent, save a payment) and what they
ask Stripe (here localstripe) to see what really happened there; and payments and refunds recorded
as made, for the tests of what the books sum."""

import hashlib
import hmac
import json
import time
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.tasks import TaskResultStatus
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from payments import gateway
from payments.models import Payment, Refund
from testing.worker import run_due_tasks


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


def paid_period(membership, amount: str, at: datetime, status: str = "succeeded", **fields) -> Payment:
    """A payment of `amount` for the period of `membership` that starts at `at` (as long as its
    plan's), made at `at`: a renewing plan's by its Stripe invoice, another's by its PaymentIntent."""
    period_start, period_end = membership.plan.period_from(at)
    stripe_id = f"{membership.pk}_{amount}_{at:%Y%m%d%H%M%S}"
    return Payment.objects.create(
        membership=membership,
        user=membership.user,
        amount=Decimal(amount),
        currency="usd",
        **(
            {"stripe_invoice_id": f"in_{stripe_id}"}
            if membership.renews
            else {"payment_intent_id": f"pi_{stripe_id}"}
        ),
        status=status,
        paid_at=at,
        period_start=period_start,
        period_end=period_end,
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


def signed(payload: bytes, secret: str | None = None) -> str:
    """A Stripe-Signature header for `payload`, as Stripe (and localstripe) make them."""
    timestamp = int(time.time())
    mac = hmac.new(
        (secret or settings.STRIPE_WEBHOOK_SECRET).encode(),
        f"{timestamp}.".encode() + payload,
        hashlib.sha256,
    )
    return f"t={timestamp},v1={mac.hexdigest()}"


def event(kind: str, object_id: str, *, object_kind: str = "") -> bytes:
    """A Stripe event of `kind` about the object `object_id`, as Stripe sends it."""
    body = {
        "id": f"evt_{kind}_{object_id}",
        "object": "event",
        "type": kind,
        "data": {"object": {"id": object_id, "object": object_kind or kind.rsplit(".", 1)[0]}},
    }
    return json.dumps(body).encode()


def succeeded_event(intent_id: str) -> bytes:
    return event("payment_intent.succeeded", intent_id)


def post_event(payload: bytes, signature: str | None):
    headers = {"Stripe-Signature": signature} if signature is not None else {}
    return Client().post("/api/stripe/webhook", payload, content_type="application/json", headers=headers)


def retries_made_due() -> None:
    """The worker's next tries, queued for later, are due now (time moved on)."""
    DBTaskResult.objects.filter(status=TaskResultStatus.READY).update(run_after=timezone.now())
    run_due_tasks()
