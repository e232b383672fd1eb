"""Every list is served a page at a time, whatever the size of the club.

- Dashboard pages: numbered pages of DASHBOARD_PAGE_SIZE rows (`?page=`), with the total, as plain
  links that keep the page's other query parameters (its search and filters).
- The JSON API: the bare array the clients expect, a slice of it chosen with `?limit=` (at most
  API_MAX_LIMIT, API_DEFAULT_LIMIT when not given) and `?offset=`; the whole list's size in
  `X-Total-Count` and the neighbouring slices in a `Link` header (RFC 8288: first, prev, next, last).
"""

from django.conf import settings
from django.core.paginator import Page, Paginator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param


def page_of(request, rows, per_page: int | None = None) -> Page:
    """The page of `rows` that `?page=` asks for. A number past the end gives the last page and
    anything that is not a number the first, so a stale or hand-typed link never fails."""
    return Paginator(rows, per_page or settings.DASHBOARD_PAGE_SIZE).get_page(request.GET.get("page"))


def island_first_page(rows, serializer_class, url: str) -> dict:
    """The props of an admin island's list paged on the server (frontend/src/lib/useServerList.ts):
    the first page of `rows` with the list's total, and the API list it asks for the others."""
    page = Paginator(rows, settings.DASHBOARD_PAGE_SIZE).page(1)
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


class SlicePagination(LimitOffsetPagination):
    """DRF's ?limit=&offset= pagination, with bad numbers a 400 that says why (DRF's own would
    quietly take its default) and the rest said in headers, so the body stays the bare array."""

    default_limit = settings.API_DEFAULT_LIMIT
    max_limit = settings.API_MAX_LIMIT

    def paginate_queryset(self, queryset, request, view=None) -> list:
        query = SliceQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        self.request = request
        self.limit, self.offset = query.validated_data["limit"], query.validated_data["offset"]
        rows = list(queryset[self.offset : self.offset + self.limit])
        # A short slice that has rows is the list's end, so its size tells the total without a COUNT.
        short = rows and len(rows) < self.limit
        self.count = self.offset + len(rows) if short else self.get_count(queryset)
        return rows

    def get_paginated_response(self, data) -> Response:
        url = self.request.build_absolute_uri()
        return Response(
            data,
            headers={
                "X-Total-Count": str(self.count),
                "Link": link_header(url, total=self.count, limit=self.limit, offset=self.offset),
            },
        )


def sliced_response(request, rows, serializer_class) -> Response:
    """The slice of `rows` (a queryset in a stable order, or a list) that `?limit=&offset=` ask for,
    as a bare JSON array of `serializer_class`, with X-Total-Count and Link."""
    paginator = SlicePagination()
    page = paginator.paginate_queryset(rows, request)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


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
