"""Rate limits for the pages' forms, with the same counters as the API's (DRF's scoped throttles,
kept in the shared cache; rates in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])."""

import math
from functools import wraps
from types import SimpleNamespace

from django.shortcuts import render
from rest_framework.throttling import ScopedRateThrottle


def limit_posts(scope: str):
    """Lets a caller POST to the view `scope`'s number of times per period; past that, a 429 page
    that says when to try again (and a Retry-After header)."""

    def decorator(view):
        @wraps(view)
        def limited(request, *args, **kwargs):
            if request.method == "POST":
                throttle = ScopedRateThrottle()
                if not throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
                    wait = math.ceil(throttle.wait() or 1)
                    response = render(request, "errors/429.html", {"wait": wait}, status=429)
                    response["Retry-After"] = str(wait)
                    return response
            return view(request, *args, **kwargs)

        return limited

    return decorator
