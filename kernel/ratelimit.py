"""Rate limits for the pages' forms, with the same counters as the API's (DRF's scoped throttles,
kept in the shared cache; rates in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])."""

import math
from collections.abc import Callable
from functools import wraps
from types import SimpleNamespace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.exceptions import Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

type View = Callable[..., HttpResponse]


def limit_posts(scope: str) -> Callable[[View], View]:
    """Lets a caller POST to the view `scope`'s number of times per period; past that, a 429 page
    that says when to try again (and a Retry-After header)."""

    def decorator(view: View) -> View:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                throttle = ScopedRateThrottle()
                # The throttle reads only the view's scope and the request's address and user.
                scoped = SimpleNamespace(throttle_scope=scope)
                if not throttle.allow_request(request, scoped):  # type: ignore[arg-type]
                    wait = math.ceil(throttle.wait() or 1)
                    response = render(request, "errors/429.html", {"wait": wait}, status=429)
                    response["Retry-After"] = str(wait)
                    return response
            return view(request, *args, **kwargs)

        return limited

    return decorator


class WritesThrottle(ScopedRateThrottle):
    """The view's `throttle_scope` rate over its writes only: reading a list is not counted."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or super().allow_request(request, view)


class _KeyedThrottle(SimpleRateThrottle):
    """A scope's rate, counted for a key the view names rather than for the caller."""

    def __init__(self, scope: str, key: str):
        self.scope, self.key = scope, key
        super().__init__()

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.key}


def limit_per_key(request: Request, view: APIView, *, scope: str, key: str) -> None:
    """Counts this request against `scope`'s rate for `key` (an account, say), whoever sends it;
    past it, DRF's Throttled (a 429 with Retry-After)."""
    throttle = _KeyedThrottle(scope, key)
    if not throttle.allow_request(request, view):
        raise Throttled(throttle.wait())
