"""Pages every app renders the same way."""

from typing import Any

from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def island_page(request: HttpRequest, *, heading: str, island: str, props: dict[str, Any]) -> HttpResponse:
    """A dashboard page that is one island (an admin table with its forms), given its props."""
    return render(
        request, "dashboard/island_page.html", {"heading": heading, "island": island, "island_props": props}
    )


DATABASE_UNAVAILABLE = (
    "The club's database is not answering, so nothing was changed. Please try again in a minute."
)


def service_unavailable(request: HttpRequest, *, heading: str, message: str) -> HttpResponse:
    """A 503 that says what is down: `{"detail": message}` for the API; for people, a page with the
    message, shown as a toast as well. The page needs neither the database nor the signed-in user,
    since either may be what is missing."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=503)
    context = {"heading": heading, "message": message, "messages": [Message(constants.ERROR, message)]}
    return render(request, "errors/503.html", context, status=503)
