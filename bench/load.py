"""Load and scale-out: three app instances on one PostgreSQL, a club's mix of traffic, then many
people racing for the same slots through different instances.

Method
------
1. A database of its own (`club_bench` on DATABASE_URL's server, made afresh and dropped at the
   end), migrated; courts, people (accounts in the Firebase Auth Emulator) and two admins.
2. Three gunicorn instances of the site (2 sync workers each) on free loopback ports, as behind a
   load balancer: every request goes to the next instance in turn, so one person's calls land on
   all three. The production defaults otherwise: persistent database connections, rate limits
   counted in the database cache that the instances share (their rates raised, so that the
   figures are the site's and not the limiter's refusals).
3. The mix, for --duration seconds: each person, in a closed loop without pauses, lists the courts
   (API, and now and then the page), checks a court's free slots on a day, requests one or two of
   them half of the time, and pays for an approved booking now and then (PaymentIntent, the card
   at localstripe as Stripe.js would, then save-payment); the admins list pending requests and
   approve them.
4. The race: for each of --rounds slots, --racers people (each with their own session) ask for it
   at the same moment through the three instances, half of them together with the slot before it,
   half with the slot after; then both admins approve the winner's booking at the same moment.
5. A SQL check over every booking that holds its slots: any court, day and slot held twice.
6. The ceiling: the same number of concurrent clients for --ceiling-seconds against GET
   /api/courts on the three instances, then against a bare Django view answering the same JSON
   list (bench/bare_django.py), on three gunicorn instances of 2 workers as well.

The client is asyncio with plain HTTP/1.1 (one connection per request, as gunicorn's sync workers
close each one), light enough not to be what is measured; it shares the machine with everything
else, which `nproc` tells. Latency is from sending the request to the end of the response.

Usage (inside the local stack: the emulator makes the accounts, localstripe takes the payments):
    make build
    .venv/bin/python scripts/local_stack.py -- .venv/bin/python bench/load.py [--duration 30]
        [--people 24] [--racers 30] [--rounds 20] [--ceiling-seconds 10]
"""

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import sys
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import local_stack  # noqa: E402

INSTANCES = 3
WORKERS = 2
DATABASE = "club_bench"
PASSWORD = "bench-pass-1"  # noqa: S105 - emulator accounts for this run only
SLOTS = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(7, 21)]


# --- HTTP ----------------------------------------------------------------------------------
@dataclass
class Answer:
    status: int
    body: bytes
    cookies: dict[str, str]

    def json(self):
        return json.loads(self.body)


@dataclass
class Figures:
    """Latencies (seconds) and statuses per endpoint."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))

    def record(self, endpoint: str, status: int, seconds: float) -> None:
        self.latencies[endpoint].append(seconds)
        self.statuses[endpoint][status] += 1


class Client:
    """One person's browser: cookies (the session, the CSRF token) and the instance to ask next."""

    def __init__(self, ports: list[int], figures: Figures):
        self._ports = itertools.cycle(random.sample(ports, len(ports)))
        self.figures = figures
        self.cookies: dict[str, str] = {}

    async def call(self, endpoint: str, method: str, path: str, body=None) -> Answer:
        payload = json.dumps(body).encode() if body is not None else b""
        lines = [
            f"{method} {path} HTTP/1.1",
            "Host: 127.0.0.1",
            "Connection: close",
            "Accept: application/json",
        ]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{name}={value}" for name, value in self.cookies.items()))
        if method != "GET":
            lines += [f"X-CSRFToken: {self.cookies.get('csrftoken', '')}", "Content-Type: application/json"]
            lines.append(f"Content-Length: {len(payload)}")
        started = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", next(self._ports))
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
            raw = await reader.read()  # to the end: the server closes the connection
            writer.close()
            answer = _parse(raw)
        except (OSError, ValueError, IndexError):
            answer = Answer(0, b"", {})  # no answer, or not HTTP: counted as status 0
        self.figures.record(endpoint, answer.status, time.perf_counter() - started)
        self.cookies.update(answer.cookies)
        return answer


def _parse(raw: bytes) -> Answer:
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *headers = head.decode("latin-1").split("\r\n")
    cookies = {}
    for header in headers:
        name, _, value = header.partition(":")
        if name.lower() == "set-cookie":
            cookie, _, attributes = value.strip().partition(";")
            key, _, content = cookie.partition("=")
            if "max-age=0" not in attributes.lower():
                cookies[key] = content
    return Answer(int(status_line.split()[1]), body, cookies)


