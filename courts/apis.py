from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_control
from django.views.decorators.http import conditional_page
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from kernel.api import valid
from kernel.pagination import SLICE_PARAMETERS, sliced_response
from kernel.schema import errors

from .models import Court
from .selectors import court_list, courts_all, courts_for_admin, with_price_bands
from .serializers import CourtAdminOutput, CourtInput, CourtOutput
from .services import court_create, court_delete, court_restore, court_update

COURT_REMOVED = inline_serializer(
    "CourtRemoved", {"deleted": serializers.BooleanField(), "archived": serializers.BooleanField()}
)


def _admin_row(court: Court) -> dict:
    """The court as a row of Manage Courts, read again for what its writes do not know: its bookings."""
    return CourtAdminOutput(courts_for_admin(archived=court.is_archived).get(pk=court.pk)).data


class CourtListApi(APIView):
    """GET: the courts open to booking (anyone). POST: add a court (admins)."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(parameters=SLICE_PARAMETERS, responses={200: CourtOutput(many=True), **errors(400)})
    # Browsers and proxies ask again each time (no_cache) and get a 304 while the ETag, a hash of
    # the slice (before compression: GZipMiddleware makes it weak), still matches.
    @method_decorator([cache_control(no_cache=True), conditional_page])
    def get(self, request):
        return sliced_response(request, with_price_bands(court_list()), CourtOutput)

    @extend_schema(request=CourtInput, responses={201: CourtAdminOutput, **errors(400, 401, 403)})
    def post(self, request):
        court = court_create(by=request.user, **valid(CourtInput, request.data))
        return Response(_admin_row(court), status=status.HTTP_201_CREATED)


class CourtDetailApi(APIView):
    """PATCH: change a court. DELETE: delete it, or archive it if it has bookings. Admins only."""

    permission_classes = [IsAdmin]

    @extend_schema(request=CourtInput, responses={200: CourtAdminOutput, **errors(400, 401, 403, 404)})
    def patch(self, request, court_id: int):
        court = get_object_or_404(courts_for_admin(archived=False), pk=court_id)
        data = valid(CourtInput, request.data, partial=True)
        return Response(CourtAdminOutput(court_update(court=court, by=request.user, **data)).data)

    @extend_schema(responses={200: COURT_REMOVED, **errors(401, 403, 404)})
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
