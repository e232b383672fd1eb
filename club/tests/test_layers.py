"""The tests come in two layers (conftest.py): those that need an outside service's stand-in (the
Firebase Auth Emulator, localstripe) or a browser are marked `integration`; the rest run on
PostgreSQL alone, with `pytest -m "not integration"`."""

import subprocess
import sys

import pytest
from django.conf import settings

# It runs pytest in processes of its own: the integration layer.
pytestmark = pytest.mark.integration


def collected(*args: str) -> list[str]:
    listing = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "--quiet", "-p", "no:cacheprovider", *args],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return [line for line in listing.stdout.splitlines() if "::" in line]


def test_the_fast_layer_leaves_out_the_tests_of_the_stand_ins_and_the_browser():
    modules = [
        "bookings/tests/test_sqlite.py",  # the site's processes on SQLite (marked in the module)
        "accounts/tests/test_session.py",  # most of it signs in through the emulator
        "payments/tests/test_reconciliation.py",  # pays at localstripe
        "e2e/test_roles.py",  # drives Chromium
    ]

    fast = collected("-m", "not integration", *modules)
    integration = collected("-m", "integration", *modules)

    assert fast == [
        "accounts/tests/test_session.py::test_without_credentials_the_api_answers_401_with_a_json_body"
    ]
    assert (
        "accounts/tests/test_session.py::test_the_session_cookie_signs_the_user_in_on_the_next_requests"
        in (integration)
    )
    assert {test.split("::")[0] for test in integration} == set(modules)
