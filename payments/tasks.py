"""The payments' background work, run by the worker (`manage.py run_worker`)."""

from django.tasks import task

from . import services  # services queue these tasks, so each module reaches the other at call time


@task
def send_refund(refund_id: int) -> str:
    return services.refund_send(refund_id=refund_id).status


@task
def send_stalled_refunds() -> int:
    return services.refunds_send_stalled()
