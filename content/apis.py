from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from kernel.api import valid
from kernel.pagination import SLICE_PARAMETERS, sliced_response
from kernel.schema import errors

from .models import Announcement
from .selectors import announcement_list
from .serializers import AnnouncementInput, AnnouncementOutput
from .services import announcement_create, announcement_delete, announcement_update


class AnnouncementListApi(APIView):
    """GET: the announcements (signed in). POST: post one (admins)."""

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(
        parameters=SLICE_PARAMETERS, responses={200: AnnouncementOutput(many=True), **errors(400, 401)}
    )
    def get(self, request):
        return sliced_response(request, announcement_list(), AnnouncementOutput)

    @extend_schema(request=AnnouncementInput, responses={201: AnnouncementOutput, **errors(400, 401, 403)})
    def post(self, request):
        announcement = announcement_create(by=request.user, **valid(AnnouncementInput, request.data))
        return Response(AnnouncementOutput(announcement).data, status=status.HTTP_201_CREATED)


class AnnouncementDetailApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=AnnouncementInput, responses={200: AnnouncementOutput, **errors(400, 401, 403, 404)}
    )
    def patch(self, request, announcement_id: int):
        announcement = get_object_or_404(Announcement, pk=announcement_id)
        data = valid(AnnouncementInput, request.data)
        announcement = announcement_update(announcement=announcement, by=request.user, **data)
        return Response(AnnouncementOutput(announcement).data)

    @extend_schema(responses={204: None, **errors(401, 403, 404)})
    def delete(self, request, announcement_id: int):
        announcement_delete(announcement=get_object_or_404(Announcement, pk=announcement_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
