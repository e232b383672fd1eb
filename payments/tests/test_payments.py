from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.models import User
from bookings.models import BookedSlot, Booking
from bookings.services import booking_request, bookings_expire
from bookings.tests.factories import approved_at, make_booking, tomorrow
from courts.tests.factories import CourtFactory
from memberships.tests.factories import make_plan
from payments.models import Coupon, Payment
from payments.tests.helpers import intent, save, stripe_intents
from testing import stripe_stand_in

pytestmark = pytest.mark.django_db
Status = Booking.Status


@pytest.fixture
def booking(people, localstripe):
    court = CourtFactory(price=Decimal("20.00"), slots=["08:00-09:00", "09:00-10:00"])
    return make_booking(user=User.objects.get(email="ada@example.com"), court=court, status=Status.APPROVED)


# --- create-payment-intent ----------------------------------------------------------------------


def test_the_owner_gets_a_client_secret_for_the_servers_amount(people, booking):
    response = intent(people["owner"], booking, amountInCents=2000, userEmail="ada@example.com")

    assert response.status_code == 200
    assert "_secret_" in response.json()["clientSecret"]
    payment = Payment.objects.get()
    assert (payment.amount, payment.status, payment.currency) == (Decimal("20.00"), "pending", "usd")


def test_a_tampered_amount_is_refused(people, booking):
    response = intent(people["owner"], booking, amountInCents=100)

    assert response.status_code == 400
    assert response.json() == {"amountInCents": ["The amount to pay is 2000 cents."]}
    assert Payment.objects.count() == 0


@pytest.mark.parametrize(
    ("kind", "status_code"), [("anonymous", 401), ("other", 404), ("member", 404), ("admin", 404)]
)
def test_nobody_but_the_owner_pays_a_booking(people, booking, kind, status_code):
    assert intent(people[kind], booking).status_code == status_code
    assert Payment.objects.count() == 0


@pytest.mark.parametrize("status", [Status.PENDING, Status.REJECTED, Status.EXPIRED, Status.CONFIRMED])
def test_only_an_approved_booking_is_paid(people, booking, status):
    Booking.objects.filter(pk=booking.pk).update(status=status)

    response = intent(people["owner"], booking)

    assert response.status_code == 409
    assert "only an approved booking is paid" in response.json()["detail"]


def test_a_booking_for_a_court_archived_since_its_approval_is_not_paid(people, booking):
    booking.court.is_archived = True
    booking.court.save()

    response = intent(people["owner"], booking)

    assert response.status_code == 409
    assert "closed for booking" in response.json()["detail"]
    assert Payment.objects.count() == 0


def test_asking_again_reuses_the_open_intent(people, booking):
    first = intent(people["owner"], booking).json()["clientSecret"]
    again = intent(people["owner"], booking).json()["clientSecret"]

    assert again == first
    assert Payment.objects.count() == 1


def test_another_coupon_cancels_the_open_intent_and_makes_one_for_the_new_amount(people, booking):
    Coupon.objects.create(code="SPRING25", discount=25)
    full = intent(people["owner"], booking).json()["clientSecret"]

    discounted = intent(people["owner"], booking, couponCode="SPRING25").json()["clientSecret"]

    assert discounted != full
    assert list(Payment.objects.order_by("id").values_list("amount", "status")) == [
        (Decimal("20.00"), "cancelled"),
        (Decimal("15.00"), "pending"),
    ]
    assert {i.id: (i.amount, i.status) for i in stripe_intents(booking)} == {
        full.split("_secret_")[0]: (2000, "canceled"),
        discounted.split("_secret_")[0]: (1500, "requires_payment_method"),
    }


def test_every_stripe_write_for_an_intent_carries_a_key_made_from_the_payment(people, booking, stripe_writes):
    Coupon.objects.create(code="SPRING25", discount=25)
    intent(people["owner"], booking)
    intent(people["owner"], booking)
    intent(people["owner"], booking, couponCode="SPRING25")

    first, second = Payment.objects.order_by("id")
    assert stripe_writes == [
        ("/v1/payment_intents", f"payment-intent-{first.pk}"),
        (f"/v1/payment_intents/{first.payment_intent_id}/cancel", f"payment-intent-cancel-{first.pk}"),
        ("/v1/payment_intents", f"payment-intent-{second.pk}"),
    ]


def test_a_coupon_lowers_the_amount_and_is_recorded(people, booking):
    Coupon.objects.create(code="SPRING25", discount=25)

    response = intent(people["owner"], booking, couponCode=" spring25 ", amountInCents=1500)

    assert response.status_code == 200
    payment = Payment.objects.get()
    assert (payment.amount, payment.discount, payment.coupon.code) == (Decimal("15.00"), 25, "SPRING25")


@pytest.mark.parametrize(
    ("coupon", "message"),
    [("NOPE", "There is no coupon NOPE on offer now."), ("OLD", "There is no coupon OLD on offer now.")],
)
def test_an_unknown_or_inactive_coupon_is_refused_alike(people, booking, coupon, message):
    Coupon.objects.create(code="OLD", discount=10, is_active=False)

    quote = people["owner"].post(
        f"/api/bookings/{booking.pk}/quote", {"couponCode": coupon}, content_type="application/json"
    )
    paying = intent(people["owner"], booking, couponCode=coupon)

    assert quote.status_code == paying.status_code == 400
    assert quote.json() == paying.json() == {"couponCode": [message]}


def test_the_quote_answers_the_discount_and_the_new_total(people, booking):
    Coupon.objects.create(code="TEAM15", discount=15)

    response = people["owner"].post(
        f"/api/bookings/{booking.pk}/quote", {"couponCode": "team15"}, content_type="application/json"
    )

    assert response.json() == {
        "price": "20.00",
        "couponCode": "TEAM15",
        "discount": 15,
        "total": "17.00",
        "totalInCents": 1700,
    }


