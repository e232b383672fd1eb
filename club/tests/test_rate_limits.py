"""Each rate limit: past it, a clear 429 with Retry-After; under it, business as usual."""

import json
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import User
from bookings.models import Booking, WaitlistEntry
from bookings.tests.factories import make_booking, tomorrow
from content.models import ContactMessage, NewsletterSubscription
from courts.tests.factories import CourtFactory
from notifications.services import unsubscribe_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(monkeypatch):
    """Small limits, so that a test reaches them quickly."""
    small = dict.fromkeys(SimpleRateThrottle.THROTTLE_RATES, "2/min")
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", small)


def assert_limited(response):
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0


def test_signing_in_is_limited(rates, emulator):
    token = emulator.sign_up("ada@example.com")["idToken"]
    client = Client()
    answers = [
        client.post("/api/session", {"idToken": token}, content_type="application/json") for _ in range(3)
    ]

    assert [a.status_code for a in answers[:2]] == [200, 200]
    assert_limited(answers[2])
    assert "throttled" in answers[2].json()["detail"]


def sign_in(client: Client, token: str):
    return client.post("/api/session", {"idToken": token}, content_type="application/json")


def test_signing_out_is_never_limited_and_ends_the_session(rates, emulator):
    """On a shared computer the next person must not be signed in as the last, however many
    sign-ins the club's one address has made."""
    client = Client()
    assert sign_in(client, emulator.sign_up("ada@example.com")["idToken"]).status_code == 200
    cookie = client.cookies[settings.IDENTITY_COOKIE_NAME].value
    others = emulator.sign_up("bob@example.com")["idToken"]
    assert_limited([sign_in(Client(), others) for _ in range(3)][-1])

    assert client.delete("/api/session").status_code == 204

    replay = Client()
    replay.cookies[settings.IDENTITY_COOKIE_NAME] = cookie
    assert replay.get("/api/users/ada@example.com/role").status_code == 401


def test_one_account_signing_in_too_often_leaves_the_others_at_its_address_signing_in(monkeypatch, emulator):
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"session": "5/min", "session_account": "2/min"}
    )
    ada, bob = emulator.sign_up("ada@example.com")["idToken"], emulator.sign_up("bob@example.com")["idToken"]

    answers = [sign_in(Client(), ada) for _ in range(3)]

    assert [answer.status_code for answer in answers[:2]] == [200, 200]
    assert_limited(answers[2])
    assert sign_in(Client(), bob).status_code == 200


def test_the_rates_by_default_let_an_address_sign_in_more_often_than_an_account():
    def per_minute(scope: str) -> float:
        count, per = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][scope].split("/")
        return int(count) * 60 / {"s": 1, "m": 60, "h": 3600, "d": 86400}[per[0]]

    assert per_minute("session") > per_minute("session_account")


def test_booking_requests_are_limited(rates, sign_in_as):
    client = sign_in_as()
    court = CourtFactory(slots=["08:00-09:00", "09:00-10:00", "10:00-11:00"])
    answers = [
        client.post(
            "/api/bookings",
            {"courtId": court.pk, "slots": [slot], "date": tomorrow().isoformat()},
            content_type="application/json",
        )
        for slot in court.slots
    ]

    assert [a.status_code for a in answers[:2]] == [201, 201]
    assert_limited(answers[2])
    assert Booking.objects.count() == 2


def test_payment_intents_are_limited(rates, sign_in_as, localstripe):
    client = sign_in_as()
    booking = make_booking(user=User.objects.get(email="ada@example.com"), status=Booking.Status.APPROVED)
    body = {"bookingId": booking.pk}
    answers = [
        client.post("/api/create-payment-intent", body, content_type="application/json") for _ in range(3)
    ]

    assert [a.status_code for a in answers[:2]] == [200, 200]
    assert_limited(answers[2])


def test_joining_and_leaving_waitlists_are_limited_together_and_reading_them_is_not(rates, sign_in_as):
    client = sign_in_as()
    court = CourtFactory(slots=["08:00-09:00"])
    make_booking(court=court, date=tomorrow(), slots=court.slots)
    body = {"courtId": court.pk, "date": tomorrow().isoformat(), "slot": "08:00-09:00"}

    joined = client.post("/api/waitlist", body, content_type="application/json")
    left = client.delete(f"/api/waitlist/{joined.json()['id']}")
    again = client.post("/api/waitlist", body, content_type="application/json")

    assert (joined.status_code, left.status_code) == (201, 200)
    assert_limited(again)
    assert WaitlistEntry.objects.count() == 1
    assert [client.get("/api/waitlist").status_code for _ in range(3)] == [200, 200, 200]


def test_new_calendar_addresses_are_limited(rates, sign_in_as):
    client = sign_in_as()
    answers = [client.post("/api/calendar/reset") for _ in range(3)]

    assert [a.status_code for a in answers[:2]] == [200, 200]
    assert_limited(answers[2])


