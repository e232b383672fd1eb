"""The people of bench/load.py, for Locust: `bench/load.py` starts the site and runs this file
headless, one scenario at a time, and reads Locust's CSV statistics. Run alone, it needs what
load.py hands it in the environment:

    BENCH_PORTS   the site's instances, "8001,8002,8003": each person's next request goes to the
                  next one, as behind a load balancer (the session cookie is the same on each)
    BENCH_DATA    a JSON file: {"courts": [ids], "race_court": id, "accounts": {"person": [...],
                  "racer": [...], "admin": [...]}} (emulator accounts with their ID tokens)
    BENCH_OUTCOME where the race writes its outcome (JSON)

Scenarios (user classes): `Person` and `Admin` (the mix), `Race` (one conductor of the racers and
the two admins).

Every answer outside 2xx/3xx is a Locust failure named "HTTP <status>", so the failures CSV counts
the statuses per endpoint; 409 is the site refusing what the state no longer allows (a slot taken,
a decision made), not an error of the site.
"""

import itertools
import json
import os
import random
import sys
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import gevent
from locust import HttpUser, constant, task
from locust.clients import HttpSession
from locust.exception import StopUser

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PORTS = [int(port) for port in os.environ.get("BENCH_PORTS", "8000").split(",")]
DATA = json.loads(Path(os.environ["BENCH_DATA"]).read_text()) if os.environ.get("BENCH_DATA") else {}
SLOTS = [f"{hour:02d}:00-{hour + 1:02d}:00" for hour in range(7, 21)]
_accounts = {kind: iter(DATA.get("accounts", {}).get(kind, [])) for kind in ("person", "racer", "admin")}


class Browser:
    """One person's browser: its cookies (session, CSRF token) and the instance to ask next."""

    def __init__(self, session: HttpSession):
        self.session = session
        self.ports = itertools.cycle(random.sample(PORTS, len(PORTS)))

    def call(self, name: str, method: str, path: str, body=None):
        headers = {"Accept": "application/json"}
        if method != "GET":
            headers["X-CSRFToken"] = self.session.cookies.get("csrftoken", "")
        url = f"http://127.0.0.1:{next(self.ports)}{path}"
        with self.session.request(
            method, url, name=name, json=body, headers=headers, catch_response=True
        ) as response:
            if response.status_code == 0:
                response.failure("no answer")
            elif response.status_code >= 400:
                response.failure(f"HTTP {response.status_code}")
            else:
                response.success()
            return response

    def sign_in(self, account: dict) -> None:
        self.call("GET /login (CSRF cookie)", "GET", "/login")
        answer = self.call("POST /api/session", "POST", "/api/session", {"idToken": account["idToken"]})
        if answer.status_code != 200:
            raise RuntimeError(f"Sign-in failed ({answer.status_code}): {answer.text[:300]}")


