"""Load and scale-out: three app instances on one PostgreSQL, a club's mix of traffic, then many
people racing for the same slots through different instances.
The load comes from Locust (bench/locustfile.py), run headless; the figures from its CSV files.

Method
------
1. A database of its own (`<DATABASE_URL's name>_bench` on the same server, made afresh, or a
   copy of --from-database such as the scale bench's `club_scale_112k`, and dropped at the end),
   migrated; courts (or those of the copy), people (accounts in the Firebase Auth Emulator that
   FIREBASE_AUTH_EMULATOR_HOST names) and two admins.
2. Three gunicorn instances of the site (2 sync workers each) on free loopback ports, as behind a
   load balancer: every request goes to the next instance in turn, so one person's calls land on
   all three. The production defaults otherwise: persistent database connections, rate limits
   counted in the database cache that the instances share (their rates raised, so that the
   figures are the site's and not the limiter's refusals).
3. The mix (Locust users `Person` and `Admin`), for --duration seconds: each person, in a closed
   loop without pauses, lists the courts (API, and now and then the page), checks a court's free
   slots on a day, requests one or two of them half of the time, and pays for an approved
   booking now and then (PaymentIntent, the card at localstripe as Stripe.js would, then
   save-payment); the admins list pending requests and approve them.
4. The race (`Race`): for each of --rounds slots, --racers people (each with their own session)
   ask for it at the same moment through the three instances, half of them together with the
   slot before it, half with the slot after; then both admins approve the winner's booking at the
   same moment. Each round must have exactly one winner, each double approval one 200 and one 409.
5. A SQL check over every booking that holds its slots: any court, day and slot held twice.

Locust shares the machine with everything else (`nproc` tells); latency is from sending the
request to the end of the response, as Locust measures it (its percentiles are rounded to two
significant digits).

Usage (inside the local stack: the emulator makes the accounts, localstripe takes the payments):
    make build
    .venv/bin/python scripts/local_stack.py -- .venv/bin/python bench/load.py [--duration 30]
        [--people 24] [--racers 30] [--rounds 20] [--from-database club_scale_112k] [--only race]
"""

import argparse
import csv
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import local_stack  # noqa: E402

INSTANCES = 3
WORKERS = 2
PASSWORD = "bench-pass-1"  # noqa: S105 - emulator accounts for this run only
SLOTS = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(7, 21)]
LOCUSTFILE = ROOT / "bench" / "locustfile.py"


# --- Setting up --------------------------------------------------------------------------------
def database_url(name: str) -> str:
    base = urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club"))
    if not base.scheme.startswith("postgres"):
        sys.exit("The benchmark needs PostgreSQL: set DATABASE_URL to a postgres:// URL.")
    return urllib.parse.urlunsplit(base._replace(path=f"/{name}"))


def bench_database() -> str:
    """`<DATABASE_URL's database>_bench`: a run beside another stack's leaves that one's alone."""
    name = urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "postgres:///club")).path.strip("/")
    return f"{name or 'club'}_bench"


DATABASE = bench_database()


def make_database(template: str | None) -> None:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        try:
            copy = f" TEMPLATE {template}" if template else ""
            connection.execute(f"CREATE DATABASE {DATABASE}{copy}")
        except psycopg.errors.ObjectInUse:
            sys.exit(f"{template} is in use (a scale bench running?): a copy needs it idle.")


def drop_database() -> None:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def app_environment() -> dict[str, str]:
    rates = {f"RATE_{scope}": "1000000/min" for scope in ("SESSION", "BOOKING", "PAYMENT")}
    return {**os.environ, "LOCAL_MODE": "true", "DATABASE_URL": database_url(DATABASE), **rates}


def seed(people: int, racers: int, copied: bool) -> dict:
    """Courts (unless the database is a copy that has its own) and a court for the race, and
    accounts in the emulator (the site makes each user at their first sign-in)."""
    import django
    from django.core.management import call_command

    os.environ.update(app_environment())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)

    from accounts.models import User
    from courts.selectors import court_list
    from courts.services import court_create
    from testing import emulator

    if not copied:
        for n, (kind, price) in enumerate(
            itertools.islice(itertools.cycle([("Tennis", 30), ("Squash", 12)]), 10)
        ):
            court_create(name=f"Court {n}", type=kind, price=price, image="/static/img/logo.svg", slots=SLOTS)
    courts = [court.pk for court in court_list() if court.slots]
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
    return {"courts": courts, "race_court": race_court.pk, "accounts": accounts}


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


