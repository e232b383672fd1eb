"""The identity provider stops answering under a running site (accounts/identity.py).

The site runs as in production: gunicorn with 2 sync workers, the database cache shared by them,
the default timeouts. It reaches its own Firebase Auth Emulator through a relay that counts the
calls (testing/provider_calls.py); a test pauses the emulator (SIGSTOP: it still takes
connections but answers none, as a provider that hangs) and resumes it. Signed-in pages and reads
keep working from the verified cookie, the sensitive operations answer 503 within 2 s, and after
one call that got no answer the site stops calling the provider for IDENTITY_BREAKER_SECONDS
instead of holding worker after worker; then one trial call says whether it is back.
"""

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from accounts.models import User
from scripts import local_stack
from testing import emulator, outage
from testing.provider_calls import CountingRelay

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.integration]

PROJECT_ID = "demo-identity-outage"
# The site runs with the default: how soon it tries the provider again is what a test measures.
BREAKER_SECONDS = settings.IDENTITY_BREAKER_SECONDS
SIGN_IN_UNAVAILABLE = {"detail": "Sign-in cannot be checked right now. Please try again in a minute."}


class Site:
    def __init__(self, database: dict):
        self.emulator_host = f"127.0.0.1:{local_stack.free_port()}"
        self.identity = outage.Process(
            lambda: local_stack.start_emulator(
                host=self.emulator_host, project=PROJECT_ID, name="firebase-emulator-identity"
            )
        )
        self.relay = CountingRelay(self.emulator_host)
        port = local_stack.free_port()
        self.url = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "LOCAL_MODE": "true",
            "DATABASE_URL": (
                f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:"
                f"{database['PORT'] or 5432}/{database['NAME']}"
            ),
            "FIREBASE_AUTH_EMULATOR_HOST": self.relay.host,
            "FIREBASE_PROJECT_ID": PROJECT_ID,
            "CACHE_URL": "dbcache://club_cache",
            "RATE_SESSION": "1000/min",
            "RATE_SESSION_ACCOUNT": "1000/min",
        }
        command = [str(Path(sys.executable).with_name("gunicorn")), "club.wsgi"]
        command += ["--bind", f"127.0.0.1:{port}", "--workers", "2"]
        self.app = outage.Process(
            lambda: local_stack.start(
                "app-identity-outage", command, f"{self.url}/healthz", cwd=local_stack.ROOT, env=env
            )
        )

    def start(self) -> None:
        self.identity.start()
        self.relay.start()
        self.app.start()

    def stop(self) -> None:
        self.app.stop()
        self.identity.stop()
        self.relay.stop()