def stripe_pay(client_secret: str) -> None:
    """The card at localstripe, as Stripe.js would (testing.stripe_stand_in, with the site's
    settings: LOCAL_MODE and STRIPE_API_BASE come from the environment)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    django.setup()
    from testing import stripe_stand_in

    stripe_stand_in.pay(client_secret)


def some_day() -> str:
    return str(date.today() + timedelta(days=random.randint(1, 14)))


# --- The mix -----------------------------------------------------------------------------------
class Person(HttpUser):
    """Lists the courts (the API, and now and then the page), checks a court's free slots on a
    day, asks for one or two of them half of the time, and now and then pays for an approved
    booking (PaymentIntent, the card at localstripe as Stripe.js would, then save-payment). A
    closed loop without pauses."""

    wait_time = constant(0)
    host = f"http://127.0.0.1:{PORTS[0]}"

    def on_start(self):
        self.browser = Browser(self.client)
        self.browser.sign_in(next(_accounts["person"]))

    @task
    def visit(self):
        call = self.browser.call
        call("GET /api/courts", "GET", "/api/courts")
        if random.random() < 0.1:
            call("GET /courts (page)", "GET", "/courts")
        court, day = random.choice(DATA["courts"]), some_day()
        free = call(
            "GET /api/courts/{id}/availability", "GET", f"/api/courts/{court}/availability?date={day}"
        )
        if free.status_code != 200:
            return
        open_slots = [slot for slot in SLOTS if slot not in free.json()["taken"]]
        if open_slots and random.random() < 0.5:
            start = random.randrange(len(open_slots))
            wanted = open_slots[start : start + random.choice([1, 2])]
            call(
                "POST /api/bookings",
                "POST",
                "/api/bookings",
                {"courtId": court, "date": day, "slots": wanted},
            )
        if random.random() < 0.2:
            approved = call("GET /api/bookings/approved", "GET", "/api/bookings/approved")
            if approved.status_code == 200 and (bookings := approved.json()):
                intent = call(
                    "POST /api/create-payment-intent",
                    "POST",
                    "/api/create-payment-intent",
                    {"bookingId": bookings[0]["id"]},
                )
                if intent.status_code == 200:
                    secret = intent.json()["clientSecret"]
                    stripe_pay(secret)  # Stripe.js's part
                    body = {"paymentIntentId": secret.split("_secret_")[0]}
                    call("POST /api/save-payment", "POST", "/api/save-payment", body)


class Admin(HttpUser):
    """Lists the pending requests and approves up to five, reading 0.2 s before each round."""

    fixed_count = 2
    wait_time = constant(0.2)
    host = f"http://127.0.0.1:{PORTS[0]}"

    def on_start(self):
        self.browser = Browser(self.client)
        self.browser.sign_in(next(_accounts["admin"]))

    @task
    def approve(self):
        pending = self.browser.call("GET /api/bookings/pending (admin)", "GET", "/api/bookings/pending")
        for booking in pending.json()[:5] if pending.status_code == 200 else []:
            path = f"/api/bookings/approve/{booking['id']}"
            self.browser.call("PATCH /api/bookings/approve/{id}", "PATCH", path)


# --- The race ----------------------------------------------------------------------------------
RACE = "POST /api/bookings (race)"


class Race(HttpUser):
    """Conducts the race: for each of BENCH_ROUNDS slots, every racer (a browser of its own, signed
    in) asks for it at the same moment through the three instances, half of them together with the
    slot before it, half with the slot after; then both admins approve the winner's booking at the
    same moment. Writes the outcome to BENCH_OUTCOME and stops the run."""

    fixed_count = 1
    wait_time = constant(0)
    host = f"http://127.0.0.1:{PORTS[0]}"

    def browser(self) -> Browser:
        return Browser(HttpSession(self.host, self.environment.events.request, self))

    def on_start(self):
        self.racers = [self.browser() for _ in DATA["accounts"]["racer"]]
        self.admins = [self.browser() for _ in DATA["accounts"]["admin"]]
        for browser, account in zip(
            [*self.racers, *self.admins],
            [*DATA["accounts"]["racer"], *DATA["accounts"]["admin"]],
            strict=True,
        ):
            browser.sign_in(account)
        self.environment.stats.reset_all()  # the race's figures, without the sign-ins

    @task
    def race(self):
        outcome = Counter()
        per_day = len(SLOTS) // 3
        for n in range(int(os.environ.get("BENCH_ROUNDS", "20"))):
            # Three fresh slots a round, the middle one asked for by everyone: exactly one can win.
            day = str(date.today() + timedelta(days=1 + n // per_day))  # a court of its own: any day
            middle = 1 + 3 * (n % per_day)
            asks = [
                [SLOTS[middle - 1], SLOTS[middle]] if index % 2 else [SLOTS[middle], SLOTS[middle + 1]]
                for index in range(len(self.racers))
            ]
            body = {"courtId": DATA["race_court"], "date": day}
            answers = gevent.joinall(
                [
                    gevent.spawn(
                        racer.call,
                        "POST /api/bookings (race)",
                        "POST",
                        "/api/bookings",
                        body | {"slots": slots},
                    )
                    for racer, slots in zip(self.racers, asks, strict=True)
                ]
            )
            winners = [job.value.json()["id"] for job in answers if job.value.status_code == 201]
            outcome[
                "rounds with exactly one winner" if len(winners) == 1 else "rounds with another count"
            ] += 1
            for booking in winners:
                path = f"/api/bookings/approve/{booking}"
                decisions = gevent.joinall(
                    [gevent.spawn(staff.call, "PATCH approve (race)", "PATCH", path) for staff in self.admins]
                )
                statuses = sorted(job.value.status_code for job in decisions)
                outcome[
                    "approvals won once, refused once" if statuses == [200, 409] else f"approvals {statuses}"
                ] += 1
        Path(os.environ["BENCH_OUTCOME"]).write_text(json.dumps(outcome))
        gevent.spawn_later(0.1, self.environment.runner.quit)
        raise StopUser()
