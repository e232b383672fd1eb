"""Scale: what every page and list of the site costs with a year of a busy club, at two sizes.

Method
------
1. Two databases on DATABASE_URL's PostgreSQL server (default 127.0.0.1:5432): `club_scale_11k`
   (`seed_scale --days 36`, about 11,000 bookings) and `club_scale_112k` (`seed_scale` with its
   defaults: 5,000 people, 40 courts, a year, about 112,000 bookings), each made afresh, migrated
   and seeded; with --reuse, a database that holds bookings, none of them overdue yet (seeded
   less than 22 hours before), is kept as it is. They are left in place at the end.
2. Per size, one gunicorn worker of the site (local mode, so it sends Server-Timing; the
   production build already in staticfiles/, not rebuilt; DEBUG off), both sizes side by side,
   and four callers on each: anonymous, the first admin, the busiest member (about 430 bookings
   in the default year) and the user with the most bookings among those with an approved one,
   each signed in through the Firebase Auth Emulator like a browser (an account made there for
   the seeded e-mail, verified; its ID token to POST /api/session).
3. For each page and list endpoint a role may call (ROUTES), one request to each size to warm up,
   then --requests rounds of one request to each size in turn (so that both sizes share the
   machine's moments; fewer rounds when a row has taken --row-seconds, three at least), with
   `Accept-Encoding: gzip, br`. Per row: the status, the body's bytes as sent (compressed), the
   median and p95 server time (Server-Timing: db + app, the time inside Django from the first
   middleware to the last, without gunicorn or the network) and the SQL queries per request.
4. The budgets, each row OK or OVER: a page at most 60 KiB compressed with a p95 of at most
   100 ms, but the day sheet (/schedule, every court's slots) at most 30 KiB and 50 ms; an API
   list a p95 of at most 50 ms; availability a p95 of at most 10 ms. Then the
   growth from the smaller size to the larger, per row: the bytes and the median server time
   grow by 20 % at most (with 256 bytes of slack for gzip's random padding and 1 ms for the
   noise of a shared machine), the queries not at all. The admin's dashboard, the ledger and the
   reports sum a period (a month, 12 months), so their time is judged by the budget only; the
   reports' p95 at most 300 ms.
5. The ledger's CSV of every payment (all of them, the whole year at 112k), downloaded once per
   size by the admin (`Accept-Encoding: gzip`) and read as it streams: its rows and bytes, when
   the first and the last byte came, and the worker's peak resident memory (VmHWM) before and
   after. Budget: 15 s at most (gunicorn's worker timeout is 30 s), and the peak grows by 64 MiB
   at most: the rows are streamed, never held all at once.
6. The day sheet of a club with --sheet-courts courts (default 332, LibreBooking's published
   case; `seed_scale --courts 332 --days 31`, a month of bookings around today), per role, with
   a page's budget: at most 60 KiB compressed, a p95 of at most 100 ms.

The databases are named after DATABASE_URL's (`club_scale_11k`, `club_scale_112k` and
`club_scale_332courts` for `club`).

Usage (inside the local stack: the emulator makes the accounts):
    .venv/bin/python scripts/local_stack.py -- .venv/bin/python bench/scale.py [--reuse]
        [--requests 20] [--row-seconds 15] [--sizes 11k,112k] [--sheet-courts 332]
"""

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import zlib
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import local_stack  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
PASSWORD = "scale-pass-1"  # noqa: S105 - emulator accounts for this run only
SIZES = {"11k": ["--days", "36"], "112k": []}  # seed_scale's arguments per size
ROLES = ("anonymous", "user", "member", "admin")
# SUMS: a page that sums a period of the club's records (the admin's dashboard, the ledger's
# month): its time grows with the rows of that period, so its growth is judged by bytes and queries.
# REPORT: the reports, which sum the last 12 months (every booking of the year at 112k).
# WIDE_SHEET: the day sheet of a club with hundreds of courts (--sheet-courts): a page's budget.
PAGE, SHEET, SUMS, REPORT, API, AVAILABILITY = "page", "sheet", "sums", "report", "api", "availability"
WIDE_SHEET = "wide sheet"
BUDGET_PAGE_BYTES = {
    PAGE: 60 * 1024,
    SHEET: 30 * 1024,
    SUMS: 60 * 1024,
    REPORT: 60 * 1024,
    WIDE_SHEET: 60 * 1024,
}
BUDGET_MS = {PAGE: 100, SHEET: 50, WIDE_SHEET: 100, SUMS: 100, REPORT: 300, API: 50, AVAILABILITY: 10}
PERIOD_SUMS = (SUMS, REPORT)
# The ledger's CSV of every payment (the whole year at 112k): it must end well within gunicorn's
# worker timeout (30 s by default), and stream: the worker's peak memory may grow by this much at
# most, whatever the number of rows.
CSV_PATH = "/dashboard/ledger.csv?date_from="
BUDGET_CSV_SECONDS = 15
BUDGET_CSV_GROWTH_MIB = 64
GROWTH = 0.20
GROWTH_SLACK_MS = 1.0
GROWTH_SLACK_BYTES = 256  # Django's gzip pads each response at random (against BREACH)
SERVER_TIMING = re.compile(r'db;desc="(\d+) quer(?:y|ies)";dur=([\d.]+), app;dur=([\d.]+)')

