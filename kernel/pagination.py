"""Every list is served a page at a time, whatever the size of the club: the dashboard's pages as
numbered pages (`?page=`), the JSON API's lists as slices (`?limit=&offset=`)."""

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

# What a page is cut from: a queryset in a stable order, or a list.
type Rows = QuerySet[Any] | Sequence[Any]


def page_of(request: HttpRequest, rows: Rows, per_page: int | None = None) -> Page[Any]:
    """The page of `rows` that `?page=` asks for. A number past the end gives the last page and
    anything that is not a number the first, so a stale or hand-typed link never fails."""
    return Paginator(rows, per_page or settings.DASHBOARD_PAGE_SIZE).get_page(request.GET.get("page"))


def island_first_page(
    rows: Rows, serializer_class: type[serializers.BaseSerializer[Any]], url: str
) -> dict[str, Any]:
    """The props of an admin island's list paged on the server (frontend/src/lib/useServerList.ts):
    the first page of `rows` with the list's total, and the API list it asks for the others."""
    page = Paginator(rows, settings.DASHBOARD_PAGE_SIZE).page(1)
    return {
        "rows": serializer_class(page, many=True).data,
        "total": page.paginator.count,
        "pageSize": settings.DASHBOARD_PAGE_SIZE,
        "url": url,
    }


DEFAULT_LIMIT = 25
MAX_LIMIT = 100


class SlicePagination(LimitOffsetPagination):
    """DRF's ?limit=&offset= pagination, but a bad number is a 400 that says why (DRF's own quietly
    takes its default), and the total (X-Total-Count) and the neighbouring slices (Link, RFC 8288)
    go in headers, so that the body stays the bare array the clients expect."""

    # Set by paginate_queryset, before the response is made (DRF's may be None until then).
    request: Request
    limit: int
    offset: int
    count: int

    def paginate_queryset(self, queryset: Rows, request: Request, view: APIView | None = None) -> list[Any]:
        query = SliceQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        self.request = request
        self.limit, self.offset = query.validated_data["limit"], query.validated_data["offset"]
        rows = list(queryset[self.offset : self.offset + self.limit])
        # A short slice that has rows is the list's end, so its size tells the total without a COUNT.
        short = rows and len(rows) < self.limit
        self.count = self.offset + len(rows) if short else self.get_count(queryset)
        return rows

    def get_paginated_response(self, data: Any) -> Response:
        return Response(data, headers={"X-Total-Count": str(self.count), "Link": self.get_link_header()})

    def get_link_header(self) -> str:
        url = self.request.build_absolute_uri()

        def at(offset: int) -> str:
            return replace_query_param(replace_query_param(url, "limit", self.limit), "offset", offset)

        links = {"first": at(0)}
        if self.offset > 0:
            links["prev"] = at(max(min(self.offset, self.count) - self.limit, 0))
        if self.offset + self.limit < self.count:
            links["next"] = at(self.offset + self.limit)
        links["last"] = at(max(self.count - 1, 0) // self.limit * self.limit)
        return ", ".join(f'<{target}>; rel="{rel}"' for rel, target in links.items())


class SliceQuery(serializers.Serializer[Any]):
    limit = serializers.IntegerField(min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT)
    # Beyond any list's end, and within what the database's OFFSET takes.
    offset = serializers.IntegerField(min_value=0, max_value=10**9, default=0)


def _response_header(name: str, kind: OpenApiTypes, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.HEADER, response=True, description=description)


# The query parameters and the response headers of every list endpoint, for its schema.
SLICE_PARAMETERS = [
    OpenApiParameter(
        "limit", OpenApiTypes.INT, description=f"How many rows, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})."
    ),
    OpenApiParameter("offset", OpenApiTypes.INT, description="How many rows to skip (default 0)."),
    _response_header("X-Total-Count", OpenApiTypes.INT, "How many rows the whole list has."),
    _response_header(
        "Link",
        OpenApiTypes.STR,
        'The first, previous, next and last slices: <url>; rel="next", … (RFC 8288).',
    ),
]


def sliced_response(
    request: Request,
    rows: Rows,
    serializer_class: type[serializers.BaseSerializer[Any]],
    context: dict[str, Any] | None = None,
) -> Response:
    """The slice of `rows` (a queryset in a stable order, or a list) that `?limit=&offset=` ask for,
    as a bare JSON array of `serializer_class` (given `context`), with X-Total-Count and Link."""
    paginator = SlicePagination()
    page = paginator.paginate_queryset(rows, request)
    return paginator.get_paginated_response(serializer_class(page, many=True, context=context or {}).data)
