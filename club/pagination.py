"""Every list is served a page at a time, whatever the size of the club.

- Dashboard pages: numbered pages of DASHBOARD_PAGE_SIZE rows (`?page=`), with the total, as plain
  links that keep the page's other query parameters (its search and filters).
- The JSON API: the bare array the clients expect, a slice of it chosen with `?limit=` (at most
  API_MAX_LIMIT, API_DEFAULT_LIMIT when not given) and `?offset=`; the whole list's size in
  `X-Total-Count` and the neighbouring slices in a `Link` header (RFC 8288: first, prev, next, last).
"""

import hashlib

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import EmptyResultSet
from django.core.paginator import Page, Paginator
from django.utils.functional import cached_property
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param


def list_total(rows) -> int:
    """How many rows the queryset `rows` has. Counting is the one cost of a list that grows with
    its table (a COUNT over 100,000 bookings takes tens of milliseconds), so the total of a long
    list, LIST_TOTAL_KEPT_FROM rows or more, is kept for LIST_TOTAL_SECONDS in each process, per
    query: it may be behind by the rows added or removed meanwhile, while the rows shown are
    always current. Shorter lists are counted every time."""
    try:
        sql, params = rows.query.sql_with_params()
    except EmptyResultSet:
        return 0
    key = "list-total:" + hashlib.sha256(repr((sql, params)).encode()).hexdigest()
    kept = caches["lists"].get(key)
    if kept is not None:
        return kept
    total = rows.count()
    if total >= settings.LIST_TOTAL_KEPT_FROM:
        caches["lists"].set(key, total, settings.LIST_TOTAL_SECONDS)
    return total


class ListPaginator(Paginator):
    """Django's paginator, with the total of a long list kept for a while (list_total)."""

    @cached_property
    def count(self) -> int:
        return list_total(self.object_list)


def page_of(request, rows, per_page: int | None = None) -> Page:
    """The page of `rows` that `?page=` asks for. A number past the end gives the last page and
    anything that is not a number the first, so a stale or hand-typed link never fails."""
    return ListPaginator(rows, per_page or settings.DASHBOARD_PAGE_SIZE).get_page(request.GET.get("page"))


def island_first_page(rows, serializer_class, url: str) -> dict:
    """The props of an admin island's list paged on the server (frontend/src/lib/useServerList.ts):
    the first page of `rows` with the list's total, and the API list it asks for the others."""
    page = ListPaginator(rows, settings.DASHBOARD_PAGE_SIZE).page(1)
    return {
        "rows": serializer_class(page, many=True).data,
        "total": page.paginator.count,
        "pageSize": settings.DASHBOARD_PAGE_SIZE,
        "url": url,
    }


class SliceQuery(serializers.Serializer):
    limit = serializers.IntegerField(
        min_value=1, max_value=settings.API_MAX_LIMIT, default=settings.API_DEFAULT_LIMIT
    )
    # Beyond any list's end, and within what the database's OFFSET takes.
    offset = serializers.IntegerField(min_value=0, max_value=10**9, default=0)


# The query parameters and the response headers of every list endpoint, for its schema.
SLICE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        OpenApiTypes.INT,
        description=f"How many rows, 1 to {settings.API_MAX_LIMIT} (default {settings.API_DEFAULT_LIMIT}).",
    ),
    OpenApiParameter("offset", OpenApiTypes.INT, description="How many rows to skip (default 0)."),
    OpenApiParameter(
        "X-Total-Count",
        OpenApiTypes.INT,
        location=OpenApiParameter.HEADER,
        response=True,
        description="How many rows the whole list has.",
    ),
    OpenApiParameter(
        "Link",
        OpenApiTypes.STR,
        location=OpenApiParameter.HEADER,
        response=True,
        description='The first, previous, next and last slices: <url>; rel="next", … (RFC 8288).',
    ),
]


def sliced_response(request, rows, serializer_class) -> Response:
    """The slice of `rows` (a queryset, in a stable order) that `?limit=&offset=` ask for, as a bare
    JSON array of `serializer_class`, with X-Total-Count and Link. Bad numbers are a 400."""
    query = SliceQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    limit, offset = query.validated_data["limit"], query.validated_data["offset"]
    page = list(rows[offset : offset + limit])
    # A short slice that has rows is the list's end, so its size tells the total without a COUNT.
    total = offset + len(page) if page and len(page) < limit else list_total(rows)
    response = Response(serializer_class(page, many=True).data)
    response["X-Total-Count"] = str(total)
    response["Link"] = link_header(request.build_absolute_uri(), total=total, limit=limit, offset=offset)
    return response


def link_header(url: str, *, total: int, limit: int, offset: int) -> str:
    """The Link header of the slice of `url` at `offset`: its first, previous, next and last slices."""

    def at(start: int) -> str:
        return replace_query_param(replace_query_param(url, "limit", limit), "offset", start)

    last = max(total - 1, 0) // limit * limit
    links = {"first": at(0)}
    if offset > 0:
        links["prev"] = at(max(min(offset, total) - limit, 0))
    if offset + limit < total:
        links["next"] = at(offset + limit)
    links["last"] = at(last)
    return ", ".join(f'<{target}>; rel="{rel}"' for rel, target in links.items())
