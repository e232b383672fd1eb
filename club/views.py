from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.identity import provider_status as identity_status
from payments.gateway import provider_status as payments_status


@require_GET
@never_cache
def healthz(request):
    """Liveness and readiness for a load balancer: each part the site needs, and whether it answers.

    200 when every part answers, 503 when one does not; the body says which.
    """
    checks = {"database": _check_database(), "identity": identity_status(), "payments": payments_status()}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks}, status=200 if healthy else 503
    )


def _check_database() -> dict:
    check = {"provider": connection.vendor, "ok": True}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        check.update(ok=False, error=str(error).strip() or error.__class__.__name__)
    return check


def page_not_found(request, exception):
    return render(request, "errors/404.html", status=404)


def server_error(request):
    return render(request, "errors/500.html", status=500)
