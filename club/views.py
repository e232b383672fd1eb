import sys

from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpResponse, JsonResponse
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


DATABASE_UNAVAILABLE = (
    "The club's database is not answering, so nothing was changed. Please try again in a minute."
)


def service_unavailable(request, *, heading: str, message: str) -> HttpResponse:
    """A 503 that says what is down: `{"detail": message}` for the API; for people, a page with the
    message, shown as a toast as well. The page needs neither the database nor the signed-in user,
    since either may be what is missing."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=503)
    context = {"heading": heading, "message": message, "messages": [Message(constants.ERROR, message)]}
    return render(request, "errors/503.html", context, status=503)


def server_error(request):
    """Django's last resort for an uncaught exception, so the place where a lost database
    connection ends up, whether a view or a middleware hit it."""
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return service_unavailable(
            request, heading="We can't reach our records right now", message=DATABASE_UNAVAILABLE
        )
    return render(request, "errors/500.html", status=500)
