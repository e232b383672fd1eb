"""The test environment, set before pytest-django reads the settings (pyproject: `-p`).

Tests run in local mode against PostgreSQL, the only production database; DATABASE_URL may point
elsewhere, but never at SQLite (the check in conftest.py says so).
"""

import os
import tempfile

from scripts.local_stack import free_port

os.environ.setdefault("LOCAL_MODE", "true")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/club")
# Playwright's sync API runs an event loop in the test thread; the ORM calls that the browser
# tests make there (creating rows to look at) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# The Firebase Auth Emulator that `make test` starts (firebase/firebase.json).
os.environ.setdefault("FIREBASE_AUTH_EMULATOR_HOST", "127.0.0.1:9099")
# localstripe, which `make test` starts beside the emulator.
os.environ.setdefault("STRIPE_API_BASE", "http://127.0.0.1:8420")
# The site's mail goes to a mailbox of the tests' own (testing/mail.py), on a free port.
if "EMAIL_URL" not in os.environ:
    os.environ["EMAIL_URL"] = f"smtp://127.0.0.1:{free_port()}"
    os.environ["MAIL_DIR"] = tempfile.mkdtemp(prefix="club-test-mail-")
# The rate limits' counters in memory: one test process; each test starts afresh (conftest.py).
os.environ.setdefault("CACHE_URL", "locmemcache://")
