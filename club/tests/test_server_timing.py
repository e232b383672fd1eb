"""The Server-Timing header: the queries and the time behind a response, in local mode only."""

import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext

from courts.models import Court
from kernel.server_timing import ServerTimingMiddleware

pytestmark = pytest.mark.django_db
HEADER = re.compile(r'^db;desc="(\d+) quer(?:y|ies)";dur=(\d+\.\d), app;dur=(\d+\.\d)$')


def test_it_is_the_outermost_middleware_so_every_query_counts():
    assert settings.MIDDLEWARE[0] == "kernel.server_timing.ServerTimingMiddleware"


def test_a_response_says_how_many_queries_it_ran_and_how_long_it_took():
    for n in range(3):
        Court.objects.create(name=f"Court {n}", type="Tennis", price=Decimal(10), image="/static/x.svg")
    with CaptureQueriesContext(connection) as queries:
        response = Client().get("/api/courts")
    assert response.status_code == 200
    match = HEADER.match(response["Server-Timing"])
    assert match, response["Server-Timing"]
    assert int(match[1]) == len(queries) >= 1
    assert float(match[2]) >= 0
    assert float(match[3]) > 0


def test_a_response_without_queries_says_zero():
    response = ServerTimingMiddleware(lambda request: HttpResponse("ok"))(None)
    assert HEADER.match(response["Server-Timing"])[1] == "0"


def test_production_never_sends_it(settings):
    settings.LOCAL_MODE = False
    with pytest.raises(MiddlewareNotUsed):
        ServerTimingMiddleware(lambda request: HttpResponse("ok"))
