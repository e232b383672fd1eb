"""The background worker as the tests run it: every task that is due, in this process and this
test's transaction, claimed and recorded as `manage.py run_worker` does (django-tasks-db's own
Worker.run_task), without the worker's loop, which would close the test's database connection."""

from django.db import transaction
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

_worker = Worker(
    queue_names=["*"],
    interval=0,
    batch=True,
    backend_name="default",
    startup_delay=False,
    max_tasks=None,
    worker_id="tests",
    excluded_queue_names=[],
)


def run_due_tasks() -> int:
    """Runs the due tasks, those they queue included, until none is due; answers how many ran."""
    ran = 0
    while True:
        with transaction.atomic():
            result = DBTaskResult.objects.ready().get_locked()
            if result is None:
                return ran
            result.claim(_worker.worker_id)
        _worker.run_task(result)
        ran += 1
