"""The test environment, set before pytest-django reads the settings (pyproject: `-p`).

Tests run in local mode against PostgreSQL, the only production database; DATABASE_URL may point
elsewhere, but never at SQLite (the check in conftest.py says so).
"""

import os
import tempfile

os.environ.setdefault("LOCAL_MODE", "true")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club")
# Playwright's sync API runs an event loop in the test thread; the ORM calls that the browser
# tests make there (creating rows to look at) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# This test process: a pytest-xdist worker ("gw0", "gw1", ...), or the only one.
PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
# The stand-ins of the outside services and the tests' mailbox (testing/mail.py) are each test
# process's own, on ports of its own: set here, never inherited (pytest-xdist's workers start with the
# environment of the process that starts them). Those ports lie below the range the system hands
# out, where free_port() finds ports for the servers that tests start. The emulator and localstripe
# are started when a test first needs them (conftest.py).
_number = int(PROCESS.removeprefix("gw"))
os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = f"127.0.0.1:{19099 + _number}"
os.environ["STRIPE_API_BASE"] = f"http://127.0.0.1:{18420 + _number}"
os.environ["EMAIL_URL"] = f"smtp://127.0.0.1:{11025 + _number}"
os.environ["MAIL_DIR"] = tempfile.mkdtemp(prefix="club-test-mail-")
# The rate limits' counters in memory: one test process; each test starts afresh (conftest.py).
os.environ.setdefault("CACHE_URL", "locmemcache://")