def stop_all(processes: list) -> None:
    for process in processes:
        local_stack.stop(process)


# --- Locust ------------------------------------------------------------------------------------
def locust(
    work: Path,
    name: str,
    users: list[str],
    count: int,
    seconds: float,
    ports: list[int],
    env: dict,
    servers: list,
) -> Path:
    """Runs Locust headless with `users` (classes of bench/locustfile.py), `count` of them started
    at once, for `seconds`, against `ports` (served by the processes `servers`); answers the prefix
    of its CSV files. The CPU each side used is kept in CPU[name]."""
    prefix = work / name
    command = [
        str(Path(sys.executable).with_name("locust")),
        *("-f", str(LOCUSTFILE), "--headless", "--only-summary", "--loglevel", "ERROR"),
        *("--users", str(count), "--spawn-rate", str(count), "--run-time", f"{seconds:.0f}s"),
        *("--stop-timeout", "10", "--csv", str(prefix), "--host", f"http://127.0.0.1:{ports[0]}"),
        *users,
    ]
    bench_env = {**env, "BENCH_PORTS": ",".join(map(str, ports))}
    before = cpu_seconds(servers)
    completed = subprocess.run(command, cwd=ROOT, env=bench_env, capture_output=True, text=True, check=False)
    if not Path(f"{prefix}_stats.csv").exists() or completed.returncode not in (0, 1):
        sys.exit(f"Locust failed ({completed.returncode}):\n{completed.stderr[-3000:]}")
    after = cpu_seconds(servers)
    CPU[name] = {
        part: sum(seconds - before[part].get(pid, 0.0) for pid, seconds in after[part].items())
        for part in after
    }
    return prefix


# CPU seconds per run: the app's workers, PostgreSQL's processes (those that lived through the
# run: the instances keep their connections) and Locust (the generator).
CPU: dict[str, dict[str, float]] = {}


def cpu_seconds(servers: list) -> dict[str, dict[int, float]]:
    """CPU seconds used so far, per process: the app's workers, PostgreSQL's, and Locust's (all
    the children this script waited for, so the runs of Locust so far)."""
    import resource

    import psutil

    def used(processes) -> dict[int, float]:
        seconds = {}
        for process in processes:
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            seconds[process.pid] = times.user + times.system
        return seconds

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "app workers": used(
            child for server in servers for child in psutil.Process(server.pid).children(recursive=True)
        ),
        "PostgreSQL": used(process for process in psutil.process_iter() if process.name() == "postgres"),
        "Locust": {0: children.ru_utime + children.ru_stime},
    }


def read_stats(prefix: Path) -> tuple[list[dict], dict, dict[str, dict[str, int]]]:
    """Locust's rows per endpoint, its aggregated row, and the failures per endpoint by error."""
    with open(f"{prefix}_stats.csv", newline="") as rows:
        stats = list(csv.DictReader(rows))
    failures: dict[str, dict[str, int]] = defaultdict(dict)
    with open(f"{prefix}_failures.csv", newline="") as rows:
        for row in csv.DictReader(rows):
            error = row["Error"].removeprefix("CatchResponseError(").strip("()'\"")
            failures[row["Name"]][error] = failures[row["Name"]].get(error, 0) + int(row["Occurrences"])
    total = next(row for row in stats if row["Name"] == "Aggregated")
    return [row for row in stats if row["Name"] != "Aggregated"], total, failures