@pytest.fixture(scope="module")
def _site(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        database = dict(connection.settings_dict)  # the test database, by now
        database_cache = {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "club_cache"}
        with override_settings(CACHES={"default": database_cache}):
            call_command("createcachetable", verbosity=0)
    site = Site(database)
    try:
        site.start()
        yield site
    finally:
        site.stop()


@pytest.fixture
def site(_site, monkeypatch, settings):
    """The site with its emulator answering, no accounts in it, and nothing in the shared cache."""
    if _site.identity.paused:
        _site.identity.resume()
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", _site.emulator_host)
    settings.FIREBASE_PROJECT_ID = PROJECT_ID
    emulator.clear_accounts()
    forget_kept_answers()
    yield _site
    if _site.identity.paused:
        _site.identity.resume()


def forget_kept_answers() -> None:
    """Empties the site's shared cache: every person's check is due, and the breaker closed."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM club_cache")


def signed_in(site: Site, email: str, role: str = User.Role.USER) -> httpx.Client:
    client = httpx.Client(base_url=site.url, timeout=60)
    client.get("/login")
    response = client.post(
        "/api/session",
        json={"idToken": emulator.sign_up(email)["idToken"]},
        headers={"X-CSRFToken": client.cookies["csrftoken"]},
    )
    assert response.status_code == 200, response.text
    client.headers["X-CSRFToken"] = client.cookies["csrftoken"]  # rotated at sign-in
    User.objects.filter(email=email).update(role=role)
    return client


def timed(call) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_signed_in_pages_answer_from_the_cookie_and_the_breaker_spares_the_workers(site):
    ada = signed_in(site, "ada@example.com")
    bob = signed_in(site, "bob@example.com")
    forget_kept_answers()  # so that every signed-in request below would ask the provider
    calls = site.relay.count()

    site.identity.pause()

    # Several signed-in requests at once, more than the 2 workers, and a visitor's page: each
    # answers, the first ones after one timeout (IDENTITY_TIMEOUT, 1.5 s), the rest at once.
    requests = [
        lambda: ada.get("/dashboard"),
        lambda: bob.get("/api/bookings/pending"),
        lambda: ada.get("/api/announcements"),
        lambda: bob.get("/dashboard"),
        lambda: ada.get("/api/bookings/pending"),
        lambda: bob.get("/api/announcements"),
        lambda: httpx.get(site.url + "/courts", timeout=60),
    ]
    started = time.monotonic()
    with ThreadPoolExecutor(len(requests)) as pool:
        answers = [future.result() for future in [pool.submit(timed, request) for request in requests]]
    assert [response.status_code for response, _ in answers] == [200] * len(requests)
    assert "We can't check your sign-in right now" not in answers[0][0].text
    assert time.monotonic() - started < 5, [round(seconds, 2) for _, seconds in answers]
    # At most one call per worker got no answer; then the breaker kept the rest from calling.
    assert site.relay.count() - calls <= 2

    during = site.relay.count()
    for client, path in [(ada, "/dashboard"), (bob, "/api/bookings/pending"), (ada, "/api/courts")]:
        response, seconds = timed(lambda client=client, path=path: client.get(path))
        assert response.status_code == 200
        assert seconds < 1, path  # no timeout (1.5 s); the margin is for a loaded machine
    assert site.relay.count() == during  # the breaker is open: no call

    site.identity.resume()
    time.sleep(BREAKER_SECONDS + 0.5)

    # Once the provider answers, the checks that could not be made are made, and kept.
    assert ada.get("/dashboard").status_code == 200
    assert site.relay.count() == during + 1
    assert ada.get("/api/courts").status_code == 200
    assert site.relay.count() == during + 1


def test_a_sensitive_operation_answers_503_within_2_seconds_and_then_at_once(site):
    ann = signed_in(site, "ann@example.com", User.Role.ADMIN)
    ada = signed_in(site, "ada@example.com")
    bob_token = emulator.sign_up("bob@example.com")["idToken"]
    bob = httpx.Client(base_url=site.url, timeout=60)
    bob.get("/login")
    calls = site.relay.count()

    site.identity.pause()

    # The first: its call to the provider times out (IDENTITY_TIMEOUT, 1.5 s), and opens the breaker.
    first, seconds = timed(lambda: ann.delete("/api/courts/999"))
    assert first.status_code == 503
    assert first.json() == SIGN_IN_UNAVAILABLE
    assert seconds < 2
    assert site.relay.count() == calls + 1
    # The next ones are refused without a call: admin writes, payments, sign-in.
    for call in [
        lambda: ann.patch("/api/courts/999", json={"price": 5}),
        lambda: ann.post("/api/coupons", json={"code": "X", "discount": 5}),
        lambda: ada.post("/api/create-payment-intent", json={"bookingId": 1}),
        lambda: ada.post("/api/save-payment", json={"paymentIntentId": "pi_1"}),
        lambda: bob.post(
            "/api/session", json={"idToken": bob_token}, headers={"X-CSRFToken": bob.cookies["csrftoken"]}
        ),
    ]:
        response, seconds = timed(call)
        assert response.status_code == 503
        assert response.json() == SIGN_IN_UNAVAILABLE
        assert seconds < 1  # no timeout (1.5 s); the margin is for a loaded machine
    assert site.relay.count() == calls + 1
    assert not User.objects.filter(email="bob@example.com").exists()
    # Reads stand on the verified cookie (their checks were kept from the sign-in).
    assert ann.get("/api/users").status_code == 200
    assert ada.get("/dashboard").status_code == 200

    site.identity.resume()
    time.sleep(BREAKER_SECONDS + 0.5)

    assert ann.delete("/api/courts/999").status_code == 404  # checked, then done: no such court
    signed = bob.post(
        "/api/session", json={"idToken": bob_token}, headers={"X-CSRFToken": bob.cookies["csrftoken"]}
    )
    assert signed.status_code == 200, signed.text


def test_after_a_short_interval_one_trial_call_decides_while_the_others_answer_at_once(site):
    ann = signed_in(site, "ann@example.com", User.Role.ADMIN)
    people = [signed_in(site, f"{name}@example.com") for name in ("ada", "bob", "cy")]
    site.identity.pause()
    assert ann.delete("/api/courts/999").status_code == 503  # no answer: the breaker opens
    calls = site.relay.count()

    time.sleep(BREAKER_SECONDS + 0.2)
    # The first caller after the interval tries the provider (and waits IDENTITY_TIMEOUT for
    # nothing); while it does, the others are refused at once, without a call.
    with ThreadPoolExecutor(len(people) + 1) as pool:
        trial = pool.submit(timed, lambda: ann.delete("/api/courts/999"))
        time.sleep(0.5)
        others = [
            pool.submit(timed, lambda person=person: person.post("/api/create-payment-intent", json={}))
            for person in people
        ]
        answers = [future.result() for future in others]
    response, seconds = trial.result()
    assert (response.status_code, response.json()) == (503, SIGN_IN_UNAVAILABLE)
    assert seconds > 1  # it waited for the provider
    assert [(answer.status_code, answer.json()) for answer, _ in answers] == [(503, SIGN_IN_UNAVAILABLE)] * 3
    assert max(seconds for _, seconds in answers) < 1, answers
    assert site.relay.count() == calls + 1  # the trial's call, alone
    # The trial got no answer: the breaker is open again, for as long.
    refused, seconds = timed(lambda: ann.delete("/api/courts/999"))
    assert (refused.status_code, seconds < 1, site.relay.count()) == (503, True, calls + 1)

    site.identity.resume()
    started = time.monotonic()
    while ann.delete("/api/courts/999").status_code == 503 and time.monotonic() - started < 15:
        time.sleep(0.1)

    # Back within the interval: the first call after it found the provider answering.
    assert ann.delete("/api/courts/999").status_code == 404  # checked, then done: no such court
    assert time.monotonic() - started < BREAKER_SECONDS + 1
    assert (
        people[0].post("/api/create-payment-intent", json={}).status_code == 400
    )  # checked; no booking named
