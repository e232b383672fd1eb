"""The worker's own background work, run by the worker (`manage.py run_worker`)."""

from django.tasks import task

from .schedule import tasks_requeue_abandoned


@task
def requeue_abandoned() -> int:
    """Periodic (settings.PERIODIC_TASKS): the tasks whose worker is gone are queued again."""
    return tasks_requeue_abandoned()
