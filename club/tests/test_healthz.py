import pytest
from django.db import DatabaseError

pytestmark = pytest.mark.django_db


def test_healthz_names_the_database_and_says_it_answers(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")
    assert response.json() == {"status": "ok", "checks": {"database": {"provider": "postgresql", "ok": True}}}


def test_healthz_answers_503_and_says_why_when_the_database_does_not(client, monkeypatch):
    # Stopping the shared PostgreSQL server would take the test database with it, so the failure is
    # simulated at the cursor: this test is about what /healthz reports, not about PostgreSQL.
    def broken_cursor(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr("club.views.connection.cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "checks": {"database": {"provider": "postgresql", "ok": False, "error": "connection refused"}},
    }


def test_healthz_only_answers_get(client):
    assert client.post("/healthz").status_code == 405
