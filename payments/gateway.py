"""Stripe, behind a few functions. In local mode the same code talks to localstripe."""

import json
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any, Literal, cast

import stripe
from django.conf import settings
from stripe.params import (
    CustomerCreateParams,
    InvoiceRetrieveParams,
    PaymentIntentCreateParams,
    PaymentIntentRetrieveParams,
    PaymentMethodCreateParamsCard,
    PlanCreateParams,
    RefundCreateParams,
    SubscriptionCreateParams,
    SubscriptionRetrieveParams,
    SubscriptionUpdateParams,
)

from kernel.errors import ProviderUnavailable


class PaymentProviderUnavailable(ProviderUnavailable):
    """Stripe did not answer, or answered with an error: unless refused, the call may go through later."""


class PaymentRefused(PaymentProviderUnavailable):
    """Stripe will not do this (a 4xx other than 429): the same call would be refused again."""


class IntentNotFound(PaymentRefused):
    """Stripe knows no such PaymentIntent (test data deleted, or other keys): nobody can pay it."""


@cache
def _client() -> stripe.StripeClient:
    # No automatic retries: a payment call either happens once or the caller is told it failed.
    return stripe.StripeClient(
        settings.STRIPE_SECRET_KEY,
        max_network_retries=0,
        http_client=stripe.RequestsClient(timeout=settings.PROVIDER_TIMEOUT),
        base_addresses={"api": settings.STRIPE_API_BASE} if settings.STRIPE_API_BASE else None,
    )