# (path, kind, roles): every page and list endpoint, and who may call it (docs/rules.md, Roles).
# {court} is the first court, {day} the day after tomorrow, {booking} the user's approved booking,
# {payment} the member's latest payment, {program} the program with the most registrations,
# {series} the longest series and {series_date} its first date's booking.
SIGNED_IN = ("user", "member", "admin")
EVERYONE = ROLES
ROUTES = [
    ("/", PAGE, EVERYONE),
    ("/courts", PAGE, EVERYONE),
    ("/support", PAGE, EVERYONE),
    ("/schedule?date={day}", SHEET, EVERYONE),
    ("/membership", PAGE, EVERYONE),
    ("/matches", PAGE, EVERYONE),
    ("/programs", PAGE, EVERYONE),
    ("/programs/{program}", PAGE, EVERYONE),
    ("/programs/{program}/participants", PAGE, ("admin",)),
    ("/blog/1", PAGE, ("anonymous",)),
    ("/login", PAGE, ("anonymous",)),
    ("/register", PAGE, ("anonymous",)),
    ("/dashboard", SUMS, SIGNED_IN),
    ("/dashboard/announcements", PAGE, SIGNED_IN),
    ("/dashboard/pending-bookings", PAGE, SIGNED_IN),
    ("/dashboard/approved-bookings", PAGE, SIGNED_IN),
    ("/dashboard/my-bookings", PAGE, ("user", "member")),
    ("/dashboard/bookings/{booking}", PAGE, ("user", "admin")),
    ("/dashboard/profile", PAGE, SIGNED_IN),
    ("/dashboard/payment-page/{booking}", PAGE, ("user",)),
    ("/dashboard/confirmed-bookings", PAGE, ("member",)),
    ("/dashboard/payment-history", PAGE, ("member",)),
    ("/dashboard/payments/{payment}/receipt", PAGE, ("member", "admin")),
    ("/dashboard/manage-bookings", PAGE, ("admin",)),
    ("/dashboard/manage-bookings-approval", PAGE, ("admin",)),
    ("/dashboard/manage-users", PAGE, ("admin",)),
    ("/dashboard/manage-members", PAGE, ("admin",)),
    ("/dashboard/manage-courts", PAGE, ("admin",)),
    ("/dashboard/manage-programs", PAGE, ("admin",)),
    ("/dashboard/bookings/{series_date}", PAGE, ("admin",)),
    ("/dashboard/manage-coupons", PAGE, ("admin",)),
    ("/dashboard/membership-plans", PAGE, ("admin",)),
    ("/dashboard/make-announcements", PAGE, ("admin",)),
    ("/dashboard/support-inbox", PAGE, ("admin",)),
    ("/dashboard/club-rules", PAGE, ("admin",)),
    ("/dashboard/ledger", SUMS, ("admin",)),
    ("/dashboard/reports", REPORT, ("admin",)),
    ("/dashboard/audit-trail", PAGE, ("admin",)),
    ("/api/courts", API, EVERYONE),
    ("/api/coupons", API, EVERYONE),
    ("/api/plans", API, EVERYONE),
    ("/api/courts/{court}/availability?date={day}", AVAILABILITY, EVERYONE),
    ("/api/schedule?date={day}", API, EVERYONE),
    ("/api/matches", API, EVERYONE),
    ("/api/programs", API, EVERYONE),
    ("/api/programs/{program}/participants", API, ("admin",)),
    ("/api/series/{series}", API, ("admin",)),
    ("/api/announcements", API, SIGNED_IN),
    ("/api/bookings/pending", API, SIGNED_IN),
    ("/api/bookings/approved", API, SIGNED_IN),
    ("/api/bookings/confirmed", API, SIGNED_IN),
    ("/api/payments", API, SIGNED_IN),
    ("/api/users", API, ("admin",)),
    ("/api/members", API, ("admin",)),
]
# The day sheet of a club with many courts: LibreBooking's published case is 332 courts, whose
# schedule needed 0.6 s there after a rewrite. A month of bookings around today is enough for it.
WIDE_SHEET_ROUTES = [("/schedule?date={day}", WIDE_SHEET, EVERYONE)]
WIDE_SHEET_DAYS = ["--days", "31"]


