import re

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from club.pagination import SLICE_PARAMETERS, SliceQuery, link_header
from club.schema import errors

from .models import Court
from .selectors import MAX_LINKS, court_list_slice, courts_all, courts_for_admin
from .serializers import CourtAdminOutput, CourtInput, CourtOutput
from .services import court_create, court_delete, court_restore, court_update

ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as GZipMiddleware reads Accept-Encoding
_SLICE_FIELDS = SliceQuery().fields  # the bounds of ?limit= and ?offset=


def court_list_response(request, *, limit: int, offset: int, recheck_after: float = 0) -> HttpResponse:
    """The slice of the open courts that ?limit=&offset= asked for, with X-Total-Count and Link as
    every list (club.pagination), from the serialisation kept for the list's current version
    (courts.selectors.court_list_slice): the same for every caller, nobody's own data.

    Compressed with gzip, once per version, for a client that accepts it. Conditional: an ETag
    (exact) and a Last-Modified (to the second), and a 304 to a request whose If-None-Match (or,
    without one, If-Modified-Since) still matches; Cache-Control: no-cache has browsers and proxies
    ask again each time rather than guess.
    """
    found = court_list_slice(limit=limit, offset=offset, recheck_after=recheck_after)
    url = request.build_absolute_uri()
    if (link := found.links.get(url)) is None:
        link = link_header(url, total=found.total, limit=limit, offset=offset)
        if len(found.links) < MAX_LINKS:
            found.links[url] = link
    accepted = request.META.get("HTTP_ACCEPT_ENCODING", "")
    compressed = found.gzipped is not None and ACCEPTS_GZIP.search(accepted) is not None
    response = HttpResponse(found.gzipped if compressed else found.body, content_type="application/json")
    # The compressed body is another representation: a weak ETag, as GZipMiddleware would make it.
    etag = f"W/{found.etag}" if compressed else found.etag
    if compressed:
        response["Content-Encoding"] = "gzip"
    response["Vary"] = "Accept-Encoding"
    response["X-Total-Count"] = str(found.total)
    response["Link"] = link
    response["ETag"] = etag
    response["Last-Modified"] = http_date(found.last_modified)
    response["Cache-Control"] = "no-cache"
    return get_conditional_response(request, etag=etag, last_modified=found.last_modified, response=response)


def _plain_slice(request) -> tuple[int, int] | None:
    """?limit= and ?offset= when they are all the query has and both are within SliceQuery's
    bounds, else None (DRF's path then says what is wrong)."""
    query = request.GET
    if not query:
        return settings.API_DEFAULT_LIMIT, 0
    if not set(query) <= {"limit", "offset"}:
        return None
    limit, offset = query.get("limit", str(settings.API_DEFAULT_LIMIT)), query.get("offset", "0")
    if not (limit.isascii() and limit.isdigit() and offset.isascii() and offset.isdigit()):
        return None
    limit, offset = int(limit), int(offset)
    in_range = 1 <= limit <= _SLICE_FIELDS["limit"].max_value and offset <= _SLICE_FIELDS["offset"].max_value
    return (limit, offset) if in_range else None


def _admin_row(court: Court) -> dict:
    """The court as a row of Manage Courts, read again for what its writes do not know (its
    bookings)."""
    return CourtAdminOutput(courts_for_admin(archived=court.is_archived).get(pk=court.pk)).data


class CourtListApi(APIView):
    """GET: the courts open to booking (anyone). POST: add a court (admins)."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    def dispatch(self, request, *args, **kwargs):
        """A read without credentials (no session cookie, no Authorization header) with a plain
        ?limit=&offset= is answered here, without DRF's request, authentication, permission,
        throttle and negotiation steps: nothing in the answer depends on them, the list is public
        and is not rate-limited. It may be COURT_LIST_RECHECK_SECONDS behind a change made through
        another app process, as a shared cache's copy would be. A caller with credentials goes
        through them all, so a signed-in read still verifies its sign-in (and drops a cookie that no
        longer stands) and always gets the current list (an admin sees their change at once,
        whichever instance answers); bad numbers get DRF's 400."""
        if (
            request.method in ("GET", "HEAD")
            and settings.IDENTITY_COOKIE_NAME not in request.COOKIES
            and "HTTP_AUTHORIZATION" not in request.META
            and (plain := _plain_slice(request)) is not None
        ):
            response = court_list_response(
                request, limit=plain[0], offset=plain[1], recheck_after=settings.COURT_LIST_RECHECK_SECONDS
            )
            response["Allow"] = ", ".join(self.allowed_methods)
            return response
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(parameters=SLICE_PARAMETERS, responses={200: CourtOutput(many=True), **errors(400)})
    def get(self, request):
        query = SliceQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return court_list_response(
            request, limit=query.validated_data["limit"], offset=query.validated_data["offset"]
        )

    @extend_schema(request=CourtInput, responses={201: CourtAdminOutput, **errors(400, 401, 403)})
    def post(self, request):
        data = CourtInput(data=request.data)
        data.is_valid(raise_exception=True)
        court = court_create(by=request.user, **data.validated_data)
        return Response(_admin_row(court), status=status.HTTP_201_CREATED)


class CourtDetailApi(APIView):
    """PATCH: change a court. DELETE: delete it, or archive it if it has bookings. Admins only."""

    permission_classes = [IsAdmin]

    @extend_schema(request=CourtInput, responses={200: CourtAdminOutput, **errors(400, 401, 403, 404)})
    def patch(self, request, court_id: int):
        court = get_object_or_404(courts_for_admin(archived=False), pk=court_id)
        data = CourtInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        return Response(
            CourtAdminOutput(court_update(court=court, by=request.user, **data.validated_data)).data
        )

    @extend_schema(
        responses={
            200: inline_serializer(
                "CourtRemoved",
                {"deleted": serializers.BooleanField(), "archived": serializers.BooleanField()},
            ),
            **errors(401, 403, 404),
        }
    )
    def delete(self, request, court_id: int):
        court = get_object_or_404(Court, pk=court_id, is_archived=False)
        deleted = court_delete(court=court, by=request.user)
        return Response({"deleted": deleted, "archived": not deleted})


class CourtRestoreApi(APIView):
    """POST: open an archived court to booking again (an open one stays as it is). Admins only."""

    permission_classes = [IsAdmin]

    @extend_schema(request=None, responses={200: CourtAdminOutput, **errors(401, 403, 404)})
    def post(self, request, court_id: int):
        court = get_object_or_404(courts_all(), pk=court_id)
        return Response(_admin_row(court_restore(court=court, by=request.user)))
