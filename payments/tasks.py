"""The payments' background work, run by the worker (`manage.py run_worker`)."""

from django.tasks import task

from . import gateway, services  # services queue these tasks, so each module reaches the other at call time


@task
def send_refund(refund_id: int) -> str:
    """Makes a recorded refund; when Stripe does not make it, refund_send has recorded why and, for
    an outage, queued the next try: the task itself has done its part."""
    try:
        return services.refund_send(refund_id=refund_id).status
    except gateway.PaymentProviderUnavailable as error:
        return f"not made: {error}"


@task
def send_stalled_refunds() -> int:
    return services.refunds_send_stalled()


@task
def reconcile_payments() -> int:
    return services.payments_reconcile()
