"""Stripe, behind a few functions. In local mode the same code talks to localstripe."""

from functools import cache

import stripe
from django.conf import settings

from club.errors import ProviderUnavailable


class PaymentProviderUnavailable(ProviderUnavailable):
    """Stripe (or localstripe) did not answer, or answered with an error of its own."""


@cache
def _client() -> stripe.StripeClient:
    options = {"base_addresses": {"api": settings.STRIPE_API_BASE}} if settings.STRIPE_API_BASE else {}
    # No automatic retries: a payment call either happens once or the caller is told it failed.
    return stripe.StripeClient(
        settings.STRIPE_SECRET_KEY,
        max_network_retries=0,
        http_client=stripe.RequestsClient(timeout=settings.PROVIDER_TIMEOUT),
        **options,
    )


def _call(method, *args, **kwargs):
    try:
        return method(*args, **kwargs)
    except stripe.StripeError as error:
        raise PaymentProviderUnavailable(error.user_message or str(error)) from error


def create_intent(*, amount_cents: int, metadata: dict) -> stripe.PaymentIntent:
    params = {
        "amount": amount_cents,
        "currency": settings.CURRENCY,
        "payment_method_types": ["card"],
        "metadata": metadata,
    }
    return _call(_client().v1.payment_intents.create, params=params)


def retrieve_intent(intent_id: str) -> stripe.PaymentIntent:
    return _call(_client().v1.payment_intents.retrieve, intent_id)


def refund(intent_id: str) -> None:
    _call(_client().v1.refunds.create, params={"payment_intent": intent_id})


def parse_webhook(payload: bytes, signature: str) -> stripe.Event:
    """The event, if Stripe signed it with our secret; ValueError otherwise."""
    try:
        return stripe.Webhook.construct_event(payload, signature, settings.STRIPE_WEBHOOK_SECRET)
    except stripe.SignatureVerificationError as error:
        raise ValueError("The signature does not match.") from error


def provider_status() -> dict:
    """For /healthz: which provider, and whether it answers."""
    status = {"provider": "localstripe" if settings.STRIPE_API_BASE else "stripe"}
    try:
        _call(_client().v1.charges.list, params={"limit": 1})
    except PaymentProviderUnavailable as error:
        return {**status, "ok": False, "error": str(error)}
    return {**status, "ok": True}
