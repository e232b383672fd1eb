import ipaddress
import sys
from typing import Any, cast

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.db.models import Count, Min, Q
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django_tasks_db.models import DBTaskResult, get_date_max
from rest_framework.throttling import BaseThrottle

from accounts.identity import provider_status as identity_status
from kernel.pages import DATABASE_UNAVAILABLE, service_unavailable
from payments.gateway import provider_status as payments_status
from payments.selectors import failed_refunds, late_refunds


@require_GET
@never_cache
def healthz(request):
    """Liveness and readiness for a load balancer: 200 when every part the site needs answers, 503
    when one does not; the body says which. A failing part's error may name hosts and accounts, so
    only a caller on this machine or a signed-in admin reads it. The queue and the refunds are
    reported for monitoring but never make it 503: an instance whose workers lag still serves pages.
    """
    checks = {"database": _check_database(), **_provider_checks()}
    healthy = all(check["ok"] for check in checks.values())
    if checks["database"]["ok"]:
        checks |= {"queue": _check_queue(), "refunds": _check_refunds()}
    if not healthy and not _may_read_errors(request):
        checks = {part: {k: v for k, v in check.items() if k != "error"} for part, check in checks.items()}
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503
    )


def _provider_checks() -> dict[str, Any]:
    """The identity and payment providers' answers, asked at most once per HEALTHZ_CACHE_SECONDS
    in each process: the URL is public, and a probe each second must not call Firebase and Stripe."""
    # Made when missing, so never None.
    return cast(
        dict[str, Any],
        caches["healthz"].get_or_set(
            "providers",
            lambda: {"identity": identity_status(), "payments": payments_status()},
            settings.HEALTHZ_CACHE_SECONDS,
        ),
    )


def _may_read_errors(request) -> bool:
    # As the rate limits see it: behind NUM_PROXIES proxies (usually on this machine), the forwarded one.
    address = BaseThrottle().get_ident(request)
    try:
        local = ipaddress.ip_address(address).is_loopback
    except ValueError:
        local = False
    return local or (request.user.is_authenticated and request.user.is_admin)


def _check_database() -> dict:
    check = {"provider": connection.vendor, "ok": True}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        check.update(ok=False, error=str(error).strip() or error.__class__.__name__)
    return check


def _check_queue() -> dict:
    """Tasks due now and not yet taken by a worker: how many, and the oldest one's wait."""
    due = DBTaskResult.objects.ready()
    no_date = get_date_max()  # django-tasks-db's "run as soon as possible"
    waiting = due.aggregate(
        count=Count("pk"),
        queued=Min("enqueued_at", filter=Q(run_after=no_date)),
        deferred=Min("run_after", filter=~Q(run_after=no_date)),
    )
    since = min((moment for moment in (waiting["queued"], waiting["deferred"]) if moment), default=None)
    age = round((timezone.now() - since).total_seconds()) if since else 0
    return {
        "provider": "database",
        "ok": age <= settings.HEALTHZ_QUEUE_MAX_WAIT_SECONDS,
        "waiting": waiting["count"],
        "oldestWaitingSeconds": age,
    }


def _check_refunds() -> dict:
    """Refunds pending over REFUND_LATE_SECONDS, and those Stripe refused (waiting for an admin)."""
    late = late_refunds().count()
    return {"provider": "database", "ok": late == 0, "late": late, "failed": failed_refunds().count()}


def bad_request(request, exception):
    """A request Django will not read: a body over DATA_UPLOAD_MAX_MEMORY_SIZE (413), too many form
    fields or a Host the site does not serve (400)."""
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 1024 / 1024
        status, message = 413, f"The request is too large: the site accepts up to {limit:g} MB."
    else:
        status, message = 400, "The request could not be read."
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=status)
    return render(request, "errors/400.html", {"message": message}, status=status)


def server_error(request):
    """Where a lost database connection ends up, whether a view or a middleware hit it."""
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return service_unavailable(
            request, heading="We can't reach our records right now", message=DATABASE_UNAVAILABLE
        )
    return render(request, "errors/500.html", status=500)
