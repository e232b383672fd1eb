import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.db import DatabaseError
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from bookings.models import Booking
from bookings.tests.factories import make_booking
from notifications.services import requeue_stalled
from payments.models import Refund
from payments.tests.helpers import paid, refunded
from testing import stripe_stand_in

pytestmark = pytest.mark.django_db


IDENTITY_UP = {"provider": "firebase-emulator", "ok": True}
PAYMENTS_UP = {"provider": "localstripe", "ok": True}
PAYMENTS_DOWN = {"provider": "localstripe", "ok": False}
QUEUE_EMPTY = {"provider": "database", "ok": True, "waiting": 0, "oldestWaitingSeconds": 0}
NO_REFUND_WAITING = {"provider": "database", "ok": True, "late": 0, "failed": 0}
ELSEWHERE = "203.0.113.7"  # a caller on another machine (a documentation address)


def broken_cursor(*args, **kwargs):
    """Stopping the shared PostgreSQL server would take the test database with it, so a lost
    database is simulated at the cursor: these tests are about what /healthz reports."""
    raise DatabaseError("connection refused")


@pytest.fixture(autouse=True)
def _providers_asked_afresh():
    """No test sees the providers' answers that another test left in the cache."""
    caches["healthz"].clear()
    yield
    caches["healthz"].clear()


@pytest.fixture
def payments_provider_down():
    with stripe_stand_in.unreachable():
        yield


def test_healthz_names_the_database_and_the_providers_and_says_they_answer(client, emulator, localstripe):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")
    assert response.json() == {
        "status": "ok",
        "checks": {
            "database": {"provider": "postgresql", "ok": True},
            "identity": IDENTITY_UP,
            "payments": PAYMENTS_UP,
            "queue": QUEUE_EMPTY,
            "refunds": NO_REFUND_WAITING,
        },
    }


def test_healthz_reports_how_long_the_oldest_due_task_has_waited(client, emulator, localstripe):
    requeue_stalled.enqueue()
    requeue_stalled.enqueue()
    requeue_stalled.using(run_after=timezone.now() + timedelta(hours=1)).enqueue()  # not due: not waiting
    oldest = DBTaskResult.objects.order_by("enqueued_at").first()
    DBTaskResult.objects.filter(pk=oldest.pk).update(enqueued_at=timezone.now() - timedelta(minutes=10))

    queue = client.get("/healthz").json()["checks"]["queue"]

    assert queue["waiting"] == 2
    assert 600 <= queue["oldestWaitingSeconds"] < 610
    # Late, but the site still answers: the load balancer keeps the instance.
    assert queue["ok"] is False
    assert client.get("/healthz").status_code == 200


def test_healthz_reports_refunds_pending_over_an_hour_and_those_stripe_refused(
    client, emulator, localstripe, settings
):
    booking = make_booking(status=Booking.Status.CONFIRMED)
    payment = paid(booking, "20.00", timezone.now() - timedelta(hours=3))
    late = timedelta(seconds=settings.REFUND_LATE_SECONDS)
    refunded(payment, "5.00", None, status="pending")
    refunded(payment, "5.00", None, status="pending")
    refunded(payment, "5.00", None, status="failed")
    Refund.objects.filter(pk=Refund.objects.first().pk).update(
        created_at=timezone.now() - late - timedelta(minutes=1)
    )

    response = client.get("/healthz")

    # Late, but the site still answers: the worker goes on trying them.
    assert response.status_code == 200
    assert response.json()["checks"]["refunds"] == {
        "provider": "database",
        "ok": False,
        "late": 1,
        "failed": 1,
    }


def test_healthz_answers_503_and_says_why_when_the_database_does_not(
    client, emulator, localstripe, monkeypatch
):
    monkeypatch.setattr("club.views.connection.cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "checks": {
            "database": {"provider": "postgresql", "ok": False, "error": "connection refused"},
            "identity": IDENTITY_UP,
            "payments": PAYMENTS_UP,
        },
    }


def test_healthz_answers_503_when_the_identity_provider_does_not(client, identity_provider_down):
    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["identity"]["ok"] is False
    assert body["checks"]["identity"]["error"]


def test_healthz_only_answers_get(client):
    assert client.post("/healthz").status_code == 405


def test_healthz_asks_the_providers_at_most_once_in_its_cache_seconds(
    client, emulator, localstripe, settings, request, monkeypatch
):
    settings.HEALTHZ_CACHE_SECONDS = 1
    assert client.get("/healthz").json()["checks"]["identity"] == IDENTITY_UP

    request.getfixturevalue("identity_provider_down")

    # Within the second, the provider is not asked again: its last answer stands.
    cached = client.get("/healthz")
    assert cached.status_code == 200
    assert cached.json()["checks"]["identity"] == IDENTITY_UP
    # 1.1 s later by the clock of the healthz cache (a LocMemCache, which reads time.time()).
    later = time.time() + 1.1
    monkeypatch.setattr("django.core.cache.backends.locmem.time", SimpleNamespace(time=lambda: later))
    asked = client.get("/healthz")
    assert asked.status_code == 503
    assert asked.json()["checks"]["identity"]["ok"] is False


def test_healthz_checks_the_database_on_every_hit(client, emulator, localstripe, settings, monkeypatch):
    settings.HEALTHZ_CACHE_SECONDS = 60
    assert client.get("/healthz").status_code == 200

    monkeypatch.setattr("club.views.connection.cursor", broken_cursor)

    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"]["ok"] is False


@pytest.mark.parametrize("caller", ["anonymous", "owner", "member"])
def test_healthz_tells_a_caller_from_elsewhere_which_part_failed_but_not_its_error(
    people, emulator, payments_provider_down, caller
):
    response = people[caller].get("/healthz", REMOTE_ADDR=ELSEWHERE)

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "checks": {
            "database": {"provider": "postgresql", "ok": True},
            "identity": IDENTITY_UP,
            "payments": PAYMENTS_DOWN,
            "queue": QUEUE_EMPTY,
            "refunds": NO_REFUND_WAITING,
        },
    }


def test_healthz_behind_a_proxy_tells_a_caller_from_elsewhere_no_error(
    client, emulator, payments_provider_down, settings
):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}

    # The proxy is on this machine; the caller is the address it forwards.
    response = client.get("/healthz", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=ELSEWHERE)

    assert response.json()["checks"]["payments"] == PAYMENTS_DOWN


@pytest.mark.parametrize(
    ("caller", "address"), [("admin", ELSEWHERE), ("anonymous", "127.0.0.1"), ("anonymous", "::1")]
)
def test_healthz_tells_an_admin_or_a_local_caller_the_error(people, payments_provider_down, caller, address):
    response = people[caller].get("/healthz", REMOTE_ADDR=address)

    payments = response.json()["checks"]["payments"]
    assert response.status_code == 503
    assert payments["ok"] is False
    assert payments["error"]
