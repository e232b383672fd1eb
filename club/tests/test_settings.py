"""Settings come from the environment; production values must pass Django's deployment checks."""

import json
import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings

# It starts the site's own processes (manage.py on other settings): the integration layer.
pytestmark = pytest.mark.integration

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "club.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://club.example.com",
    "DATABASE_URL": "postgres://club@db.example.com:5432/club",
    "EMAIL_URL": "smtp+tls://club:secret@smtp.example.com:587",
    "FIREBASE_PROJECT_ID": "club-prod",
    "FIREBASE_API_KEY": "AIzaSy-public-web-key",
    "STRIPE_SECRET_KEY": "sk_live_not_a_real_key",
    "STRIPE_PUBLISHABLE_KEY": "pk_live_not_a_real_key",
    "STRIPE_WEBHOOK_SECRET": "whsec_not_a_real_secret",
}

TEST_RUN_ONLY = {
    "LOCAL_MODE",
    "DATABASE_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "FIREBASE_AUTH_EMULATOR_HOST",
    "STRIPE_API_BASE",
    "EMAIL_URL",
    "MAIL_DIR",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    # Only the variables a deployment would set: nothing from the test run's own environment.
    clean = {key: value for key, value in os.environ.items() if key not in TEST_RUN_ONLY}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def served_in_production(*paths: str) -> list[str]:
    """Which of `paths` a production deployment routes (resolved in a process of its own)."""
    check = (
        "from django.urls import resolve, Resolver404\n"
        f"for path in {paths!r}:\n"
        "    try:\n"
        "        resolve(path); print('served', path)\n"
        "    except Resolver404:\n"
        "        print('not served', path)\n"
    )
    lines = manage("shell", "-c", check, env=PRODUCTION).stdout.splitlines()[-len(paths) :]
    assert [line.split()[-1] for line in lines] == list(paths), lines  # the check ran to its end
    return [line.removeprefix("served ") for line in lines if line.startswith("served ")]


def test_production_settings_pass_the_deployment_checks_without_a_warning():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)

    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {key: value for key, value in PRODUCTION.items() if key != "SECRET_KEY"}

    result = manage("check", env=env)

    assert result.returncode != 0
    assert "Set the SECRET_KEY environment variable" in result.stderr


def test_production_refuses_to_start_without_a_database_url():
    env = {key: value for key, value in PRODUCTION.items() if key != "DATABASE_URL"}

    result = manage("check", env=env)

    assert result.returncode != 0
    assert "Set the DATABASE_URL environment variable" in result.stderr


def test_production_refuses_to_start_with_the_identity_emulator_configured():
    result = manage("check", env={**PRODUCTION, "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"})

    assert result.returncode != 0
    assert "FIREBASE_AUTH_EMULATOR_HOST is set while LOCAL_MODE is off" in result.stderr


def test_production_refuses_to_start_with_a_localstripe_address():
    result = manage("check", env={**PRODUCTION, "STRIPE_API_BASE": "http://127.0.0.1:8420"})

    assert result.returncode != 0
    assert "STRIPE_API_BASE is set while LOCAL_MODE is off" in result.stderr


def test_local_mode_may_use_the_identity_emulator():
    result = manage("check", env={"LOCAL_MODE": "true", "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"})

    assert result.returncode == 0, result.stderr


def test_production_defaults_are_secure():
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.DEBUG)",
        env=PRODUCTION,
    )

    assert result.stdout.splitlines()[-1].split() == ["True", "True", "True", "31536000", "False"]


def test_production_csp_allows_stripe_and_firebase_and_nothing_local_or_inline():
    result = manage(
        "shell",
        "-c",
        "import json; from django.conf import settings as s; print(json.dumps(s.SECURE_CSP))",
        env=PRODUCTION,
    )

    csp = json.loads(result.stdout.splitlines()[-1])
    assert "https://js.stripe.com" in csp["script-src"]
    assert "https://api.stripe.com" in csp["connect-src"]
    assert "https://identitytoolkit.googleapis.com" in csp["connect-src"]
    assert "https://club-prod.firebaseapp.com" in csp["frame-src"]
    assert "'unsafe-inline'" not in csp["script-src"]
    assert not any("127.0.0.1" in origin for directive in csp.values() for origin in directive)


# Two workers raise the same counter under a row lock, on the embedded SQLite database.
SQLITE_LOST_UPDATE = """
import threading, time
import django
django.setup()
from django.core.management import call_command
from django.db import connections, transaction
call_command("migrate", "accounts", verbosity=0)
from accounts.models import User

User.objects.create_user("counter@example.com", name="0")

def raise_counter():
    try:
        with transaction.atomic():
            counter = User.objects.select_for_update().get(email="counter@example.com")
            # Kept: time for the other worker to read the counter too, were nothing to stop it (the
            # lost update); stopped, it waits inside SQLite to begin, which nothing can be told of.
            time.sleep(0.3)
            counter.name = str(int(counter.name) + 1)
            counter.save(update_fields=["name"])
    finally:
        connections.close_all()

workers = [threading.Thread(target=raise_counter) for _ in range(2)]
for worker in workers: worker.start()
for worker in workers: worker.join()
print(User.objects.get().name)
"""


def test_on_the_embedded_sqlite_database_row_locks_still_serialise_writers(tmp_path):
    """SQLite ignores select_for_update(); the settings make every atomic block take its write
    lock first, so two workers take turns instead of losing an update (or failing to write)."""
    result = subprocess.run(
        [sys.executable, "-c", SQLITE_LOST_UPDATE],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.stdout.strip() == "2", result.stderr[-2000:]
