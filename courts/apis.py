from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from club.pagination import SLICE_PARAMETERS, sliced_response
from club.schema import errors

from .models import Court
from .selectors import court_list
from .serializers import CourtInput, CourtOutput
from .services import court_create, court_delete, court_update


class CourtListApi(APIView):
    """GET: the courts open to booking (anyone). POST: add a court (admins)."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(parameters=SLICE_PARAMETERS, responses={200: CourtOutput(many=True), **errors(400)})
    def get(self, request):
        return sliced_response(request, court_list(), CourtOutput)

    @extend_schema(request=CourtInput, responses={201: CourtOutput, **errors(400, 401, 403)})
    def post(self, request):
        data = CourtInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(CourtOutput(court_create(**data.validated_data)).data, status=status.HTTP_201_CREATED)


class CourtDetailApi(APIView):
    """PATCH: change a court. DELETE: delete it, or archive it if it has bookings. Admins only."""

    permission_classes = [IsAdmin]

    @extend_schema(request=CourtInput, responses={200: CourtOutput, **errors(400, 401, 403, 404)})
    def patch(self, request, court_id: int):
        court = get_object_or_404(Court, pk=court_id, is_archived=False)
        data = CourtInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        return Response(CourtOutput(court_update(court=court, **data.validated_data)).data)

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
        deleted = court_delete(court=court)
        return Response({"deleted": deleted, "archived": not deleted})
