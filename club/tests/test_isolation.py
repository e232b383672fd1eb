"""One person can never read or change another's booking, payment, profile or role, through any
endpoint or page. Ada owns everything here; Bob (a plain user) and Mia (a member) try each door."""

from decimal import Decimal

import pytest

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from courts.tests.factories import CourtFactory
from payments.models import Payment

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada_things(people):
    ada = User.objects.get(email="ada@example.com")
    court = CourtFactory(price=Decimal("20"), slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"])
    pending = make_booking(user=ada, court=court, slots=["08:00-09:00"])
    approved = make_booking(user=ada, court=court, slots=["09:00-10:00"], status=Booking.Status.APPROVED)
    confirmed = make_booking(user=ada, court=court, slots=["10:00-11:00"], status=Booking.Status.CONFIRMED)
    payment = Payment.objects.create(
        booking=confirmed,
        user=ada,
        amount=Decimal("20"),
        currency="usd",
        payment_intent_id="pi_ada",
        status="succeeded",
    )
    return {"ada": ada, "pending": pending, "approved": approved, "confirmed": confirmed, "payment": payment}


# (method, URL, JSON body): every way in to what is Ada's.
DOORS = [
    ("get", "/api/users/ada@example.com/role", None),
    ("get", "/api/users/email/ada@example.com", None),
    ("post", "/api/users", {"name": "Hacked", "email": "ada@example.com"}),
    ("get", "/api/bookings/pending?email=ada@example.com", None),
    ("get", "/api/bookings/approved?email=ada@example.com", None),
    ("get", "/api/bookings/confirmed?email=ada@example.com", None),
    ("get", "/api/bookings/approved/{approved}", None),
    ("delete", "/api/bookings/{pending}", None),
    ("delete", "/api/bookings/{approved}", None),
    ("patch", "/api/bookings/approve/{pending}", None),
    ("patch", "/api/bookings/reject/{pending}", None),
    ("post", "/api/bookings/{approved}/quote", {"couponCode": ""}),
    ("post", "/api/create-payment-intent", {"bookingId": "{approved}"}),
    ("post", "/api/save-payment", {"paymentIntentId": "pi_ada"}),
    ("get", "/api/payments?email=ada@example.com", None),
    ("delete", "/api/members/{ada}", None),
    ("get", "/dashboard/payment-page/{approved}", None),
]


def fill(value, things):
    ids = {name: thing.pk for name, thing in things.items()}
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {key: (int(fill(v, things)) if v == "{approved}" else v) for key, v in value.items()}
    return value


def snapshot(things):
    ada = User.objects.get(pk=things["ada"].pk)
    return (
        (ada.name, ada.email, ada.role, ada.image),
        list(Booking.objects.filter(user=ada).order_by("pk").values_list("status", flat=True)),
        list(Payment.objects.order_by("pk").values_list("status", "booking_id")),
    )


@pytest.mark.parametrize("intruder", ["other", "member"])
@pytest.mark.parametrize(("method", "url", "body"), DOORS)
def test_nobody_reads_or_changes_what_is_someone_elses(people, ada_things, intruder, method, url, body):
    before = snapshot(ada_things)

    response = getattr(people[intruder], method)(
        fill(url, ada_things), fill(body, ada_things), content_type="application/json"
    )

    assert response.status_code in (302, 403, 404), response.content[:200]
    if response.status_code == 302:
        assert response["Location"] == "/forbidden"
    assert b"ada@example.com" not in response.content
    assert snapshot(ada_things) == before


def test_the_owner_can_use_the_same_doors(people, ada_things):
    """The table above is not refusing everyone: Ada reads her own things through it."""
    owner = people["owner"]

    assert owner.get("/api/users/ada@example.com/role").status_code == 200
    assert owner.get(f"/api/bookings/approved/{ada_things['approved'].pk}").status_code == 200
    assert owner.get("/api/payments?email=ada@example.com").json()[0]["paymentIntentId"] == "pi_ada"