# --- save-payment and confirmation ----------------------------------------------------------------


def test_a_paid_booking_is_confirmed_and_its_owner_becomes_a_member(people, booking, localstripe):
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)

    response = save(people["owner"], secret)

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["amount"], body["bookingId"]) == ("succeeded", "20.00", booking.pk)
    assert body["paymentIntentId"] == secret.split("_secret_")[0]
    booking.refresh_from_db()
    assert booking.status == Status.CONFIRMED
    ada = User.objects.get(email="ada@example.com")
    assert ada.role == User.Role.MEMBER
    assert ada.member_since is not None


@pytest.mark.parametrize("on_sale", [True, False])
def test_once_the_club_sells_a_plan_paying_for_a_booking_makes_nobody_a_member(people, booking, on_sale):
    make_plan(on_sale=on_sale)
    secret = intent(people["owner"], booking).json()["clientSecret"]
    stripe_stand_in.pay(secret)

    assert save(people["owner"], secret).status_code == 200

    booking.refresh_from_db()
    assert booking.status == Status.CONFIRMED
    ada = User.objects.get(email="ada@example.com")
    assert ada.role == (User.Role.USER if on_sale else User.Role.MEMBER)


def test_saving_before_stripe_says_succeeded_is_refused(people, booking):
    secret = intent(people["owner"], booking).json()["clientSecret"]

    response = save(people["owner"], secret)

    assert response.status_code == 409
    assert "has not succeeded" in response.json()["detail"]
    booking.refresh_from_db()
    assert booking.status == Status.APPROVED


def test_a_declined_card_leaves_the_booking_approved(people, booking, localstripe):
    import stripe

    secret = intent(people["owner"], booking).json()["clientSecret"]
    with pytest.raises(stripe.CardError, match="Your card was declined"):
        localstripe.pay(secret, card="4000000000000341")

    assert save(people["owner"], secret).status_code == 409
    booking.refresh_from_db()
    assert booking.status == Status.APPROVED
    assert User.objects.get(email="ada@example.com").role == User.Role.USER


def test_a_replayed_save_payment_creates_nothing_new(people, booking, localstripe):
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)
    first = save(people["owner"], secret).json()
    member_since = User.objects.get(email="ada@example.com").member_since

    again = save(people["owner"], secret)

    assert again.status_code == 200
    assert again.json() == first
    assert Payment.objects.count() == 1
    assert User.objects.get(email="ada@example.com").member_since == member_since


def test_someone_else_cannot_save_the_owners_payment(people, booking, localstripe):
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)

    assert save(people["other"], secret).status_code == 403
    booking.refresh_from_db()
    assert booking.status == Status.APPROVED


def test_an_admin_who_pays_stays_an_admin(sign_in_as, localstripe):
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    court = CourtFactory(price=Decimal("20.00"))
    booking = make_booking(
        user=User.objects.get(email="ann@example.com"), court=court, status=Status.APPROVED
    )
    secret = intent(admin, booking).json()["clientSecret"]
    localstripe.pay(secret)

    save(admin, secret)

    assert User.objects.get(email="ann@example.com").role == User.Role.ADMIN


def test_a_payment_for_a_booking_that_expired_keeps_it_if_its_slots_are_free(people, booking, localstripe):
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)
    Booking.objects.filter(pk=booking.pk).update(**approved_at(timezone.now() - timedelta(days=2)))
    bookings_expire()
    booking.refresh_from_db()
    assert booking.status == Status.EXPIRED

    response = save(people["owner"], secret)

    assert response.json()["status"] == "succeeded"
    booking.refresh_from_db()
    assert booking.status == Status.CONFIRMED
    assert BookedSlot.objects.filter(booking=booking).count() == len(booking.slots)


def test_a_payment_for_a_booking_that_expired_and_lost_its_slots_is_refunded(people, booking, localstripe):
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)
    Booking.objects.filter(pk=booking.pk).update(**approved_at(timezone.now() - timedelta(days=2)))
    people["owner"].get("/api/bookings/approved")
    booking_request(
        user=User.objects.get(email="bob@example.com"),
        court=booking.court,
        date=booking.date,
        slots=booking.slots,
    )

    response = save(people["owner"], secret)

    assert response.json()["status"] == "refunded"
    booking.refresh_from_db()
    assert booking.status == Status.EXPIRED
    assert User.objects.get(email="ada@example.com").role == User.Role.USER


def test_stripe_unreachable_is_a_clear_503_and_the_booking_is_untouched(people, booking, stripe_writes):
    with stripe_stand_in.unreachable():
        response = intent(people["owner"], booking)

    assert response.status_code == 503
    assert response.json()["detail"].startswith("The payment service is not answering.")
    booking.refresh_from_db()
    assert booking.status == Status.APPROVED
    # The payment was recorded before Stripe was asked: the next try makes its intent, under the
    # same idempotency key, so an intent Stripe made without answering is the one it answers then.
    assert list(Payment.objects.values_list("status", "payment_intent_id")) == [("pending", None)]
    assert stripe_writes[-1] == ("/v1/payment_intents", f"payment-intent-{Payment.objects.get().pk}")

    assert intent(people["owner"], booking).status_code == 200
    assert Payment.objects.get().payment_intent_id == stripe_intents(booking)[0].id
    assert stripe_writes[-1] == stripe_writes[-2]


def test_the_payment_date_is_today(people, booking, localstripe):
    secret = intent(people["owner"], booking).json()["clientSecret"]
    localstripe.pay(secret)

    save(people["owner"], secret)

    assert Payment.objects.get().paid_at.date() == timezone.now().date()
    assert tomorrow() > timezone.localdate()
