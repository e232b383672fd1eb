"""The embedded default (`make run` keeps its data in SQLite): the rules that read the policy inside
a query hold there as on PostgreSQL, such as a request undecided past the decision window, and the
worker's periodic tasks run."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

# It starts the site's own processes (gunicorn, the worker, manage.py): the integration layer.
pytestmark = pytest.mark.integration

EXPIRE_AN_UNDECIDED_REQUEST = (
    "from datetime import timedelta\n"
    "from django.utils import timezone\n"
    "from bookings.models import Booking\n"
    "from bookings.selectors import open_bookings\n"
    "from bookings.services import bookings_expire\n"
    "from bookings.tests.factories import make_booking\n"
    "booking = make_booking()\n"
    "print('open before:', open_bookings(user=booking.user).count())\n"
    "Booking.objects.filter(pk=booking.pk).update(created_at=timezone.now() - timedelta(days=3))\n"
    "print('open after the window:', open_bookings(user=booking.user).count())\n"
    "print('expired:', bookings_expire(), Booking.objects.get(pk=booking.pk).status)\n"
)
# Each periodic task of the worker, run once.
RUN_THE_PERIODIC_TASKS = (
    "from django.conf import settings\n"
    "from django.utils.module_loading import import_string\n"
    "for path in settings.PERIODIC_TASKS:\n"
    "    import_string(path).func()\n"
    "    print('ran', path)\n"
)


def test_on_sqlite_an_undecided_request_expires_and_the_periodic_tasks_run(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}"}

    def manage(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args, "--verbosity", "0"],
            env=env,
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert manage("migrate").returncode == 0
    result = manage("shell", "-c", EXPIRE_AN_UNDECIDED_REQUEST)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["open before: 1", "open after the window: 0", "expired: 1 expired"]
    periodic = manage("shell", "-c", RUN_THE_PERIODIC_TASKS)
    assert periodic.returncode == 0, periodic.stderr
    assert periodic.stdout.splitlines() == [f"ran {path}" for path in settings.PERIODIC_TASKS]