@dataclass
class Row:
    role: str
    path: str
    kind: str
    status: int
    encoding: str
    body_bytes: int
    server_ms: list[float]
    queries: list[int]

    @property
    def p50(self) -> float:
        return statistics.median(self.server_ms)

    @property
    def p95(self) -> float:
        return percentile(self.server_ms, 95)

    @property
    def query_label(self) -> str:
        low, high = min(self.queries), max(self.queries)
        return str(low) if low == high else f"{low}-{high}"

    def verdict(self) -> str:
        if self.status != 200:
            return "-"
        over = self.p95 > BUDGET_MS[self.kind]
        if self.kind in BUDGET_PAGE_BYTES:
            over = over or self.body_bytes > BUDGET_PAGE_BYTES[self.kind]
        return "OVER" if over else "OK"

    @property
    def budget(self) -> str:
        if self.kind in BUDGET_PAGE_BYTES:
            return f"<={BUDGET_PAGE_BYTES[self.kind] // 1024} KiB, p95 <={BUDGET_MS[self.kind]} ms"
        return f"p95 <={BUDGET_MS[self.kind]} ms"


def percentile(values: list[float], cut: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[cut - 1]


# --- Databases -----------------------------------------------------------------------------
def database_url(name: str) -> str:
    base = urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club"))
    if not base.scheme.startswith("postgres"):
        sys.exit("The benchmark needs PostgreSQL: set DATABASE_URL to a postgres:// URL.")
    return urllib.parse.urlunsplit(base._replace(path=f"/{name}"))


# DATABASE_URL's database, as given (main() points DATABASE_URL at a size's database later on).
BASE_DATABASE = urllib.parse.urlsplit(os.environ.get("DATABASE_URL", "")).path.strip("/") or "club"


def scale_database(size: str) -> str:
    """The database of a size, named after DATABASE_URL's (`club_scale_112k` for `club`), so that
    runs on different databases of one server keep apart."""
    return f"{BASE_DATABASE}_scale_{size}"


def app_environment(database: str) -> dict[str, str]:
    rates = {f"RATE_{scope}": "1000000/min" for scope in ("SESSION", "BOOKING", "PAYMENT")}
    return {
        **os.environ,
        "LOCAL_MODE": "true",
        "DEBUG": "false",
        "VITE_DEV_MODE": "false",
        "DATABASE_URL": database_url(database),
        **rates,
    }


def seeded(database: str) -> bool:
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone():
            return False
    with psycopg.connect(database_url(database)) as connection:
        try:
            bookings, overdue = connection.execute(
                # bookings.selectors.overdue, with the default deadlines
                "SELECT count(*), count(*) FILTER (WHERE"
                " (status = 'approved' AND payment_due_at < now())"
                " OR (status = 'pending'"
                " AND (created_at <= now() - interval '48 hours' OR starts_at <= now())))"
                " FROM bookings_booking"
            ).fetchone()
            # A club without series or programs is an older seed_scale's: made again.
            series, programs = connection.execute(
                "SELECT (SELECT count(*) FROM bookings_series), (SELECT count(*) FROM programs_program)"
            ).fetchone()
        except psycopg.errors.UndefinedTable:
            return False
    return bookings > 0 and overdue == 0 and series > 0 and programs > 0


def manage(database: str, *command: str) -> str:
    """`manage.py command` on `database`; answers what it printed."""
    result = subprocess.run(
        [PYTHON, "manage.py", *command],
        cwd=ROOT,
        env=app_environment(database),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"`manage.py {' '.join(command)}` failed:\n{result.stdout}{result.stderr}")
    return result.stdout.strip()


def make_database(database: str, seed_arguments: list[str]) -> str:
    """Made afresh, migrated and seeded; answers seed_scale's report."""
    import psycopg

    with psycopg.connect(database_url("postgres"), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {database}")
    manage(database, "migrate", "--skip-checks", "-v0")
    manage(database, "createcachetable")
    report = manage(database, "seed_scale", *seed_arguments)
    # What autovacuum does to a database in service (after inserts too): its pages marked all-visible,
    # so that a count can be answered from an index alone. This server runs without autovacuum.
    with psycopg.connect(database_url(database), autocommit=True) as connection:
        connection.execute("VACUUM")
    return report


def club_facts(database: str) -> dict:
    """The callers' e-mails, a court, a day and a booking to ask about, and the database's size."""
    import psycopg

    with psycopg.connect(database_url(database)) as connection:

        def one(sql: str, *args):
            return connection.execute(sql, args).fetchone()

        def busiest(role: str, *, with_open: bool = False) -> str:
            """The person of `role` with the most bookings (of those with an approved one and a
            pending one: every list of theirs has rows, whichever the size)."""
            return one(
                "SELECT u.email FROM accounts_user u JOIN bookings_booking b ON b.user_id = u.id"
                " WHERE u.role = %s GROUP BY u.id HAVING %s"
                " OR (bool_or(b.status = 'approved') AND bool_or(b.status = 'pending'))"
                " ORDER BY count(*) DESC, u.id LIMIT 1",
                role,
                not with_open,
            )[0]

        facts = {
            "admin": one(
                "SELECT email FROM accounts_user WHERE role = 'admin' ORDER BY created_at, id LIMIT 1"
            )[0],
            "member": busiest("member"),
            "user": busiest("user", with_open=True),
            "court": one("SELECT id FROM courts_court WHERE NOT is_archived ORDER BY id LIMIT 1")[0],
            "day": str(one("SELECT current_date")[0] + timedelta(days=2)),
        }
        approved = one(
            "SELECT b.id FROM bookings_booking b JOIN accounts_user u ON u.id = b.user_id"
            " WHERE u.email = %s AND b.status = 'approved' ORDER BY b.id LIMIT 1",
            facts["user"],
        )
        facts["booking"] = approved[0] if approved else None
        # The program with the most registrations, and the longest series (its first date).
        facts["program"] = one(
            "SELECT program_id FROM programs_registration GROUP BY program_id ORDER BY count(*) DESC,"
            " program_id LIMIT 1"
        )[0]
        facts["series"], facts["series_date"] = one(
            "SELECT series_id, min(id) FROM bookings_booking WHERE series_id IS NOT NULL"
            " GROUP BY series_id ORDER BY count(*) DESC, series_id LIMIT 1"
        )
        latest = one(
            "SELECT p.id FROM payments_payment p JOIN accounts_user u ON u.id = p.user_id"
            " WHERE u.email = %s AND p.status = 'succeeded' ORDER BY p.created_at DESC, p.id DESC LIMIT 1",
            facts["member"],
        )
        facts["payment"] = latest[0] if latest else None
        # The day sheet's size: its open courts, and its cells held by bookings and by blocks.
        facts["sheet"] = one(
            "SELECT (SELECT count(*) FROM courts_court WHERE NOT is_archived),"
            " count(*) FILTER (WHERE booking_id IS NOT NULL), count(*) FILTER (WHERE block_id IS NOT NULL)"
            " FROM bookings_bookedslot WHERE date = %s",
            facts["day"],
        )
        facts["counts"] = {
            "bookings": one("SELECT count(*) FROM bookings_booking")[0],
            "held slots": one("SELECT count(*) FROM bookings_bookedslot")[0],
            "payments": one("SELECT count(*) FROM payments_payment")[0],
            "membership payments": one(
                "SELECT count(*) FROM payments_payment WHERE membership_id IS NOT NULL"
            )[0],
            "memberships": one("SELECT count(*) FROM memberships_membership")[0],
            "series": one("SELECT count(*) FROM bookings_series")[0],
            "series dates": one("SELECT count(*) FROM bookings_booking WHERE series_id IS NOT NULL")[0],
            "programs": one("SELECT count(*) FROM programs_program")[0],
            "registrations": one("SELECT count(*) FROM programs_registration")[0],
            "people": one("SELECT count(*) FROM accounts_user")[0],
            "member's bookings": one(
                "SELECT count(*) FROM bookings_booking b JOIN accounts_user u ON u.id = b.user_id"
                " WHERE u.email = %s",
                facts["member"],
            )[0],
        }
    return facts


# --- HTTP ----------------------------------------------------------------------------------
class Caller:
    """One browser: its cookies, and plain HTTP/1.1 to the site."""

    def __init__(self, port: int, role: str):
        self.port = port
        self.role = role
        self.cookies: dict[str, str] = {}

    def headers(self, accept: str) -> dict[str, str]:
        headers = {"Accept": accept, "Accept-Encoding": "gzip, br"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return headers

    def request(self, method: str, path: str, body: dict | None = None, *, accept: str = "text/html"):
        headers = self.headers(accept)
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers |= {"Content-Type": "application/json", "X-CSRFToken": self.cookies.get("csrftoken", "")}
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                cookie, _, attributes = value.partition(";")
                name, _, content_value = cookie.strip().partition("=")
                if "max-age=0" not in attributes.lower():
                    self.cookies[name] = content_value
        return response, content


def sign_in(caller: Caller, email: str) -> None:
    """As the /login island does: the emulator's ID token for the e-mail, then POST /api/session.
    The emulator's account is made (verified) for the seeded e-mail if it has none yet."""
    # Imported, testing.emulator points the environment at a test process's own stand-ins
    # (testing/environment.py): the bench's are the local stack's, which it keeps.
    stack = dict(os.environ)
    from testing import emulator

    os.environ.clear()
    os.environ.update(stack)
    try:
        token = emulator.sign_in(email, PASSWORD)["idToken"]
    except urllib.error.HTTPError:
        token = emulator.sign_up(email, PASSWORD, verified=True)["idToken"]
    caller.request("GET", "/login")
    response, content = caller.request("POST", "/api/session", {"idToken": token}, accept="application/json")
    if response.status != 200:
        sys.exit(f"Sign-in of {email} failed ({response.status}): {content[:300]!r}")


def measure(callers: dict[str, Caller], paths: dict[str, str], kind: str, args) -> dict[str, Row]:
    """The same call on each size's site, taking turns, so that both see the same machine."""
    accept = "text/html" if kind in BUDGET_PAGE_BYTES else "application/json"
    for size, caller in callers.items():
        caller.request("GET", paths[size], accept=accept)  # warm-up: the worker, PostgreSQL's pages
    server_ms = {size: [] for size in callers}
    queries = {size: [] for size in callers}
    last = {}
    started = time.monotonic()
    done = 0
    while done < args.requests and (done < 3 or time.monotonic() - started < args.row_seconds):
        for size, caller in callers.items():
            response, content = caller.request("GET", paths[size], accept=accept)
            timing = SERVER_TIMING.search(response.getheader("Server-Timing") or "")
            if not timing:
                sys.exit(f"No Server-Timing header on {paths[size]}: is LOCAL_MODE on?")
            queries[size].append(int(timing[1]))
            server_ms[size].append(float(timing[2]) + float(timing[3]))
            last[size] = (response, content)
        done += 1
    return {
        size: Row(
            callers[size].role,
            paths[size],
            kind,
            last[size][0].status,
            last[size][0].getheader("Content-Encoding") or "",
            len(last[size][1]),
            server_ms[size],
            queries[size],
        )
        for size in callers
    }


@dataclass
class Export:
    """The ledger's CSV as an admin downloads it: its rows and bytes (as sent), when its first
    byte came and when its last, and the worker's peak memory before and after."""

    rows: int
    body_bytes: int
    encoding: str
    first_byte_s: float
    seconds: float
    peak_before_mib: float
    peak_after_mib: float

    def verdict(self) -> str:
        grew = self.peak_after_mib - self.peak_before_mib
        return "OK" if self.seconds <= BUDGET_CSV_SECONDS and grew <= BUDGET_CSV_GROWTH_MIB else "OVER"


def peak_memory_mib(server: subprocess.Popen) -> float:
    """The high-water mark of the resident memory of the server's one gunicorn worker (Linux)."""
    master = server.pid
    worker = Path(f"/proc/{master}/task/{master}/children").read_text().split()[0]
    status = Path(f"/proc/{worker}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) / 1024


def export_csv(caller: Caller, server: subprocess.Popen) -> Export:
    """Downloads the CSV of every payment, reading it as it streams in."""
    before = peak_memory_mib(server)
    connection = http.client.HTTPConnection("127.0.0.1", caller.port, timeout=600)
    started = time.monotonic()
    try:
        connection.request("GET", CSV_PATH, headers=caller.headers("text/csv") | {"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        if response.status != 200:
            sys.exit(f"{CSV_PATH} answered {response.status}")
        encoding = response.getheader("Content-Encoding") or ""
        unzip = zlib.decompressobj(16 + zlib.MAX_WBITS)
        first_byte, sent, lines = None, 0, 0
        while chunk := response.read1(64 * 1024):
            first_byte = first_byte or time.monotonic() - started
            sent += len(chunk)
            lines += (unzip.decompress(chunk) if encoding == "gzip" else chunk).count(b"\n")
    finally:
        connection.close()
    seconds = time.monotonic() - started
    return Export(lines - 1, sent, encoding, first_byte or seconds, seconds, before, peak_memory_mib(server))


def run(
    sizes: list[str], facts: dict[str, dict], args, routes: list = ROUTES, export: bool = True
) -> tuple[dict[str, list[Row]], dict[str, Export]]:
    """One gunicorn worker per size, side by side; every route of every role on each, then (with
    `export`) the ledger's CSV of each size in turn."""
    servers, ports = [], {}
    rows: dict[str, list[Row]] = {size: [] for size in sizes}
    exports: dict[str, Export] = {}
    try:
        for size in sizes:
            ports[size] = local_stack.free_port()
            command = [GUNICORN, "club.wsgi", "--bind", f"127.0.0.1:{ports[size]}"]
            command += ["--workers", "1", "--timeout", "900"]
            ready = f"http://127.0.0.1:{ports[size]}/healthz"
            environment = app_environment(scale_database(size))
            servers.append(local_stack.start(f"scale-{size}", command, ready, cwd=ROOT, env=environment))
        for role in ROLES:
            callers = {}
            for size in sizes:
                callers[size] = Caller(ports[size], role)
                if role != "anonymous":
                    sign_in(callers[size], facts[size][role])
            for template, kind, roles in routes:
                if role not in roles:
                    continue
                paths = {
                    size: template.format(**facts[size])
                    for size in sizes
                    if all(facts[size][name] for name in ("booking", "payment") if f"{{{name}}}" in template)
                }
                if not paths:
                    continue
                for size, row in measure({size: callers[size] for size in paths}, paths, kind, args).items():
                    rows[size].append(row)
                    print(
                        f"  {size:>5} {role:<9} {row.path:<46} {row.status} p95 {row.p95:7.1f} ms",
                        file=sys.stderr,
                    )
            if role == "admin" and export:
                for size, server in zip(sizes, servers, strict=True):
                    exports[size] = export_csv(callers[size], server)
    finally:
        for server in servers:
            local_stack.stop(server)
    return rows, exports


# --- Report --------------------------------------------------------------------------------
def kib(size: int) -> str:
    return f"{size / 1024:.1f}"


def print_size(size: str, facts: dict, rows: list[Row]) -> None:
    counts = ", ".join(f"{name}: {value:,}" for name, value in facts["counts"].items())
    print(f"\n## {size}: {counts}")
    print(f"admin {facts['admin']}, member {facts['member']}, user {facts['user']}\n")
    print("| role | path | status | KiB (enc) | p50 ms | p95 ms | queries | n | budget | |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row.role} | {row.path} | {row.status} | {kib(row.body_bytes)} ({row.encoding or 'none'}) |"
            f" {row.p50:.1f} | {row.p95:.1f} | {row.query_label} | {len(row.server_ms)} | {row.budget} |"
            f" {row.verdict()} |"
        )


def print_sheet(size: str, facts: dict, rows: list[Row]) -> None:
    """The day sheet's figures against its own budget, per role: the page and the API."""
    courts, booked, blocked = facts["sheet"]
    print(
        f"\n### {size}: the day sheet of {facts['day']}, {courts} courts"
        f" ({booked} cells booked, {blocked} blocked)\n"
    )
    print("| role | path | KiB (enc) | p50 ms | p95 ms | queries | budget | |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        if "schedule" in row.path:
            size_sent = f"{kib(row.body_bytes)} ({row.encoding or 'none'})"
            print(
                f"| {row.role} | {row.path.split('?')[0]} | {size_sent} | {row.p50:.1f} | {row.p95:.1f} |"
                f" {row.query_label} | {row.budget} | {row.verdict()} |"
            )


def print_export(size: str, export: Export) -> None:
    budget = f"≤ {BUDGET_CSV_SECONDS} s, the worker's peak memory +{BUDGET_CSV_GROWTH_MIB} MiB at most"
    print(f"\n### {size}: the ledger's CSV of every payment, {CSV_PATH} (budget: {budget})\n")
    print("| rows | MiB (enc) | first byte s | s | worker's peak MiB | |")
    print("|---|---|---|---|---|---|")
    peak = f"{export.peak_before_mib:.0f} → {export.peak_after_mib:.0f}"
    print(
        f"| {export.rows:,} | {export.body_bytes / 2**20:.1f} ({export.encoding or 'none'}) |"
        f" {export.first_byte_s:.2f} | {export.seconds:.2f} | {peak} | {export.verdict()} |"
    )


def grown(small: float, large: float, slack: float = 0.0) -> bool:
    return large <= small * (1 + GROWTH) + slack


def print_growth(small_size: str, large_size: str, small: list[Row], large: list[Row]) -> None:
    budget = f"bytes and median server time +{GROWTH:.0%} at most, +256 bytes and +1 ms of slack"
    print(f"\n## Growth {small_size} → {large_size} (budget: {budget}; queries no more)\n")
    print("| role | path | KiB | x | median ms | x | p95 ms | queries | |")
    print("|---|---|---|---|---|---|---|---|---|")

    def route(row: Row) -> tuple[str, str]:  # the sizes' ids differ (a booking to pay for)
        return row.role, re.sub(r"\d+", "#", row.path)

    before = {route(row): row for row in small}
    for row in large:
        old = before.get(route(row))
        if old is None:
            continue
        ok = (
            grown(old.body_bytes, row.body_bytes, GROWTH_SLACK_BYTES)
            and (row.kind in PERIOD_SUMS or grown(old.p50, row.p50, GROWTH_SLACK_MS))
            and max(row.queries) <= max(old.queries)
        )
        print(
            f"| {row.role} | {row.path} | {kib(old.body_bytes)} → {kib(row.body_bytes)} |"
            f" {row.body_bytes / max(old.body_bytes, 1):.2f} | {old.p50:.1f} → {row.p50:.1f} |"
            f" {row.p50 / max(old.p50, 0.1):.2f} | {old.p95:.1f} → {row.p95:.1f} |"
            f" {old.query_label} → {row.query_label} | {'OK' if ok else 'OVER'} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep a database seeded before, if none of its bookings is overdue",
    )
    parser.add_argument("--requests", type=int, default=20, help="measured requests per row (default 20)")
    parser.add_argument(
        "--row-seconds", type=float, default=15, help="stop a row's requests after this long (3 at least)"
    )
    parser.add_argument("--sizes", default="11k,112k", help="which sizes, of 11k and 112k (default both)")
    parser.add_argument(
        "--sheet-courts", type=int, default=332, help="the wide day sheet's courts (default 332; 0: none)"
    )
    args = parser.parse_args()
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        sys.exit("Run it inside the local stack: scripts/local_stack.py -- .venv/bin/python bench/scale.py")
    if not (ROOT / "staticfiles" / "staticfiles.json").exists():
        sys.exit("The production build is missing: run `make build` first.")
    sizes = [size.strip() for size in args.sizes.split(",")]
    if unknown := set(sizes) - set(SIZES):
        sys.exit(f"Unknown sizes {sorted(unknown)}: choose among {sorted(SIZES)}.")

    # The emulator helpers read the project's settings (its project id).
    os.environ.update(app_environment(scale_database(sizes[0])))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    import django

    django.setup()

    print(f"# Scale: every page and list per role ({os.cpu_count()} CPUs, one gunicorn worker)")
    seeds = {size: SIZES[size] for size in sizes}
    wide = f"{args.sheet_courts}courts" if args.sheet_courts else None
    if wide:
        seeds[wide] = ["--courts", str(args.sheet_courts), *WIDE_SHEET_DAYS]
    facts = {}
    for size, seed_arguments in seeds.items():
        database = scale_database(size)
        if args.reuse and seeded(database):
            manage(database, "migrate", "--skip-checks", "-v0")  # the code may have moved on since
            print(f"\n{database}: reused, migrated")
        else:
            started = time.monotonic()
            report = make_database(database, seed_arguments)
            print(f"\n{database}: made in {time.monotonic() - started:.0f} s (migrate and seed_scale)")
            print("  seed_scale: " + report.splitlines()[0])
        facts[size] = club_facts(database)
    started = time.monotonic()
    rows, exports = run(sizes, facts, args)
    if wide:
        rows |= run([wide], facts, args, routes=WIDE_SHEET_ROUTES, export=False)[0]
    print(f"\nMeasured in {time.monotonic() - started:.0f} s.")
    for size in sizes:
        print_size(size, facts[size], rows[size])
        print_sheet(size, facts[size], rows[size])
        print_export(size, exports[size])
    if len(sizes) == 2:
        print_growth(sizes[0], sizes[1], rows[sizes[0]], rows[sizes[1]])
    if wide:
        print_sheet(wide, facts[wide], rows[wide])


if __name__ == "__main__":
    main()
