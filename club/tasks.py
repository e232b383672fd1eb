from django.tasks import task

from .schedule import tasks_requeue_abandoned


@task
def requeue_abandoned() -> int:
    return tasks_requeue_abandoned()
