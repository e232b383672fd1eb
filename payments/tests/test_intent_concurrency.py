"""One open PaymentIntent per booking, however many requests for it arrive at once, and whatever
coupon each of them carries."""

from collections import Counter
from decimal import Decimal
from functools import partial

import pytest
from django.test import Client

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from payments.models import Coupon, Payment
from payments.tests.helpers import client_like, intent, stripe_intents
from testing.concurrency import at_once

# As many as the payment rate limit lets one person make in a minute.
RACERS = 20

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def booking(people, localstripe):
    ada = User.objects.get(email="ada@example.com")
    return make_booking(user=ada, court=CourtFactory(price=Decimal("20.00")), status=Booking.Status.APPROVED)


def race(owner: Client, booking, bodies: list[dict]) -> list:
    """Sends each body to create-payment-intent at the same moment."""
    return at_once([partial(intent, client_like(owner), booking, **body) for body in bodies])


def test_simultaneous_requests_for_one_booking_make_one_intent(people, booking):
    answers = race(people["owner"], booking, [{}] * RACERS)

    assert Counter(answer.status_code for answer in answers) == {200: RACERS}
    assert len({answer.json()["clientSecret"] for answer in answers}) == 1
    assert Payment.objects.count() == 1
    # Every racer asks Stripe with the payment's key, and Stripe answers them all with one intent.
    # localstripe ignores idempotency keys and makes one per racer that asked before the first was
    # recorded: each of those the payment does not name is cancelled, and only its own is payable.
    [payable] = [i for i in stripe_intents(booking) if i.status != "canceled"]
    assert payable.id == Payment.objects.get().payment_intent_id


def test_simultaneous_requests_with_different_coupons_leave_one_payable_intent(people, booking):
    Coupon.objects.create(code="SPRING25", discount=25)
    Coupon.objects.create(code="TEAM15", discount=15)
    coupons = ["", "SPRING25", "TEAM15"]

    answers = race(people["owner"], booking, [{"couponCode": coupons[n % 3]} for n in range(RACERS)])

    assert {answer.status_code for answer in answers} <= {200, 409}
    payable = [i for i in stripe_intents(booking) if i.status != "canceled"]
    assert len(payable) == 1
    pending = Payment.objects.get(status=Payment.Status.PENDING)
    assert pending.payment_intent_id == payable[0].id
    assert set(Payment.objects.exclude(pk=pending.pk).values_list("status", flat=True)) <= {"cancelled"}
