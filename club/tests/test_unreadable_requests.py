"""Requests the site will not read (JSON nested deeper than Python can decode, a body over
DATA_UPLOAD_MAX_MEMORY_SIZE, a Host it does not serve): the API answers JSON with a message, a page
answers a page, never a 500."""

import pytest
import yaml
from django.conf import settings

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from content.models import Announcement
from courts.tests.factories import CourtFactory
from memberships.services import plan_create
from payments.models import Coupon
from programs.tests.factories import make_program

pytestmark = pytest.mark.django_db

NESTED = "[" * 100_000 + "]" * 100_000
TOO_BIG = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
# Stripe's webhook reads no JSON before it has checked Stripe's signature, and answers Stripe alone.
NOT_JSON_READERS = {"/api/stripe/webhook"}


def json_operations(client) -> list[tuple[str, str]]:
    """(method, path) of every API operation that takes a JSON body, from the schema."""
    schema = yaml.safe_load(client.get("/api/schema/").content)
    return [
        (method, path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
        and path not in NOT_JSON_READERS
    ]


@pytest.fixture
def admin_and_things(sign_in_as):
    """An admin, and one of each thing the operations' paths name, the admin's own where it matters
    (so each request gets as far as reading its body)."""
    admin = sign_in_as("ann@example.com", User.Role.ADMIN)
    court = CourtFactory()
    booking = make_booking(
        user=User.objects.get(email="ann@example.com"), court=court, status=Booking.Status.APPROVED
    )
    ids = {
        "announcement_id": Announcement.objects.create(text="Courts close early today.").pk,
        "booking_id": booking.pk,
        "coupon_id": Coupon.objects.create(code="SPRING", discount=10).pk,
        "court_id": court.pk,
        "plan_id": plan_create(name="Club", price=30, period="monthly").pk,
        "program_id": make_program(courts=[CourtFactory(slots=["10:00-11:00"])]).pk,
        "email": "ann@example.com",
    }
    return admin, ids


def send_to_every_json_operation(client, ids, body) -> dict:
    responses = {}
    for method, path in json_operations(client):
        url = path.format(**ids)
        responses[f"{method.upper()} {path}"] = client.generic(
            method.upper(), url, body, content_type="application/json"
        )
    return responses


def test_deeply_nested_json_answers_400_with_a_message_everywhere(admin_and_things):
    admin, ids = admin_and_things

    responses = send_to_every_json_operation(admin, ids, NESTED)

    assert len(responses) >= 10
    for operation, response in responses.items():
        assert response.status_code == 400, operation
        assert "nested too deeply" in response.json()["detail"], operation


TOO_LARGE_ID = 2**63  # one more than a table's key (bigint) holds


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("get", f"/api/blocks?courtId={TOO_LARGE_ID}", None, "courtId"),
        (
            "post",
            "/api/blocks",
            {"courtId": TOO_LARGE_ID, "date": "2099-01-01", "slots": [], "reason": ""},
            "courtId",
        ),
        ("post", "/api/bookings", {"courtId": TOO_LARGE_ID, "date": "2099-01-01", "slots": []}, "courtId"),
        (
            "post",
            "/api/waitlist",
            {"courtId": TOO_LARGE_ID, "date": "2099-01-01", "slot": "08:00-09:00"},
            "courtId",
        ),
        ("post", "/api/create-payment-intent", {"bookingId": TOO_LARGE_ID}, "bookingId"),
    ],
)
def test_an_id_larger_than_any_key_answers_400_under_its_field(admin_and_things, method, path, body, field):
    """The database cannot look such an id up (SQLite, `make run`'s, fails on it: a 500)."""
    admin, _ = admin_and_things

    response = getattr(admin, method)(path, body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {field: ["No record has an id this large."]}


def test_a_body_over_the_upload_limit_answers_413_json_on_the_api(admin_and_things):
    admin, ids = admin_and_things

    responses = send_to_every_json_operation(admin, ids, f'{{"name": "{TOO_BIG}"}}')

    for operation, response in responses.items():
        assert response.status_code == 413, operation
        assert response.json() == {"detail": "The request is too large: the site accepts up to 2.5 MB."}


def test_a_body_over_the_upload_limit_answers_a_page_on_pages(client):
    response = client.post("/support", {"message": TOO_BIG})

    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "The request is too large: the site accepts up to 2.5 MB." in response.content.decode()


@pytest.mark.parametrize(
    ("path", "content_type"), [("/api/courts", "application/json"), ("/courts", "text/html")]
)
def test_a_host_the_site_does_not_serve_answers_400(client, path, content_type):
    response = client.get(path, HTTP_HOST="elsewhere.example")

    assert response.status_code == 400
    assert response["Content-Type"].startswith(content_type)
    assert "The request could not be read." in response.content.decode()
