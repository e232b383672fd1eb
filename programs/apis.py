from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from bookings.blocks import BlockConflicts
from bookings.serializers import BlockConflictsOutput
from courts.selectors import courts_all
from kernel.api import valid
from kernel.pagination import SLICE_PARAMETERS, sliced_response
from kernel.schema import errors

from .selectors import (
    may_see_participants,
    open_programs,
    participants,
    programs_seen_by,
    registrations_seen_by,
)
from .serializers import (
    CancelInput,
    MessageInput,
    ParticipantOutput,
    ProgramFieldsInput,
    ProgramInput,
    ProgramOutput,
    RegistrationOutput,
)
from .services import (
    coach_fields,
    program_cancel,
    program_create,
    program_message,
    program_register,
    program_update,
    registration_cancel,
)


def _one(request, program_id: int):
    return get_object_or_404(programs_seen_by(request.user), pk=program_id)


class ProgramListApi(APIView):
    """GET: the programs open for registration (anyone). POST: an admin makes one; bookings
    holding some of its slots answer 409 with their list unless `conflicts` says to cancel them."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(parameters=SLICE_PARAMETERS, responses={200: ProgramOutput(many=True), **errors(400)})
    def get(self, request):
        return sliced_response(request, open_programs(request.user), ProgramOutput)

    @extend_schema(
        request=ProgramInput,
        responses={
            201: ProgramOutput,
            **errors(400, 401, 403, 404),
            409: OpenApiResponse(BlockConflictsOutput, description="Bookings hold some of its slots."),
        },
    )
    def post(self, request):
        fields = coach_fields(valid(ProgramInput, request.data))
        courts = [get_object_or_404(courts_all(), pk=pk) for pk in dict.fromkeys(fields.pop("court_ids"))]
        try:
            program = program_create(by=request.user, courts=courts, **fields)
        except BlockConflicts as conflicts:
            body = {"detail": str(conflicts), "conflicts": conflicts.bookings}
            return Response(BlockConflictsOutput(body).data, status=status.HTTP_409_CONFLICT)
        return Response(ProgramOutput(_one(request, program.pk)).data, status=status.HTTP_201_CREATED)


class ProgramApi(APIView):
    """GET: one program (anyone; one called off, admins only). PATCH: an admin changes its details.
    DELETE: an admin calls it off, refunding everyone registered in full."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(responses={200: ProgramOutput, **errors(404)})
    def get(self, request, program_id: int):
        return Response(ProgramOutput(_one(request, program_id)).data)

    @extend_schema(
        request=ProgramFieldsInput, responses={200: ProgramOutput, **errors(400, 401, 403, 404, 409)}
    )
    def patch(self, request, program_id: int):
        changes = coach_fields(valid(ProgramFieldsInput, request.data, partial=True))
        program_update(program=_one(request, program_id), by=request.user, **changes)
        return Response(ProgramOutput(_one(request, program_id)).data)

    @extend_schema(request=CancelInput, responses={200: ProgramOutput, **errors(400, 401, 403, 404, 409)})
    def delete(self, request, program_id: int):
        reason = valid(CancelInput, request.data)["reason"]
        program_cancel(program=_one(request, program_id), by=request.user, reason=reason)
        return Response(ProgramOutput(_one(request, program_id)).data)


class ProgramRegisterApi(APIView):
    """POST: register yourself: a place held for you to pay for (`payUrl`), registered at once when
    it costs you nothing, or, the program full, a place on its waitlist."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "booking"

    @extend_schema(request=None, responses={201: RegistrationOutput, **errors(401, 404, 409)})
    def post(self, request, program_id: int):
        registration = program_register(program=_one(request, program_id), user=request.user)
        return Response(RegistrationOutput(registration).data, status=status.HTTP_201_CREATED)


class RegistrationApi(APIView):
    """DELETE: cancel a registration or a place on a waitlist (its person, or an admin); a paid one
    is refunded by the program's cut-off."""

    @extend_schema(request=None, responses={200: RegistrationOutput, **errors(401, 403, 404, 409)})
    def delete(self, request, registration_id: int):
        registration = get_object_or_404(registrations_seen_by(request.user), pk=registration_id)
        return Response(
            RegistrationOutput(registration_cancel(registration=registration, by=request.user)).data
        )


class ParticipantsApi(APIView):
    """GET: who has a place (the coach and admins; their contact, for admins only). POST: write to
    them all by e-mail."""

    def _program(self, request, program_id: int):
        program = _one(request, program_id)
        if not may_see_participants(program, request.user):
            raise Http404
        return program

    @extend_schema(responses={200: ParticipantOutput(many=True), **errors(401, 404)})
    def get(self, request, program_id: int):
        program = self._program(request, program_id)
        context = {"admin": request.user.is_admin}
        return Response(ParticipantOutput(participants(program), many=True, context=context).data)

    @extend_schema(
        request=MessageInput,
        responses={
            200: OpenApiResponse(description="How many were written to: {told}"),
            **errors(400, 401, 404),
        },
    )
    def post(self, request, program_id: int):
        fields = valid(MessageInput, request.data)
        told = program_message(program=self._program(request, program_id), by=request.user, **fields)
        return Response({"told": told})
