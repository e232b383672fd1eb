"""The database stops under a running worker (`manage.py run_worker`, as in production): the worker
waits, says so in its log, and takes the queue again once the database is back, without a restart.

The worker reaches the test database through a relay that the test cuts (testing/outage.py):
what a worker sees when PostgreSQL stops. It retries after WORKER_DATABASE_RETRY_SECONDS, short
here so that the test does not wait the production default.
"""

import os
import signal
import sys
import time

import pytest
from django.db import connection
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from notifications.services import requeue_stalled
from scripts import local_stack
from testing import outage

# It starts the site's own processes (gunicorn, the worker, manage.py): the integration layer.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.integration]


class Worker:
    """`manage.py run_worker` in a process of its own, on the database through `relay`."""

    def __init__(self, database: dict, relay: outage.Relay):
        env = {
            **os.environ,
            "LOCAL_MODE": "true",
            "DATABASE_URL": f"postgres://{database['USER']}@127.0.0.1:{relay.port}/{database['NAME']}",
            "WORKER_DATABASE_RETRY_SECONDS": "0.5",
        }
        command = [sys.executable, "manage.py", "run_worker", "--no-startup-delay", "--interval", "0.2"]
        self.log = local_stack.LOGS / "worker-outage.log"
        self.process = local_stack.start(
            "worker-outage", command, lambda: True, cwd=local_stack.ROOT, env=env
        )

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


@pytest.fixture
def relay():
    database = connection.settings_dict
    relay = outage.Relay((database["HOST"] or "127.0.0.1", int(database["PORT"] or 5432)))
    relay.start()
    yield relay
    relay.stop()


@pytest.fixture
def worker(relay):
    worker = Worker(dict(connection.settings_dict), relay)
    yield worker
    local_stack.stop(worker.process)


def runs(timeout: float = 20) -> str:
    """Queues a task and answers its status once the worker has run it (or once `timeout` is up)."""
    result = requeue_stalled.enqueue()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = DBTaskResult.objects.get(pk=result.id).status
        if status not in (TaskResultStatus.READY, TaskResultStatus.RUNNING):
            return status
        time.sleep(0.2)
    return DBTaskResult.objects.get(pk=result.id).status


def test_a_worker_waits_out_a_database_outage_and_carries_on(relay, worker):
    assert runs() == TaskResultStatus.SUCCESSFUL

    relay.stop()
    time.sleep(4)  # several retries, each of which finds no database
    assert worker.alive, worker.log.read_text()[-2000:]
    assert "The database is not answering" in worker.log.read_text()

    relay.start()
    assert runs() == TaskResultStatus.SUCCESSFUL
    assert worker.alive


def test_sigterm_ends_a_worker_that_waits_for_the_database_cleanly(relay, worker):
    relay.stop()
    deadline = time.monotonic() + 20
    while "The database is not answering" not in worker.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)

    worker.process.send_signal(signal.SIGTERM)

    assert worker.process.wait(10) == 0  # as systemd stops it: a clean stop, not a failure
