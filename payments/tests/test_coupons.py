"""A coupon keeps its own promises (once per person, so many uses, between two dates, none once it
is withdrawn): they are checked when the intent is made and again when the payment arrives, and
an open intent made on terms the coupon no longer gives is cancelled."""

from datetime import timedelta
from decimal import Decimal
from functools import partial

import pytest
import stripe
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from payments.models import Coupon, Payment
from payments.tests.helpers import client_like, intent, save, stripe_intents, stripe_refunds
from testing.concurrency import at_once

pytestmark = pytest.mark.django_db
REFUNDED = "Your payment has been refunded: you can pay for this booking again."


@pytest.fixture
def court(localstripe):
    return CourtFactory(price=Decimal("100.00"), slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"])


def approved(email: str, court, slot: int = 0) -> Booking:
    user = User.objects.get(email=email)
    return make_booking(user=user, court=court, slots=[court.slots[slot]], status=Booking.Status.APPROVED)


def paid_with(email: str, coupon: Coupon, status: str) -> Payment:
    booking = make_booking(user=User.objects.get(email=email), status=Booking.Status.CONFIRMED)
    return Payment.objects.create(
        booking=booking,
        user=booking.user,
        amount=booking.price,
        currency="usd",
        coupon=coupon,
        discount=coupon.discount,
        payment_intent_id=f"pi_{booking.pk}",
        status=status,
    )


def intent_id(secret: str) -> str:
    return secret.split("_secret_")[0]


def test_a_once_per_person_coupon_pays_for_one_booking_only(people, court, localstripe):
    Coupon.objects.create(code="WELCOME20", discount=20, once_per_person=True)
    owner = people["owner"]
    first, second, third = (approved("ada@example.com", court, slot) for slot in range(3))
    secrets = [
        intent(owner, booking, couponCode="WELCOME20").json()["clientSecret"] for booking in (first, second)
    ]
    for secret in secrets:
        localstripe.pay(secret)

    assert save(owner, secrets[0]).json()["status"] == "succeeded"
    refused = save(owner, secrets[1])

    used = "The coupon WELCOME20 is once per person, and you have used it already."
    assert refused.status_code == 409
    assert refused.json() == {"detail": f"{used} {REFUNDED}"}
    second.refresh_from_db()
    assert second.status == Booking.Status.APPROVED
    assert [refund.amount for refund in stripe_refunds(intent_id(secrets[1]))] == [8000]
    assert intent(owner, third, couponCode="WELCOME20").json() == {"couponCode": [used]}
    # The booking whose payment was refunded is paid again, at full price.
    again = intent(owner, second).json()["clientSecret"]
    localstripe.pay(again)
    assert save(owner, again).json()["status"] == "succeeded"
    second.refresh_from_db()
    assert second.status == Booking.Status.CONFIRMED


def test_the_same_coupon_serves_other_people_once_each(people, court):
    coupon = Coupon.objects.create(code="WELCOME20", discount=20, once_per_person=True)
    paid_with("bob@example.com", coupon, Payment.Status.SUCCEEDED)

    assert (
        intent(people["owner"], approved("ada@example.com", court), couponCode="WELCOME20").status_code == 200
    )


def test_a_coupon_used_as_often_as_it_may_be_is_refused_and_refunds_do_not_count(people, court):
    coupon = Coupon.objects.create(code="FIRST2", discount=10, max_uses=2)
    paid_with("bob@example.com", coupon, Payment.Status.SUCCEEDED)
    paid_with("mia@example.com", coupon, Payment.Status.REFUNDED)
    booking = approved("ada@example.com", court)

    assert intent(people["owner"], booking, couponCode="FIRST2").status_code == 200

    paid_with("ann@example.com", coupon, Payment.Status.SUCCEEDED)
    quote = people["owner"].post(
        f"/api/bookings/{booking.pk}/quote", {"couponCode": "FIRST2"}, content_type="application/json"
    )
    assert quote.status_code == 400
    assert quote.json() == {"couponCode": ["There is no coupon FIRST2 on offer now."]}


def test_a_coupon_is_accepted_only_between_its_dates(people, court):
    today = timezone.localdate()
    Coupon.objects.create(code="SOON", discount=10, valid_from=today + timedelta(days=1))
    Coupon.objects.create(code="OVER", discount=10, valid_until=today - timedelta(days=1))
    Coupon.objects.create(code="NOW", discount=10, valid_from=today, valid_until=today)
    booking = approved("ada@example.com", court)

    def refusal(code):
        return intent(people["owner"], booking, couponCode=code).json().get("couponCode")

    assert refusal("SOON") == ["There is no coupon SOON on offer now."]
    assert refusal("OVER") == ["There is no coupon OVER on offer now."]
    assert refusal("NOW") is None


def test_trying_codes_tells_nobody_which_are_hidden_coming_or_used_up(people, court):
    """A code withdrawn, not yet or no longer valid, or used up is refused as one that does not
    exist: the refusal says only what the payer's own use has to do with it."""
    today = timezone.localdate()
    Coupon.objects.create(code="HIDDEN50", discount=50, is_active=False)
    Coupon.objects.create(code="FUTURE90", discount=90, valid_from=today + timedelta(days=200))
    Coupon.objects.create(code="PAST10", discount=10, valid_until=today - timedelta(days=1))
    paid_with("bob@example.com", Coupon.objects.create(code="GONE5", discount=5, max_uses=1), "succeeded")
    booking = approved("ada@example.com", court)

    def refusal(code: str) -> str:
        quote = people["owner"].post(
            f"/api/bookings/{booking.pk}/quote", {"couponCode": code}, content_type="application/json"
        )
        [said] = quote.json()["couponCode"]
        return said.replace(code, "…")

    refusals = {code: refusal(code) for code in ["NOSUCH", "HIDDEN50", "FUTURE90", "PAST10", "GONE5"]}

    assert set(refusals.values()) == {"There is no coupon … on offer now."}


def test_an_intent_made_before_its_coupon_was_withdrawn_can_no_longer_be_paid(
    people, court, localstripe, django_capture_on_commit_callbacks
):
    coupon = Coupon.objects.create(code="BIG99", discount=99)
    booking = approved("ada@example.com", court)
    secret = intent(people["owner"], booking, couponCode="BIG99", amountInCents=100).json()["clientSecret"]

    with django_capture_on_commit_callbacks(execute=True):
        withdrawn = people["admin"].patch(
            f"/api/coupons/{coupon.pk}", {"isActive": False}, content_type="application/json"
        )

    assert withdrawn.status_code == 200
    with pytest.raises(stripe.InvalidRequestError):
        localstripe.pay(secret)
    assert Payment.objects.get().status == Payment.Status.CANCELLED
    assert [i.status for i in stripe_intents(booking)] == ["canceled"]
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED


def test_a_payment_made_with_a_coupon_withdrawn_meanwhile_is_refunded(
    people, court, localstripe, django_capture_on_commit_callbacks
):
    coupon = Coupon.objects.create(code="BIG99", discount=99)
    booking = approved("ada@example.com", court)
    secret = intent(people["owner"], booking, couponCode="BIG99").json()["clientSecret"]
    localstripe.pay(secret)  # paid before the withdrawal: its intent can no longer be cancelled

    with django_capture_on_commit_callbacks(execute=True):
        people["admin"].patch(
            f"/api/coupons/{coupon.pk}", {"isActive": False}, content_type="application/json"
        )
    response = save(people["owner"], secret)

    assert response.status_code == 409
    assert response.json() == {"detail": f"There is no coupon BIG99 on offer now. {REFUNDED}"}
    assert [refund.amount for refund in stripe_refunds(intent_id(secret))] == [100]
    assert Payment.objects.get().status == Payment.Status.REFUNDED
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED
    assert User.objects.get(email="ada@example.com").role == User.Role.USER


def test_changing_a_coupons_discount_cancels_its_open_intents_and_its_description_does_not(
    people, court, django_capture_on_commit_callbacks
):
    coupon = Coupon.objects.create(code="SPRING25", discount=25)
    booking = approved("ada@example.com", court)
    intent(people["owner"], booking, couponCode="SPRING25")

    def change(**fields):
        with django_capture_on_commit_callbacks(execute=True):
            people["admin"].patch(f"/api/coupons/{coupon.pk}", fields, content_type="application/json")
        return Payment.objects.get().status

    assert change(description="Spring is here") == Payment.Status.PENDING
    assert change(discount=30) == Payment.Status.CANCELLED
    assert [i.status for i in stripe_intents(booking)] == ["canceled"]


def test_deleting_a_coupon_or_changing_it_from_the_shell_cancels_its_open_intents(
    people, court, django_capture_on_commit_callbacks
):
    spring = Coupon.objects.create(code="SPRING25", discount=25)
    team = Coupon.objects.create(code="TEAM15", discount=15)
    intent(people["owner"], approved("ada@example.com", court, 0), couponCode="SPRING25")
    intent(people["owner"], approved("ada@example.com", court, 1), couponCode="TEAM15")

    with django_capture_on_commit_callbacks(execute=True):
        people["admin"].delete(f"/api/coupons/{spring.pk}")
        team.valid_until = timezone.localdate() - timedelta(days=1)
        team.save()

    assert list(Payment.objects.values_list("status", flat=True)) == ["cancelled", "cancelled"]


@pytest.mark.django_db(transaction=True)
def test_of_two_simultaneous_payments_with_the_last_use_of_a_coupon_one_is_refunded(
    people, court, localstripe
):
    Coupon.objects.create(code="LAST1", discount=10, max_uses=1)
    payers = [
        (people["owner"], approved("ada@example.com", court, 0)),
        (people["other"], approved("bob@example.com", court, 1)),
    ]
    secrets = [
        intent(client, booking, couponCode="LAST1").json()["clientSecret"] for client, booking in payers
    ]
    for secret in secrets:
        localstripe.pay(secret)

    answers = at_once(
        [
            partial(save, client_like(client), secret)
            for (client, _), secret in zip(payers, secrets, strict=True)
        ]
    )

    assert sorted(answer.status_code for answer in answers) == [200, 409]
    assert sorted(Payment.objects.values_list("status", flat=True)) == ["refunded", "succeeded"]
    assert sum(len(stripe_refunds(intent_id(secret))) for secret in secrets) == 1