# --- Setting up --------------------------------------------------------------------------------
def database_url(name: str) -> str:
    base = urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club"))
    if not base.scheme.startswith("postgres"):
        sys.exit("The benchmark needs PostgreSQL: set DATABASE_URL to a postgres:// URL.")
    return urllib.parse.urlunsplit(base._replace(path=f"/{name}"))


def make_database() -> None:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE}")


def drop_database() -> None:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def app_environment() -> dict[str, str]:
    rates = {f"RATE_{scope}": "1000000/min" for scope in ("SESSION", "BOOKING", "PAYMENT")}
    return {**os.environ, "LOCAL_MODE": "true", "DATABASE_URL": database_url(DATABASE), **rates}


def seed(people: int, racers: int) -> dict:
    """Courts, and accounts in the emulator (the site makes each user at their first sign-in)."""
    import django
    from django.core.management import call_command

    os.environ.update(app_environment())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)

    from accounts.models import User
    from club.testing import emulator
    from courts.services import court_create

    courts = [
        court_create(name=f"Court {n}", type=kind, price=price, image="/static/img/logo.svg", slots=SLOTS)
        for n, (kind, price) in enumerate(
            itertools.islice(itertools.cycle([("Tennis", 30), ("Squash", 12)]), 10)
        )
    ]
    race_court = court_create(
        name="Race Court", type="Tennis", price=20, image="/static/img/logo.svg", slots=SLOTS
    )
    run = int(time.time())
    accounts = {
        kind: [emulator.sign_up(f"{kind}-{run}-{n}@bench.example", PASSWORD) for n in range(count)]
        for kind, count in (("person", people), ("racer", racers), ("admin", 2))
    }
    for admin in accounts["admin"]:
        User.objects.create_user(admin["email"], role=User.Role.ADMIN)
    return {"courts": [court.pk for court in courts], "race_court": race_court.pk, "accounts": accounts}


def start_instances(name: str, command: list[str], env: dict, ready_path: str) -> tuple[list, list[int]]:
    processes, ports = [], []
    for n in range(INSTANCES):
        port = local_stack.free_port()
        bind = [*command, "--bind", f"127.0.0.1:{port}", "--workers", str(WORKERS), "--log-level", "warning"]
        processes.append(
            local_stack.start(
                f"bench-{name}-{n}", bind, f"http://127.0.0.1:{port}{ready_path}", cwd=ROOT, env=env
            )
        )
        ports.append(port)
    return processes, ports


async def sign_in(client: Client, account: dict) -> None:
    await client.call("GET /login (CSRF cookie)", "GET", "/login")
    answer = await client.call("POST /api/session", "POST", "/api/session", {"idToken": account["idToken"]})
    if answer.status != 200:
        sys.exit(f"Sign-in failed ({answer.status}): {answer.body[:300]!r}")


# --- The mix -----------------------------------------------------------------------------------
def some_day() -> str:
    return str(date.today() + timedelta(days=random.randint(1, 14)))


async def person(client: Client, courts: list[int], deadline: float) -> None:
    from club.testing import stripe_stand_in

    while time.monotonic() < deadline:
        await client.call("GET /api/courts", "GET", "/api/courts")
        if random.random() < 0.1:
            await client.call("GET /courts (page)", "GET", "/courts")
        court, day = random.choice(courts), some_day()
        free = await client.call(
            "GET /api/courts/{id}/availability", "GET", f"/api/courts/{court}/availability?date={day}"
        )
        if free.status != 200:
            continue
        open_slots = [slot for slot in SLOTS if slot not in free.json()["taken"]]
        if open_slots and random.random() < 0.5:
            start = random.randrange(len(open_slots))
            wanted = open_slots[start : start + random.choice([1, 2])]
            body = {"courtId": court, "date": day, "slots": wanted}
            await client.call("POST /api/bookings", "POST", "/api/bookings", body)
        if random.random() < 0.2:
            approved = await client.call("GET /api/bookings/approved", "GET", "/api/bookings/approved")
            if approved.status == 200 and (bookings := approved.json()):
                intent = await client.call(
                    "POST /api/create-payment-intent",
                    "POST",
                    "/api/create-payment-intent",
                    {"bookingId": bookings[0]["id"]},
                )
                if intent.status == 200:
                    secret = intent.json()["clientSecret"]
                    await asyncio.to_thread(stripe_stand_in.pay, secret)  # Stripe.js's part
                    body = {"paymentIntentId": secret.split("_secret_")[0]}
                    await client.call("POST /api/save-payment", "POST", "/api/save-payment", body)


