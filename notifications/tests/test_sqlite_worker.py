"""The embedded default: on a SQLite database (as `make run` has), two worker processes send each
message once too, SQLite's write lock standing in for PostgreSQL's row locks."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

# It starts the site's own processes (gunicorn, the worker, manage.py): the integration layer.
pytestmark = pytest.mark.integration

QUEUE_THIRTY = (
    "from accounts.models import User\n"
    "from notifications.services import notify\n"
    "for number in range(30):\n"
    "    person = User.objects.create_user(f'p{number}@example.com')\n"
    "    notify(event='announcement', recipient=person, about='announcement:1', subject='News',\n"
    "           template='announcement', context={'announcement': {'text': 'Hello'}})\n"
)


def test_two_workers_on_sqlite_send_each_message_once(mailbox, tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "EMAIL_URL": f"smtp://127.0.0.1:{mailbox.port}",
    }

    def manage(*args: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "manage.py", *args], env=env, cwd=settings.BASE_DIR)

    assert manage("migrate", "--verbosity", "0").wait(120) == 0
    assert manage("shell", "--verbosity", "0", "-c", QUEUE_THIRTY).wait(60) == 0
    workers = [manage("run_worker", "--batch", "--no-startup-delay", "--interval", "0") for _ in range(2)]
    for worker in workers:
        assert worker.wait(60) == 0

    assert sorted(mail.to for mail in mailbox.messages()) == sorted(
        f"p{number}@example.com" for number in range(30)
    )
