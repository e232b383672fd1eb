"""The notifications' background work, run by the worker (`manage.py run_worker`)."""

from django.tasks import task

from . import services  # services queue these tasks, so each module reaches the other at call time


@task
def deliver(notification_id: int) -> str:
    return services.notification_deliver(notification_id=notification_id)


@task
def requeue_stalled() -> int:
    return services.notifications_requeue_stalled()
