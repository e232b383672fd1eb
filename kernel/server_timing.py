"""What a response cost the server, in a `Server-Timing` header (local mode only).

    Server-Timing: db;desc="12 queries";dur=8.4, app;dur=15.2

`db`: the SQL queries the request ran and their milliseconds; `app`: the rest of the time spent in
the middleware chain. The browser's developer tools show it, and bench/scale.py reads it. Nothing
about the queries behind a page may leave a production server, hence local mode only.
"""

import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import connections
from django.http import HttpRequest, HttpResponse


class ServerTimingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        if not settings.LOCAL_MODE:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        queries, database_seconds = 0, 0.0

        def timed(
            execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
        ) -> Any:
            nonlocal queries, database_seconds
            started = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                database_seconds += time.perf_counter() - started
                queries += 1

        started = time.perf_counter()
        with ExitStack() as stack:
            for alias in connections:
                stack.enter_context(connections[alias].execute_wrapper(timed))
            response = self.get_response(request)
        total = time.perf_counter() - started
        response["Server-Timing"] = (
            f'db;desc="{queries} quer{"y" if queries == 1 else "ies"}";dur={database_seconds * 1000:.1f}, '
            f"app;dur={(total - database_seconds) * 1000:.1f}"
        )
        return response
