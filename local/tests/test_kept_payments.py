"""localstripe as `make run` starts it (scripts/local_stack.py --keep-payments): what it knew at the
last run is still known at the next, as the database that records it still is."""

import pytest
import stripe
from django.conf import settings

from scripts import local_stack

# It starts localstripes of its own: the integration layer.
pytestmark = pytest.mark.integration


def customer_known(base: str, customer_id: str) -> bool:
    client = stripe.StripeClient(settings.STRIPE_SECRET_KEY, base_addresses={"api": base})
    try:
        client.v1.customers.retrieve(customer_id)
    except stripe.InvalidRequestError:
        return False
    return True


def test_a_kept_localstripe_knows_after_a_restart_what_it_knew_before(tmp_path):
    base, store = f"http://127.0.0.1:{local_stack.free_port()}", tmp_path / "stripe.pickle"
    first = local_stack.start_localstripe(base, from_scratch=False, name="localstripe-kept", store=store)
    try:
        client = stripe.StripeClient(settings.STRIPE_SECRET_KEY, base_addresses={"api": base})
        customer = client.v1.customers.create(params={"email": "ada@example.com"})
    finally:
        local_stack.stop(first)

    again = local_stack.start_localstripe(base, from_scratch=False, name="localstripe-kept", store=store)
    try:
        assert customer_known(base, customer.id)
    finally:
        local_stack.stop(again)
    afresh = local_stack.start_localstripe(base, name="localstripe-kept", store=store)
    try:
        assert not customer_known(base, customer.id)
    finally:
        local_stack.stop(afresh)
