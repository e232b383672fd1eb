"""Local payments behave like Stripe's test mode (scripts/localstripe_server.py): the payment page's
local card adapter (local/cards.py) pays, declines and authenticates Stripe's documented test cards
as Stripe does, and after any decline another card pays."""

from decimal import Decimal

import pytest

from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from payments.tests.helpers import intent, save

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(sign_in_as):
    return sign_in_as("ada@example.com")


@pytest.fixture
def secret(ada, localstripe):
    """The client secret of Ada's payment of her approved $20 booking."""
    from accounts.models import User

    owner = User.objects.get(email="ada@example.com")
    booking = make_booking(
        user=owner, court=CourtFactory(price=Decimal("20")), status=Booking.Status.APPROVED
    )
    return intent(ada, booking).json()["clientSecret"]


def confirm(client, secret: str, **answer) -> dict:
    response = client.post(
        "/local/stripe-confirm", {"clientSecret": secret, **answer}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def card(number: str) -> dict:
    return {"card": {"number": number, "exp_month": "12", "exp_year": "2034", "cvc": "123"}}


def paid(client, secret: str, number: str = "4242424242424242") -> dict:
    return confirm(client, secret, **card(number))


@pytest.mark.parametrize(
    ("number", "code", "decline_code", "message"),
    [
        ("4000000000000002", "card_declined", "generic_decline", "Your card was declined."),
        ("4000000000009995", "card_declined", "insufficient_funds", "Your card has insufficient funds."),
        ("4000000000009987", "card_declined", "lost_card", "Your card was declined."),
        ("4000000000009979", "card_declined", "stolen_card", "Your card was declined."),
        ("4000000000000069", "expired_card", "expired_card", "Your card has expired."),
        ("4000000000000127", "incorrect_cvc", "incorrect_cvc", "Your card's security code is incorrect."),
        (
            "4000000000000119",
            "processing_error",
            "processing_error",
            "An error occurred while processing your card. Try again in a little bit.",
        ),
        ("4000000000000341", "card_declined", "generic_decline", "Your card was declined."),
    ],
)
def test_each_documented_decline_card_is_declined_as_stripe_declines_it(
    ada, secret, number, code, decline_code, message
):
    answer = paid(ada, secret, number)

    assert answer == {
        "error": {"type": "card_error", "code": code, "decline_code": decline_code, "message": message}
    }
    assert save(ada, secret).status_code == 409  # nothing was paid


def test_after_a_declined_card_another_card_pays(ada, secret):
    assert paid(ada, secret, "4000000000000341")["error"]["message"] == "Your card was declined."
    assert paid(ada, secret, "4000000000009995")["error"]["message"] == "Your card has insufficient funds."

    answer = paid(ada, secret)

    assert answer["paymentIntent"]["status"] == "succeeded"
    assert save(ada, secret).status_code == 200
    assert Booking.objects.get().status == Booking.Status.CONFIRMED


def test_a_card_that_needs_3d_secure_pays_once_authenticated(ada, secret):
    assert paid(ada, secret, "4000002500003155")["paymentIntent"]["status"] == "requires_action"

    answer = confirm(ada, secret, authenticated=True)

    assert answer["paymentIntent"]["status"] == "succeeded"
    assert save(ada, secret).status_code == 200


def test_a_failed_authentication_is_refused_and_another_card_then_pays(ada, secret):
    paid(ada, secret, "4000002500003155")

    refused = confirm(ada, secret, authenticated=False)

    assert refused["error"]["code"] == "payment_intent_authentication_failure"
    assert refused["error"]["message"].startswith("We are unable to authenticate your payment method.")
    assert paid(ada, secret)["paymentIntent"]["status"] == "succeeded"


def test_the_card_or_the_authentications_answer_is_required(ada, secret):
    response = ada.post("/local/stripe-confirm", {"clientSecret": secret}, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["Send either the card or the authentication's answer."]}


def test_only_the_payer_may_pay_with_the_adapter(secret, caller):
    kind, client = caller

    response = client.post(
        "/local/stripe-confirm",
        {"clientSecret": secret, **card("4242424242424242")},
        content_type="application/json",
    )

    assert response.status_code == {"anonymous": 401, "user": 404, "member": 404, "admin": 404}[kind]
