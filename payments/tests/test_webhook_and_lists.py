import json
from decimal import Decimal

import pytest

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from payments.models import Payment
from payments.services import payment_intent_create
from payments.tests.helpers import post_event, signed, succeeded_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid_intent(localstripe):
    ada = User.objects.create_user("ada@example.com")
    booking = make_booking(user=ada, court=CourtFactory(price=Decimal("20")), status=Booking.Status.APPROVED)
    secret = payment_intent_create(user=ada, booking=booking)
    localstripe.pay(secret)
    return booking, secret.split("_secret_")[0]


def test_the_webhook_alone_confirms_the_booking_and_a_replay_changes_nothing(paid_intent):
    booking, intent_id = paid_intent
    payload = succeeded_event(intent_id)

    first = post_event(payload, signed(payload))
    again = post_event(payload, signed(payload))

    assert first.status_code == again.status_code == 200
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CONFIRMED
    assert list(Payment.objects.values_list("status", flat=True)) == ["succeeded"]
    assert booking.history.filter(to_status="confirmed").count() == 1


@pytest.mark.parametrize("signature", [None, "", "t=1,v1=deadbeef", "garbage"])
def test_a_bad_or_missing_signature_answers_400_and_changes_nothing(paid_intent, signature):
    booking, intent_id = paid_intent

    response = post_event(succeeded_event(intent_id), signature)

    assert response.status_code == 400
    assert response.json() == {"detail": "The signature does not match."}
    booking.refresh_from_db()
    assert booking.status == Booking.Status.APPROVED


def test_a_signature_made_with_another_secret_is_refused(paid_intent):
    _, intent_id = paid_intent
    payload = succeeded_event(intent_id)

    assert post_event(payload, signed(payload, secret="whsec_someone_else")).status_code == 400


def test_an_event_for_an_intent_that_is_not_ours_is_acknowledged_and_ignored(localstripe):
    payload = succeeded_event("pi_not_ours")

    assert post_event(payload, signed(payload)).status_code == 200
    assert Payment.objects.count() == 0


@pytest.mark.parametrize(
    "data",
    [None, {}, {"object": None}, {"object": {"object": "payment_intent"}}, {"object": {"id": 7}}, "x"],
    ids=["no data", "empty data", "null object", "no id", "numeric id", "data not an object"],
)
def test_a_signed_event_that_names_no_payment_intent_answers_400_with_a_message(localstripe, data):
    event = {"id": "evt_test", "object": "event", "type": "payment_intent.succeeded"}
    if data is not None:
        event["data"] = data
    payload = json.dumps(event).encode()

    response = post_event(payload, signed(payload))

    assert response.status_code == 400
    assert response.json() == {"detail": "The event names no object (data.object.id)."}


@pytest.mark.parametrize("event_type", ["customer.created", ["payment_intent.succeeded"], None])
def test_a_signed_event_of_another_type_is_acknowledged_and_ignored(localstripe, event_type):
    payload = json.dumps({"id": "evt_test", "object": "event", "type": event_type}).encode()

    response = post_event(payload, signed(payload))

    assert response.status_code == 200
    assert response.json() == {"detail": "Not an event this site acts on: ignored."}


def test_a_signed_payload_that_is_not_a_json_object_answers_400(localstripe):
    payload = b'["payment_intent.succeeded"]'

    response = post_event(payload, signed(payload))

    assert response.status_code == 400
    assert response.json() == {"detail": "The event is not a JSON object."}


def test_the_webhook_answers_in_json(paid_intent):
    _, intent_id = paid_intent
    payload = succeeded_event(intent_id)

    confirmed = post_event(payload, signed(payload))
    ignored = post_event(succeeded_event("pi_not_ours"), signed(succeeded_event("pi_not_ours")))

    assert confirmed.json() == {"detail": "The payment is recorded as succeeded."}
    assert ignored.json() == {"detail": "Not one of our payments: ignored."}


# --- GET /api/payments, /api/members, DELETE /api/members/{id} ------------------------------------