def _call[**P, R](method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    try:
        return method(*args, **kwargs)
    except (stripe.InvalidRequestError, stripe.CardError) as error:
        raise PaymentRefused(error.user_message or str(error)) from error
    except stripe.StripeError as error:
        raise PaymentProviderUnavailable(error.user_message or str(error)) from error


def create_intent(
    *, amount_cents: int, metadata: dict[str, str], idempotency_key: str
) -> stripe.PaymentIntent:
    params: PaymentIntentCreateParams = {
        "amount": amount_cents,
        "currency": settings.CURRENCY,
        # Sent as it always was: the types of stripe's newest API version (2026-10-28) have only
        # allowed_payment_method_types.
        "payment_method_types": ["card"],  # type: ignore[typeddict-unknown-key]
        "metadata": metadata,
    }
    return _call(
        _client().v1.payment_intents.create, params=params, options={"idempotency_key": idempotency_key}
    )


def retrieve_intent(intent_id: str, *, with_payment_method: bool = False) -> stripe.PaymentIntent:
    """The intent; `with_payment_method`: its payment method too, not only its id (card_last4)."""
    params: PaymentIntentRetrieveParams = {"expand": ["payment_method"]} if with_payment_method else {}
    try:
        return _call(_client().v1.payment_intents.retrieve, intent_id, params=params)
    except PaymentRefused as refusal:
        if getattr(refusal.__cause__, "http_status", None) == 404:
            raise IntentNotFound(str(refusal)) from refusal.__cause__
        raise


def card_last4(intent: stripe.PaymentIntent) -> str:
    """The last four digits of the card that paid `intent` (retrieved with its payment method)."""
    card = getattr(intent.payment_method, "card", None)
    return getattr(card, "last4", "") or ""


def pay_with_card(intent_id: str, card: PaymentMethodCreateParamsCard) -> stripe.PaymentIntent:
    """Pays the intent with card details, as Stripe.js's confirmCardPayment does in a browser: the
    card made a payment method of the intent, which is then confirmed (localstripe cannot take both
    in one call). Only where no Stripe.js can: localstripe's card adapter (local/cards.py) and the
    demo's members (seed_demo); the site's own pages never send a card to the server. Stripe's
    errors are raised as Stripe's (a declined card: stripe.CardError, with its codes)."""
    client = _client()
    method = client.v1.payment_methods.create(params={"type": "card", "card": card})
    client.v1.payment_intents.update(intent_id, params={"payment_method": method.id})
    return client.v1.payment_intents.confirm(intent_id)


def cancel_intent(intent_id: str, *, idempotency_key: str) -> None:
    """Cancels the intent; one Stripe refuses because it is cancelled already is done."""
    try:
        _call(_client().v1.payment_intents.cancel, intent_id, options={"idempotency_key": idempotency_key})
    except PaymentRefused:
        if retrieve_intent(intent_id).status != "canceled":
            raise


def refund(intent_id: str, *, amount_cents: int, refund_id: int, idempotency_key: str) -> stripe.Refund:
    """Gives back `amount_cents` of the intent; the metadata names our row (find_refund)."""
    params: RefundCreateParams = {
        "payment_intent": intent_id,
        "amount": amount_cents,
        "metadata": {"refund_id": str(refund_id)},
    }
    return _call(_client().v1.refunds.create, params=params, options={"idempotency_key": idempotency_key})


def find_refund(intent_id: str, *, refund_id: int, or_any: bool = False) -> stripe.Refund | None:
    """The refund (not failed) Stripe made of the intent for our row `refund_id`: found even after
    the idempotency key's 24 hours. With `or_any`, failing that, any refund of the intent: a payment
    not kept is refunded once, in full."""
    refunds = _call(_client().v1.refunds.list, params={"payment_intent": intent_id, "limit": 100})
    made = [refund for refund in refunds.data if refund.status not in ("failed", "canceled")]
    for refund in made:
        if refund.metadata and refund.metadata.to_dict().get("refund_id") == str(refund_id):
            return refund
    return made[0] if made and or_any else None


def ensure_stripe_plan(*, plan_ref: str, amount_cents: int, interval: str, name: str) -> None:
    """Stripe's recurring price for a club plan at one price, known by the id `plan_ref` that says
    both (a plan whose price changes gets another): made the first time it is needed."""
    try:
        _call(_client().v1.plans.retrieve, plan_ref)
        return
    except PaymentRefused as refusal:
        if getattr(refusal.__cause__, "http_status", None) != 404:
            raise
    params: PlanCreateParams = {
        "id": plan_ref,
        "amount": amount_cents,
        "currency": settings.CURRENCY,
        "interval": cast(Literal["month", "year"], interval),
        "product": {"name": name},
    }
    try:
        _call(_client().v1.plans.create, params=params, options={"idempotency_key": f"plan-{plan_ref}"})
    except PaymentRefused:
        _call(_client().v1.plans.retrieve, plan_ref)  # made meanwhile by another caller, or refused


def create_customer(*, email: str, metadata: dict[str, str], idempotency_key: str) -> stripe.Customer:
    params: CustomerCreateParams = {"email": email, "metadata": metadata}
    return _call(_client().v1.customers.create, params=params, options={"idempotency_key": idempotency_key})


def create_subscription(
    *, customer_id: str, plan_ref: str, metadata: dict[str, str], idempotency_key: str
) -> stripe.Subscription:
    """A subscription whose first invoice waits for the person's card (its PaymentIntent's secret is
    in `latest_invoice.confirmation_secret`); the card that pays it pays the renewals."""
    params: SubscriptionCreateParams = {
        "customer": customer_id,
        "items": [{"plan": plan_ref}],
        "payment_behavior": "default_incomplete",
        "payment_settings": {"save_default_payment_method": "on_subscription"},
        "metadata": metadata,
        "expand": ["latest_invoice.confirmation_secret"],
    }
    return _call(
        _client().v1.subscriptions.create, params=params, options={"idempotency_key": idempotency_key}
    )


def retrieve_subscription(subscription_id: str) -> stripe.Subscription:
    """The subscription, with its latest invoice, that invoice's payments and the secret to pay it."""
    params: SubscriptionRetrieveParams = {
        "expand": ["latest_invoice.confirmation_secret", "latest_invoice.payments"]
    }
    return _call(_client().v1.subscriptions.retrieve, subscription_id, params=params)


def retrieve_invoice(invoice_id: str) -> stripe.Invoice:
    """The invoice, with its payments (invoice_intent_id)."""
    params: InvoiceRetrieveParams = {"expand": ["payments"]}
    return _call(_client().v1.invoices.retrieve, invoice_id, params=params)


def cancel_at_period_end(subscription_id: str, *, idempotency_key: str) -> None:
    params: SubscriptionUpdateParams = {"cancel_at_period_end": True}
    _call(
        _client().v1.subscriptions.update,
        subscription_id,
        params=params,
        options={"idempotency_key": idempotency_key},
    )


def cancel_subscription(subscription_id: str, *, idempotency_key: str) -> None:
    """Ends the subscription now; one ended already is done."""
    try:
        _call(
            _client().v1.subscriptions.cancel, subscription_id, options={"idempotency_key": idempotency_key}
        )
    except PaymentRefused:
        if retrieve_subscription(subscription_id).status != "canceled":
            raise


def invoice_subscription_id(invoice: Any) -> str | None:
    """The subscription an invoice bills."""
    details = getattr(getattr(invoice, "parent", None), "subscription_details", None)
    return getattr(details, "subscription", None)


def invoice_intent_id(invoice: Any) -> str | None:
    """The PaymentIntent that paid an invoice (retrieved with its payments)."""
    for paid in invoice.payments.data:
        if intent := getattr(paid.payment, "payment_intent", None):
            return intent if isinstance(intent, str) else intent.id
    return None


def invoice_client_secret(invoice: Any) -> str:
    """The secret the card form pays an open invoice with."""
    secret = getattr(invoice, "confirmation_secret", None)
    return getattr(secret, "client_secret", "") or ""


def invoice_period(invoice: Any) -> tuple[datetime, datetime]:
    """The period an invoice of a subscription bills (its line's)."""
    period = invoice.lines.data[0].period
    return (datetime.fromtimestamp(period.start, UTC), datetime.fromtimestamp(period.end, UTC))


def parse_webhook(payload: bytes, signature: str) -> dict[str, Any]:
    """The event as Stripe sent it, if Stripe signed it with our secret; ValueError otherwise."""
    try:
        stripe.WebhookSignature.verify_header(
            payload, signature, settings.STRIPE_WEBHOOK_SECRET, stripe.Webhook.DEFAULT_TOLERANCE
        )
    except (stripe.SignatureVerificationError, UnicodeDecodeError) as error:
        raise ValueError("The signature does not match.") from error
    try:
        event = json.loads(payload)
    except ValueError:
        event = None
    if not isinstance(event, dict):
        raise ValueError("The event is not a JSON object.")
    return event


def provider_status() -> dict[str, object]:
    """For /healthz: which provider, and whether it answers."""
    status = {"provider": "localstripe" if settings.STRIPE_API_BASE else "stripe"}
    try:
        _call(_client().v1.charges.list, params={"limit": 1})
    except PaymentProviderUnavailable as error:
        return {**status, "ok": False, "error": str(error)}
    return {**status, "ok": True}
