"""A payment that arrives for a booking it can no longer keep is refunded, exactly once, however
often the confirmation is tried again after something failed around the refund."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import OperationalError
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_request
from bookings.tests.factories import approved_at, make_booking
from courts.tests.factories import CourtFactory
from payments import gateway
from payments.models import Payment, Refund
from payments.tests.helpers import intent, save, stripe_refunds

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid_for_a_lost_booking(people, localstripe):
    """Ada's booking expired before she paid, and Bob took its slot: her payment cannot keep it."""
    ada = User.objects.get(email="ada@example.com")
    booking = make_booking(
        user=ada, court=CourtFactory(price=Decimal("20.00")), status=Booking.Status.APPROVED
    )
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)
    Booking.objects.filter(pk=booking.pk).update(**approved_at(timezone.now() - timedelta(days=2)))
    people["owner"].get("/api/bookings/approved")  # listing expires it
    booking_request(
        user=User.objects.get(email="bob@example.com"),
        court=booking.court,
        date=booking.date,
        slots=booking.slots,
    )
    return secret


def test_a_refund_whose_recording_failed_is_not_sent_again(people, paid_for_a_lost_booking, monkeypatch):
    """The database failing right after Stripe refunded cannot be staged with the real parts, so
    Refund.save raises OperationalError once, when it records the refund made."""
    real_save = Refund.save
    failed = []

    def save_failing_once(refund, *args, **kwargs):
        if refund.status == Refund.Status.SUCCEEDED and not failed:
            failed.append(refund.pk)
            raise OperationalError("server closed the connection unexpectedly")
        return real_save(refund, *args, **kwargs)

    monkeypatch.setattr(Refund, "save", save_failing_once)
    secret = paid_for_a_lost_booking

    with pytest.raises(OperationalError):
        save(people["owner"], secret)
    again = save(people["owner"], secret)

    assert failed
    assert again.status_code == 200
    assert again.json()["status"] == "refunded"
    assert [refund.amount for refund in stripe_refunds(secret.split("_secret_")[0])] == [2000]


def test_a_refund_stripe_did_not_take_is_recorded_as_due_and_made_by_the_next_try(
    people, paid_for_a_lost_booking, monkeypatch
):
    """Stripe failing at the moment of the refund cannot be staged while localstripe runs, so the
    gateway's refund raises once as an unreachable Stripe does."""
    real_refund = gateway.refund
    calls = []

    def refund_failing_once(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            raise gateway.PaymentProviderUnavailable("Connection refused")
        return real_refund(*args, **kwargs)

    monkeypatch.setattr(gateway, "refund", refund_failing_once)
    secret = paid_for_a_lost_booking

    first = save(people["owner"], secret)

    assert first.status_code == 503
    assert Payment.objects.get().status == Payment.Status.REFUNDING
    assert stripe_refunds(secret.split("_secret_")[0]) == []

    again = save(people["owner"], secret)

    assert again.json()["status"] == "refunded"
    assert [refund.amount for refund in stripe_refunds(secret.split("_secret_")[0])] == [2000]


def test_the_refund_carries_an_idempotency_key_made_from_its_row(
    people, paid_for_a_lost_booking, stripe_writes
):
    save(people["owner"], paid_for_a_lost_booking)

    refund = Refund.objects.get()
    assert ("/v1/refunds", f"refund-{refund.payment_id}-{refund.pk}") in stripe_writes
    assert refund.status == Refund.Status.SUCCEEDED
