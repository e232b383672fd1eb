import pytest
from django.db import DatabaseError

pytestmark = pytest.mark.django_db


IDENTITY_UP = {"provider": "firebase-emulator", "ok": True}
PAYMENTS_UP = {"provider": "localstripe", "ok": True}


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
        },
    }


def test_healthz_answers_503_and_says_why_when_the_database_does_not(
    client, emulator, localstripe, monkeypatch
):
    # Stopping the shared PostgreSQL server would take the test database with it, so the failure is
    # simulated at the cursor: this test is about what /healthz reports, not about PostgreSQL.
    def broken_cursor(*args, **kwargs):
        raise DatabaseError("connection refused")

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