async def admin(client: Client, deadline: float) -> None:
    while time.monotonic() < deadline:
        pending = await client.call("GET /api/bookings/pending (admin)", "GET", "/api/bookings/pending")
        for booking in pending.json()[:5] if pending.status == 200 else []:
            path = f"/api/bookings/approve/{booking['id']}"
            await client.call("PATCH /api/bookings/approve/{id}", "PATCH", path)
        await asyncio.sleep(0.2)  # an admin reads before approving


# --- The race ----------------------------------------------------------------------------------
async def race(racers: list[Client], admins: list[Client], court: int, rounds: int) -> dict:
    outcome = Counter()
    for n in range(rounds):
        # Three fresh slots a round, the middle one asked for by everyone: exactly one can win.
        per_day = len(SLOTS) // 3
        day = str(date.today() + timedelta(days=1 + n // per_day))  # a court of its own: any day
        middle = 1 + 3 * (n % per_day)
        asks = [
            [SLOTS[middle - 1], SLOTS[middle]] if index % 2 else [SLOTS[middle], SLOTS[middle + 1]]
            for index in range(len(racers))
        ]
        answers = await asyncio.gather(
            *(
                racer.call(
                    "POST /api/bookings (race)",
                    "POST",
                    "/api/bookings",
                    {"courtId": court, "date": day, "slots": slots},
                )
                for racer, slots in zip(racers, asks, strict=True)
            )
        )
        winners = [answer.json()["id"] for answer in answers if answer.status == 201]
        outcome["rounds with exactly one winner" if len(winners) == 1 else "rounds with another count"] += 1
        for booking in winners:
            decisions = await asyncio.gather(
                *(
                    staff.call("PATCH approve (race)", "PATCH", f"/api/bookings/approve/{booking}")
                    for staff in admins
                )
            )
            statuses = sorted(decision.status for decision in decisions)
            outcome[
                "approvals won once, refused once" if statuses == [200, 409] else f"approvals {statuses}"
            ] += 1
    return outcome


def double_booked_slots() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT count(*) FROM (
                SELECT b.court_id, b.date, slot
                FROM bookings_booking b, jsonb_array_elements_text(b.slots) AS slot
                WHERE b.status IN ('pending', 'approved', 'confirmed')
                GROUP BY b.court_id, b.date, slot
                HAVING count(*) > 1
            ) AS doubled
            """
        )
        return cursor.fetchone()[0]


# --- The ceiling -------------------------------------------------------------------------------
async def hammer(ports: list[int], concurrency: int, seconds: float, figures: Figures) -> float:
    deadline = time.monotonic() + seconds

    async def loop():
        client = Client(ports, figures)
        while time.monotonic() < deadline:
            await client.call("GET /api/courts", "GET", "/api/courts")

    started = time.monotonic()
    await asyncio.gather(*(loop() for _ in range(concurrency)))
    return sum(figures.statuses["GET /api/courts"].values()) / (time.monotonic() - started)


# --- Report ------------------------------------------------------------------------------------
def percentiles_ms(seconds: list[float]) -> tuple[float, float, float]:
    """p50, p95 and p99, in milliseconds."""
    cuts = statistics.quantiles(seconds, n=100, method="inclusive") if len(seconds) > 1 else seconds * 99
    return cuts[49] * 1000, cuts[94] * 1000, cuts[98] * 1000


def report(title: str, figures: Figures, seconds: float) -> None:
    total = sum(len(values) for values in figures.latencies.values())
    print(f"\n{title}: {total} requests in {seconds:.1f} s = {total / seconds:.0f} req/s")
    print(f"  {'endpoint':<40} {'count':>6} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  statuses")
    for endpoint, values in sorted(figures.latencies.items()):
        p50, p95, p99 = percentiles_ms(values)
        statuses = ", ".join(
            f"{status}: {count}" for status, count in sorted(figures.statuses[endpoint].items())
        )
        print(
            f"  {endpoint:<40} {len(values):>6} {len(values) / seconds:>7.1f} {p50:>8.1f}"
            f" {p95:>8.1f} {p99:>8.1f}  {statuses}"
        )
    errors = Counter()
    for counter in figures.statuses.values():
        errors.update({status: count for status, count in counter.items() if not 200 <= status < 400})
    # 409s are the site refusing what the state no longer allows (a slot taken, a decision made).
    print("  errors by status: " + (", ".join(f"{s}: {c}" for s, c in sorted(errors.items())) or "none"))
    server_errors = sum(count for status, count in errors.items() if status >= 500 or status == 0)
    print(f"  server errors (5xx) and requests without an answer: {server_errors}")


def stop_all(processes: list) -> None:
    for process in processes:
        local_stack.stop(process)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=30, help="seconds of the mix (default 30)")
    parser.add_argument("--people", type=int, default=24, help="people in the mix (default 24)")
    parser.add_argument("--racers", type=int, default=30, help="people in each race (default 30)")
    parser.add_argument("--rounds", type=int, default=20, help="slots raced for (default 20)")
    parser.add_argument("--ceiling-seconds", type=float, default=10, help="seconds per ceiling run")
    args = parser.parse_args()
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        sys.exit("Run it inside the local stack: scripts/local_stack.py -- .venv/bin/python bench/load.py")
    if not (ROOT / "staticfiles" / "staticfiles.json").exists():
        sys.exit("Build the front end first: make build")

    make_database()
    processes = []
    try:
        data = seed(args.people, args.racers)
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        started, club = start_instances("club", [gunicorn, "club.wsgi"], app_environment(), "/healthz")
        processes += started
        print(f"{INSTANCES} instances of the site x {WORKERS} workers on ports {club}; {os.cpu_count()} CPUs")
        asyncio.run(run(args, data, club, processes, gunicorn))
        print(f"\nDouble-booked slots (SQL over every booking that holds its slots): {double_booked_slots()}")
    finally:
        stop_all(processes)
        from django.db import connections

        connections.close_all()
        drop_database()


async def run(args, data: dict, club: list[int], processes: list, gunicorn: str) -> None:
    setup = Figures()
    people = [Client(club, Figures()) for _ in data["accounts"]["person"]]
    racers = [Client(club, setup) for _ in data["accounts"]["racer"]]
    admins = [Client(club, Figures()) for _ in data["accounts"]["admin"]]
    for client, account in zip(
        [*people, *racers, *admins],
        [*data["accounts"]["person"], *data["accounts"]["racer"], *data["accounts"]["admin"]],
        strict=True,
    ):
        await sign_in(client, account)

    mix = Figures()
    for client in [*people, *admins]:
        client.figures = mix
    deadline = time.monotonic() + args.duration
    started = time.monotonic()
    await asyncio.gather(
        *(person(client, data["courts"], deadline) for client in people),
        *(admin(client, deadline) for client in admins),
    )
    report(f"Mix ({len(people)} people, {len(admins)} admins)", mix, time.monotonic() - started)

    contest = Figures()
    for client in [*racers, *admins]:
        client.figures = contest
    started = time.monotonic()
    outcome = await race(racers, admins, data["race_court"], args.rounds)
    report(f"Race ({len(racers)} people per slot, {args.rounds} rounds)", contest, time.monotonic() - started)
    for line, count in sorted(outcome.items()):
        print(f"  {line}: {count}")

    concurrency = len(people)
    site = Figures()
    site_rate = await hammer(club, concurrency, args.ceiling_seconds, site)
    body = await Client(club, Figures()).call("GET /api/courts", "GET", "/api/courts")
    courts_json = ROOT / "var" / "bench-courts.json"
    courts_json.write_bytes(body.body)
    bare_env = {**os.environ, "BARE_JSON": str(courts_json)}
    started_bare, bare = start_instances(
        "bare", [gunicorn, "--chdir", str(ROOT / "bench"), "bare_django:application"], bare_env, "/api/courts"
    )
    processes += started_bare
    ceiling = Figures()
    bare_rate = await hammer(bare, concurrency, args.ceiling_seconds, ceiling)
    print(
        f"\nCeiling ({concurrency} concurrent clients, {args.ceiling_seconds:.0f} s each,"
        f" {INSTANCES}x{WORKERS} workers):"
    )
    for name, figures, rate in (
        ("site GET /api/courts", site, site_rate),
        ("bare Django view, same JSON", ceiling, bare_rate),
    ):
        values = figures.latencies["GET /api/courts"]
        p50, p95, p99 = percentiles_ms(values)
        errors = sum(count for status, count in figures.statuses["GET /api/courts"].items() if status != 200)
        print(
            f"  {name:<30} {rate:>7.0f} req/s  p50 {p50:.1f} ms  p95 {p95:.1f} ms"
            f"  p99 {p99:.1f} ms  non-200: {errors}"
        )
    print(f"  GET /api/courts / bare view: {site_rate / bare_rate:.2f}")


if __name__ == "__main__":
    main()
