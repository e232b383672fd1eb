"""How many calls signed-in requests make to the identity provider (Firebase).

Method
------
1. A database of its own (`club_identity_bench` on DATABASE_URL's server, made afresh and dropped
   at the end), migrated, with the database cache (the production default, shared by the workers).
2. A relay in front of the running Firebase Auth Emulator that counts every call passing through it
   (testing/provider_calls.py), and one gunicorn instance (2 sync workers) that reaches the
   emulator only through it. The bench makes its accounts at the emulator directly: only the
   site's own calls are counted.
3. --people accounts sign in (POST /api/session), then --requests signed-in requests, the people
   in turn, over a few pages and API reads (GET /api/courts, /api/bookings/pending,
   /api/announcements, /dashboard).
4. It prints the calls the sign-ins made, the calls the signed-in requests made (in all, by kind
   and per person), and the median time of a signed-in GET /api/courts.

The site checks each person's sign-in with the provider at most once per
IDENTITY_REVOCATION_CHECK_SECONDS (300 by default): over a run much shorter than that, the
signed-in requests should make no call at all (each sign-in has just checked), and never more than
one per person per interval.

Usage (inside the local stack: the emulator makes the accounts):
    .venv/bin/python scripts/local_stack.py -- .venv/bin/python bench/identity_calls.py
        [--people 5] [--requests 100]
"""

import argparse
import itertools
import os
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import local_stack  # noqa: E402

DATABASE = "club_identity_bench"
PASSWORD = "bench-pass-1"  # noqa: S105 - emulator accounts for this run only
PATHS = ["/api/courts", "/api/bookings/pending", "/api/announcements", "/dashboard"]


def database_url(name: str) -> str:
    base = urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club"))
    if not base.scheme.startswith("postgres"):
        sys.exit("The benchmark needs PostgreSQL: set DATABASE_URL to a postgres:// URL.")
    return urllib.parse.urlunsplit(base._replace(path=f"/{name}"))


def recreate_database(*, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        if not drop_only:
            connection.execute(f"CREATE DATABASE {DATABASE}")


def app_environment(emulator_host: str) -> dict[str, str]:
    return {
        **os.environ,
        "LOCAL_MODE": "true",
        "DATABASE_URL": database_url(DATABASE),
        "FIREBASE_AUTH_EMULATOR_HOST": emulator_host,
        "CACHE_URL": "dbcache://club_cache",
        "RATE_SESSION": "1000000/min",
        "RATE_SESSION_ACCOUNT": "1000000/min",
    }


def set_up(people: int) -> list[dict]:
    """Migrates, and makes the accounts in the emulator (the site records each at its sign-in)."""
    import django
    from django.core.management import call_command

    os.environ.update(app_environment(os.environ["FIREBASE_AUTH_EMULATOR_HOST"]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)

    from testing import emulator

    run = int(time.time())
    return [emulator.sign_up(f"person-{run}-{n}@bench.example", PASSWORD) for n in range(people)]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--people", type=int, default=5)
    parser.add_argument("--requests", type=int, default=100)
    options = parser.parse_args()

    import logging

    import httpx

    from testing.provider_calls import CountingRelay

    logging.getLogger("httpx").setLevel(logging.WARNING)
    recreate_database()
    app = relay = None
    try:
        accounts = set_up(options.people)
        relay = CountingRelay(os.environ["FIREBASE_AUTH_EMULATOR_HOST"]).start()
        port = local_stack.free_port()
        url = f"http://127.0.0.1:{port}"
        command = [str(Path(sys.executable).with_name("gunicorn")), "club.wsgi"]
        command += ["--bind", f"127.0.0.1:{port}", "--workers", "2", "--log-level", "warning"]
        env = app_environment(relay.host)
        app = local_stack.start("bench-identity", command, f"{url}/healthz", cwd=ROOT, env=env)
        base_calls = relay.snapshot()  # /healthz's own probe, while the app started

        clients = []
        for account in accounts:
            client = httpx.Client(base_url=url, timeout=30)
            client.get("/login")
            answer = client.post(
                "/api/session",
                json={"idToken": account["idToken"]},
                headers={"X-CSRFToken": client.cookies["csrftoken"]},
            )
            if answer.status_code != 200:
                sys.exit(f"Sign-in failed ({answer.status_code}): {answer.text[:300]}")
            clients.append(client)
        after_sign_in = relay.snapshot()

        statuses, courts_ms = [], []
        started = time.monotonic()
        for n, (client, path) in enumerate(zip(itertools.cycle(clients), itertools.cycle(PATHS))):
            if n == options.requests:
                break
            began = time.perf_counter()
            answer = client.get(path)
            if path == "/api/courts":
                courts_ms.append((time.perf_counter() - began) * 1000)
            statuses.append(answer.status_code)
        elapsed = time.monotonic() - started
        after_requests = relay.snapshot()
    finally:
        if app is not None:
            local_stack.stop(app)
        if relay is not None:
            relay.stop()
        recreate_database(drop_only=True)

    sign_in_calls = after_sign_in - base_calls
    request_calls = after_requests - after_sign_in
    total = sum(request_calls.values())
    print(f"people: {options.people}; signed-in requests: {len(statuses)} in {elapsed:.1f} s")
    print(f"answers: {dict(sorted((s, statuses.count(s)) for s in set(statuses)))}")
    print(f"calls to the identity provider by the {options.people} sign-ins: {dict(sign_in_calls)}")
    print(
        f"calls to the identity provider by the {len(statuses)} signed-in requests: "
        f"{total} {dict(request_calls)}"
    )
    print(f"  per person: {total / options.people:.1f} (the rule: at most 1 per person per check interval)")
    if courts_ms:
        median = statistics.median(courts_ms)
        print(f"signed-in GET /api/courts: median {median:.1f} ms over {len(courts_ms)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
