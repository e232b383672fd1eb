from urllib.parse import urlsplit

import pytest
import stripe
from django.db import connection


@pytest.fixture
def stripe_writes(monkeypatch):
    """Each write the Stripe client sends, as (path, Idempotency-Key). localstripe ignores the key,
    so the tests read what was sent here. (The client adds a random key when none is given.)"""
    sent = []
    send = stripe.RequestsClient.request

    def recording(self, method, url, headers, post_data=None):
        if method == "post":
            sent.append((urlsplit(url).path, headers.get("Idempotency-Key")))
        return send(self, method, url, headers, post_data)

    monkeypatch.setattr(stripe.RequestsClient, "request", recording)
    return sent


@pytest.fixture
def stripe_requests(monkeypatch):
    """Each request the Stripe client sends, as (method, path, whether a database transaction was
    open then). Run in a test with `transaction=True`: otherwise the test's own transaction is."""
    sent = []
    send = stripe.RequestsClient.request

    def recording(self, method, url, headers, post_data=None):
        sent.append((method, urlsplit(url).path, connection.in_atomic_block))
        return send(self, method, url, headers, post_data)

    monkeypatch.setattr(stripe.RequestsClient, "request", recording)
    return sent