def report(title: str, prefix: Path) -> dict:
    rows, total, failures = read_stats(prefix)
    print(f"\n{title}: {total['Request Count']} requests = {float(total['Requests/s']):.0f} req/s")
    print(f"  {'endpoint':<40} {'count':>6} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}  refused")
    for row in sorted(rows, key=lambda row: row["Name"]):
        if row["Request Count"] == "0":
            continue
        refused = ", ".join(f"{error}: {count}" for error, count in sorted(failures[row["Name"]].items()))
        print(
            f"  {row['Name']:<40} {row['Request Count']:>6} {float(row['Requests/s']):>7.1f}"
            f" {row['50%']:>7} {row['95%']:>7} {row['99%']:>7}  {refused or '-'}"
        )
    errors: dict[str, int] = defaultdict(int)
    for by_error in failures.values():
        for error, count in by_error.items():
            errors[error] += count
    # 409s are the site refusing what the state no longer allows (a slot taken, a decision made).
    print(
        "  errors: " + (", ".join(f"{error}: {count}" for error, count in sorted(errors.items())) or "none")
    )
    server_errors = sum(count for error, count in errors.items() if not error.startswith("HTTP 4"))
    print(f"  server errors (5xx) and requests without an answer: {server_errors}")
    requests = max(int(total["Request Count"]), 1)
    cpu = {part: seconds * 1000 / requests for part, seconds in CPU.get(prefix.name, {}).items()}
    print("  CPU per request: " + ", ".join(f"{part} {ms:.2f} ms" for part, ms in cpu.items()))
    return {"rate": float(total["Requests/s"]), "row": total, "server_errors": server_errors, "cpu": cpu}


# --- The run -----------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=30, help="seconds of the mix (default 30)")
    parser.add_argument("--people", type=int, default=24, help="people in the mix (default 24)")
    parser.add_argument("--racers", type=int, default=30, help="people in each race (default 30)")
    parser.add_argument("--rounds", type=int, default=20, help="slots raced for (default 20)")
    parser.add_argument(
        "--from-database",
        metavar="NAME",
        help="run on a copy of this database (e.g. club_scale_112k, made by bench/scale.py)",
    )
    parser.add_argument("--only", choices=["mix", "race"], action="append", help="run only these")
    args = parser.parse_args()
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        sys.exit("Run it inside the local stack: scripts/local_stack.py -- .venv/bin/python bench/load.py")
    if not (ROOT / "staticfiles" / "staticfiles.json").exists():
        sys.exit("Build the front end first: make build")
    parts = set(args.only or ["mix", "race"])

    make_database(args.from_database)
    processes = []
    try:
        with tempfile.TemporaryDirectory(prefix="bench-load-") as work:
            data = seed(args.people, args.racers, copied=bool(args.from_database))
            data_file = Path(work) / "data.json"
            data_file.write_text(json.dumps(data))
            gunicorn = str(Path(sys.executable).with_name("gunicorn"))
            env = app_environment()
            started, club = start_instances("club", [gunicorn, "club.wsgi"], env, "/healthz")
            processes += started
            source = f"a copy of {args.from_database}" if args.from_database else "a fresh database"
            print(
                f"{INSTANCES} instances of the site x {WORKERS} workers on ports {club}, {source}"
                f" ({len(data['courts'])} courts); {os.cpu_count()} CPUs; Locust"
            )
            env = {**env, "BENCH_DATA": str(data_file), "BENCH_ROUNDS": str(args.rounds)}
            run(args, parts, Path(work), club, env, processes)
            from testing.integrity import double_booked_slots  # once Django is set up

            doubled = double_booked_slots()
            print(f"\nDouble-booked slots (SQL over every booking that holds its slots): {doubled}")
    finally:
        stop_all(processes)
        from django.db import connections

        connections.close_all()
        drop_database()


def run(args, parts: set, work: Path, club: list[int], env: dict, processes: list) -> None:
    users, servers = args.people + 2, list(processes)
    if "mix" in parts:
        mix = locust(work, "mix", ["Person", "Admin"], users, args.duration, club, env, servers)
        report(f"Mix ({args.people} people, 2 admins, {args.duration:.0f} s)", mix)

    if "race" in parts:
        outcome_file = work / "race-outcome.json"
        race_env = {**env, "BENCH_OUTCOME": str(outcome_file)}
        race = locust(work, "race", ["Race"], 1, 600, club, race_env, servers)
        report(f"Race ({args.racers} people per slot, {args.rounds} rounds)", race)
        for line, count in sorted(json.loads(outcome_file.read_text()).items()):
            print(f"  {line}: {count}")


if __name__ == "__main__":
    main()
