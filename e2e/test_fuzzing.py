"""schemathesis against the live site, from its OpenAPI schema, once for each kind of caller
(signed in with real emulator tokens): no server error, no answer that breaks the schema.

A server error only shows when a request gets past the serializers and the lookups to a service.
So the run sends positive data (what the schema allows, which the schema states closely enough for
the validators to accept: a court's image is a site path or an http(s) URL, say) as well as negative
data, names real rows in paths and ids half of the time (random ids are all 404s), and lifts the
rate limits (their 429s would stop most booking and payment requests).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.throttling import ScopedRateThrottle

from accounts.models import User
from bookings.models import Booking
from bookings.tests.factories import make_booking
from content.models import Announcement
from courts.tests.factories import CourtFactory
from memberships.services import plan_create
from payments.models import Coupon

CALLERS = {"anonymous": None, "user": User.Role.USER, "member": User.Role.MEMBER, "admin": User.Role.ADMIN}
# The coverage phase walks every parameter's boundaries and wrong types: input checks, the same
# code whoever calls. It runs for the caller who reaches every operation (admin) and for the
# public ones (anonymous); the user and the member, who differ in what they may reach, get the
# examples and the fuzzing.
COVERAGE_CALLERS = {"anonymous", "admin"}


def real_rows(caller: User | None) -> dict[str, list]:
    """Rows for the operations to name, by the parameter that names them: the caller's own bookings
    (pending and approved) and someone else's, courts, a coupon, a plan, an announcement, a member."""
    someone = User.objects.create_user("someone@example.com", role=User.Role.MEMBER)
    courts = CourtFactory.create_batch(2)
    bookings = [make_booking(user=someone, court=courts[0])]
    if caller:
        bookings += [
            make_booking(user=caller, court=courts[1], slots=["08:00-09:00"]),
            make_booking(user=caller, court=courts[1], slots=["09:00-10:00"], status=Booking.Status.APPROVED),
        ]
    booking_ids = [booking.pk for booking in bookings]
    return {
        "path.court_id": [court.pk for court in courts],
        "body.courtId": [court.pk for court in courts],
        "path.booking_id": booking_ids,
        "body.bookingId": booking_ids,
        "path.coupon_id": [Coupon.objects.create(code="SPRING", discount=10).pk],
        "path.plan_id": [plan_create(name="Club", price=30, period="monthly").pk],
        "path.announcement_id": [Announcement.objects.create(text="Courts close early today.").pk],
        "path.member_id": [someone.pk],
        "path.email": [someone.email] + ([caller.email] if caller else []),
    }


def config(rows: dict[str, list]) -> str:
    """schemathesis.toml: each parameter takes one of the real values half of the time."""
    lines = []
    for number, values in enumerate(rows.values()):
        lines += [f"[dictionaries.rows{number}]", f"values = {json.dumps(values)}"]
    lines.append("[parameters]")
    for number, parameter in enumerate(rows):
        lines.append(f'"{parameter}" = {{ dictionary = "rows{number}", probability = 0.5 }}')
    return "\n".join(lines)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("caller", CALLERS)
def test_the_api_holds_up_to_fuzzing(live_site, emulator, localstripe, caller, monkeypatch, tmp_path):
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", dict.fromkeys(ScopedRateThrottle.THROTTLE_RATES, "100000/min")
    )
    headers = []
    user = None
    if role := CALLERS[caller]:
        account = emulator.sign_up(f"{caller}@example.com")
        user = User.objects.create_user(f"{caller}@example.com", role=role, firebase_uid=account["localId"])
        headers = ["--header", f"Authorization: Bearer {account['idToken']}"]
    settings_file = tmp_path / "schemathesis.toml"
    settings_file.write_text(config(real_rows(user)))
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file",
        str(settings_file),
        "run",
        f"{live_site}/api/schema/",
        "--url",
        live_site,
        "--checks",
        "not_a_server_error,response_schema_conformance",
        # Negative data (what the schema forbids) and positive data (what it allows).
        "--mode",
        "all",
        "--max-examples",
        "15",
        "--generation-deterministic",
        "--phases",
        "examples,coverage,fuzzing" if caller in COVERAGE_CALLERS else "examples,fuzzing",
        # Stripe's webhook answers only signed events; the session endpoint only fresh ID tokens.
        "--exclude-path",
        "/api/stripe/webhook",
        "--exclude-path",
        "/api/session",
        *headers,
    ]

    result = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)  # noqa: S603

    assert result.returncode == 0, result.stdout[-6000:]
