"""localstripe as the tests use it: a card paying a PaymentIntent the way Stripe.js would, and a
clean slate per test."""

import json
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import stripe
from django.conf import settings
from django.test import override_settings

from payments import gateway
from scripts import local_stack
from testing import environment


def is_running() -> bool:
    return local_stack.answering(f"{settings.STRIPE_API_BASE}/v1/charges")


def running():
    """localstripe at STRIPE_API_BASE while this lasts, started there if none answers."""
    return local_stack.running(
        is_running,
        lambda: local_stack.start_localstripe(
            settings.STRIPE_API_BASE, name=f"localstripe-{environment.PROCESS}"
        ),
    )


def clear() -> None:
    request = urllib.request.Request(f"{settings.STRIPE_API_BASE}/_config/data", method="DELETE")
    with urllib.request.urlopen(request, timeout=5):
        pass


@contextmanager
def reached_at(base: str) -> Iterator[None]:
    """The site's Stripe client speaks to the Stripe at `base` while this lasts (another localstripe:
    the fault tests' own), then to the one it had."""
    with override_settings(STRIPE_API_BASE=base):
        gateway._client.cache_clear()
        try:
            yield
        finally:
            gateway._client.cache_clear()


def unreachable():
    """Stripe out of reach while this lasts, as in an outage: the site's client pointed at a port
    where nothing listens."""
    return reached_at(f"http://127.0.0.1:{local_stack.free_port()}")


def register_webhook(url: str) -> None:
    local_stack.register_webhook(url, base=settings.STRIPE_API_BASE, secret=settings.STRIPE_WEBHOOK_SECRET)


def pay(client_secret: str, card: str = "4242424242424242", *, api_base: str = ""):
    """Pays the PaymentIntent of `client_secret` with a test card; answers the intent afterwards.
    (localstripe cannot confirm with a payment method given at once: set it, then confirm.)
    `api_base` names another localstripe than the site's (the fault tests run one of their own)."""
    client = (
        stripe.StripeClient(settings.STRIPE_SECRET_KEY, base_addresses={"api": api_base})
        if api_base
        else gateway._client()
    )
    intent_id = client_secret.split("_secret_")[0]
    method = client.v1.payment_methods.create(
        params={"type": "card", "card": {"number": card, "exp_month": 12, "exp_year": 2034, "cvc": "123"}}
    )
    client.v1.payment_intents.update(intent_id, params={"payment_method": method.id})
    return client.v1.payment_intents.confirm(intent_id)


def renew(subscription_id: str, *, fail: bool = False, api_base: str = "") -> dict:
    """What Stripe does when a subscription's period ends (scripts/localstripe_server.py): renews it,
    charging the card on file (declined, with `fail`), or ends it if it was to end then.
    `api_base` names another localstripe than the site's, as for `pay`."""
    data = urllib.parse.urlencode({"fail": str(fail).lower()}).encode()
    base = api_base or settings.STRIPE_API_BASE
    request = urllib.request.Request(
        f"{base}/_config/subscriptions/{subscription_id}/renew", data=data, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)