def test_quotes_are_limited(rates, sign_in_as):
    client = sign_in_as()
    booking = make_booking(user=User.objects.get(email="ada@example.com"), status=Booking.Status.APPROVED)
    answers = [
        client.post(
            f"/api/bookings/{booking.pk}/quote", {"couponCode": f"GUESS{n}"}, content_type="application/json"
        )
        for n in range(3)
    ]

    assert [a.status_code for a in answers[:2]] == [400, 400]  # no such coupon
    assert_limited(answers[2])


def test_unsubscribing_is_limited(rates, client):
    ada = User.objects.create_user("ada@example.com")
    link = f"/unsubscribe/{unsubscribe_token(user=ada, optional='reminders')}"

    answers = [client.post(link) for _ in range(3)]

    assert [a.status_code for a in answers[:2]] == [200, 200]
    assert_limited(answers[2])
    assert "Please try again in" in answers[2].content.decode()


def test_the_support_form_is_limited_and_says_when_to_try_again(rates, client):
    message = {"name": "Ada", "email": "ada@example.com", "message": "Hello"}
    answers = [client.post("/support", message) for _ in range(3)]

    assert [a.status_code for a in answers[:2]] == [302, 302]
    assert_limited(answers[2])
    assert "Please try again in" in answers[2].content.decode()
    assert ContactMessage.objects.count() == 2


def test_the_newsletter_is_limited(rates, client):
    answers = [client.post("/newsletter", {"email": f"reader{n}@example.com"}) for n in range(3)]

    assert [a.status_code for a in answers[:2]] == [302, 302]
    assert_limited(answers[2])
    assert NewsletterSubscription.objects.count() == 2


def test_limits_are_per_caller(rates):
    first, second = Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")
    for _ in range(2):
        first.post("/newsletter", {"email": "a@example.com"})

    assert first.post("/newsletter", {"email": "a@example.com"}).status_code == 429
    assert second.post("/newsletter", {"email": "b@example.com"}).status_code == 302


def spoofed() -> dict:
    """A different made-up client address on every request, as an attacker would send."""
    return {"X-Forwarded-For": f"203.0.113.{secrets.randbelow(250) + 1}"}


@pytest.mark.parametrize(
    "send",
    [
        pytest.param(
            lambda client, token, n: client.post(
                "/api/session", {"idToken": token}, content_type="application/json", headers=spoofed()
            ),
            id="sign-in",
        ),
        pytest.param(
            lambda client, token, n: client.post(
                "/support", {"name": "Ada", "email": "ada@example.com", "message": "Hi"}, headers=spoofed()
            ),
            id="support",
        ),
        pytest.param(
            lambda client, token, n: client.post(
                "/newsletter", {"email": f"reader{n}@example.com"}, headers=spoofed()
            ),
            id="newsletter",
        ),
    ],
)
def test_a_spoofed_forwarded_for_header_does_not_lift_a_limit(rates, emulator, send):
    token = emulator.sign_up("ada@example.com")["idToken"]
    client = Client()

    answers = [send(client, token, n) for n in range(30)]

    assert sum(answer.status_code == 429 for answer in answers) == 28


def test_behind_one_proxy_the_address_it_appends_is_the_callers(rates, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    # The caller wrote the first address; the proxy appended the one it saw.
    alice = [
        Client().post(
            "/newsletter", {"email": f"a{n}@example.com"}, headers={"X-Forwarded-For": f"1.1.1.{n}, 10.0.0.1"}
        )
        for n in range(3)
    ]
    bob = Client().post("/newsletter", {"email": "b@example.com"}, headers={"X-Forwarded-For": "10.0.0.2"})

    assert [answer.status_code for answer in alice] == [302, 302, 429]
    assert bob.status_code == 302


# Run by a Python process of its own: the count it finds is in the shared cache, not in memory.
READ_IN_ANOTHER_PROCESS = """
import json, sys
import django
from django.conf import settings
settings.configure(CACHES=json.loads(sys.argv[1]), DATABASES=json.loads(sys.argv[2]))
django.setup()
from django.core.cache import cache
print(len(cache.get(sys.argv[3], [])))
"""


@pytest.mark.parametrize(
    "backend",
    [
        {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "club_cache"},
        # Database 15 of the machine's Redis, which the tests may empty.
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6379/15"},
    ],
    ids=["database (the default)", "redis"],
)
def test_the_counts_live_where_every_app_process_sees_them(rates, settings, backend, transactional_db):
    settings.CACHES = {"default": backend}
    call_command("createcachetable", verbosity=0)
    caches["default"].clear()
    client = Client()
    for n in range(2):
        client.post("/newsletter", {"email": f"reader{n}@example.com"})

    database = {key: connection.settings_dict[key] for key in ("ENGINE", "NAME", "USER", "HOST", "PORT")}
    seen = subprocess.run(
        [
            sys.executable,
            "-c",
            READ_IN_ANOTHER_PROCESS,
            json.dumps(settings.CACHES),
            json.dumps({"default": database}),
            "throttle_newsletter_127.0.0.1",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert seen.stdout.strip() == "2"
    assert client.post("/newsletter", {"email": "reader3@example.com"}).status_code == 429