def confirmed_payment(email: str) -> Payment:
    user = User.objects.get(email=email)
    booking = make_booking(user=user, status=Booking.Status.CONFIRMED)
    return Payment.objects.create(
        booking=booking,
        user=user,
        amount=booking.price,
        currency="usd",
        payment_intent_id=f"pi_{booking.pk}",
        status="succeeded",
    )


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("anonymous", None), ("owner", ["ada"]), ("other", ["bob"]), ("member", []), ("admin", ["ada", "bob"])],
)
def test_each_caller_lists_the_payments_they_may_see(people, kind, expected):
    confirmed_payment("ada@example.com")
    confirmed_payment("bob@example.com")

    response = people[kind].get("/api/payments")

    if expected is None:
        assert response.status_code == 401
    else:
        assert sorted(p["userEmail"].split("@")[0] for p in response.json()) == expected


@pytest.mark.parametrize(("kind", "status_code"), [("owner", 200), ("other", 403), ("admin", 200)])
def test_asking_for_someone_elses_payments_needs_to_be_them_or_an_admin(people, kind, status_code):
    confirmed_payment("ada@example.com")

    assert people[kind].get("/api/payments", {"email": "ada@example.com"}).status_code == status_code


@pytest.mark.parametrize(("kind", "status_code"), [("owner", 200), ("other", 403), ("admin", 200)])
def test_the_email_asked_for_counts_in_any_case(people, kind, status_code):
    confirmed_payment("ada@example.com")

    response = people[kind].get("/api/payments", {"email": " Ada@Example.COM "})

    assert response.status_code == status_code
    if status_code == 200:
        assert [p["userEmail"] for p in response.json()] == ["ada@example.com"]


def test_asking_for_the_payments_of_something_not_an_email_answers_400(people):
    response = people["admin"].get("/api/payments", {"email": "not an address"})

    assert response.status_code == 400
    assert "email" in response.json()


@pytest.mark.parametrize(
    ("kind", "status_code"), [("anonymous", 401), ("owner", 403), ("member", 403), ("admin", 200)]
)
def test_only_admins_list_members(people, kind, status_code):
    response = people[kind].get("/api/members")

    assert response.status_code == status_code
    if status_code == 200:
        assert [m["email"] for m in response.json()] == ["mia@example.com"]


@pytest.mark.parametrize(
    ("kind", "status_code"), [("anonymous", 401), ("owner", 403), ("member", 403), ("admin", 204)]
)
def test_only_admins_end_a_membership_and_the_account_stays(people, kind, status_code):
    mia = User.objects.get(email="mia@example.com")
    payment = confirmed_payment("mia@example.com")

    response = people[kind].delete(f"/api/members/{mia.pk}")

    assert response.status_code == status_code
    mia.refresh_from_db()
    assert mia.role == (User.Role.USER if status_code == 204 else User.Role.MEMBER)
    assert Payment.objects.filter(pk=payment.pk).exists()
    assert Booking.objects.filter(user=mia).exists()


def test_ending_the_membership_of_someone_who_is_not_a_member_is_a_404(people):
    ada = User.objects.get(email="ada@example.com")

    assert people["admin"].delete(f"/api/members/{ada.pk}").status_code == 404


def test_healthz_reports_the_payment_provider(client, emulator, localstripe):
    body = client.get("/healthz").json()

    assert body["checks"]["payments"] == {"provider": "localstripe", "ok": True}


def test_listing_payments_and_members_costs_a_constant_number_of_queries(
    people, django_assert_max_num_queries
):
    for n in range(20):
        user = User.objects.create_user(f"payer{n}@example.com", role=User.Role.MEMBER)
        booking = make_booking(user=user, status=Booking.Status.CONFIRMED)
        Payment.objects.create(
            booking=booking,
            user=user,
            amount=booking.price,
            currency="usd",
            payment_intent_id=f"pi_{n}",
            status="succeeded",
        )

    # the caller's record (with whether their cookie was signed out), the list with users and
    # coupons, and their refunds
    with django_assert_max_num_queries(3):
        assert len(people["admin"].get("/api/payments").json()) == 20
    with django_assert_max_num_queries(2):
        assert len(people["admin"].get("/api/members").json()) == 21
