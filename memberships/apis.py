from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.apis import ProfileApi
from accounts.permissions import IsAdmin
from accounts.selectors import user_list
from accounts.serializers import UserListQuery
from kernel.api import valid
from kernel.pagination import SLICE_PARAMETERS, sliced_response
from kernel.schema import errors

from .models import Plan
from .selectors import membership_current, people_with_memberships, plan_list
from .serializers import MyMembershipOutput, PlanInput, PlanListQuery, PlanOutput, UserWithMembershipOutput
from .services import plan_create, plan_delete, plan_update


class PlanListApi(APIView):
    """GET: the plans on sale (anyone), or every plan (admins, `on_sale` to choose one kind).
    POST: add a plan (admins)."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(
        parameters=[PlanListQuery, *SLICE_PARAMETERS], responses={200: PlanOutput(many=True), **errors(400)}
    )
    def get(self, request):
        on_sale = valid(PlanListQuery, request.query_params)["on_sale"]
        return sliced_response(request, plan_list(viewer=request.user, on_sale=on_sale), PlanOutput)

    @extend_schema(request=PlanInput, responses={201: PlanOutput, **errors(400, 401, 403)})
    def post(self, request):
        plan = plan_create(by=request.user, **valid(PlanInput, request.data))
        return Response(PlanOutput(plan).data, status=status.HTTP_201_CREATED)


class PlanDetailApi(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(request=PlanInput, responses={200: PlanOutput, **errors(400, 401, 403, 404)})
    def patch(self, request, plan_id: int):
        plan = get_object_or_404(Plan, pk=plan_id)
        changes = valid(PlanInput, request.data, partial=True)
        return Response(PlanOutput(plan_update(plan=plan, by=request.user, **changes)).data)

    @extend_schema(responses={204: None, **errors(401, 403, 404)})
    def delete(self, request, plan_id: int):
        plan_delete(plan=get_object_or_404(Plan, pk=plan_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyMembershipApi(APIView):
    """GET: the caller's own membership, whoever they are (an admin too): `{"membership": {...}}`
    while they hold one (awaiting its first payment, active, or past due: its benefits kept until
    `graceUntil`), `{"membership": null}` when they hold none. `benefits.lines` says what the plan
    gives; the values beside them are the limits themselves, each null for the club's own rule."""

    @extend_schema(responses={200: MyMembershipOutput, **errors(401)})
    def get(self, request):
        return Response(MyMembershipOutput({"membership": membership_current(user=request.user)}).data)


class UserApi(ProfileApi):
    """GET: everyone (admins; `?search=` over name and e-mail, `?role=`), each with their membership,
    a slice at a time (kernel/pagination.py). POST: record your own profile (accounts.apis.ProfileApi)."""

    def get_permissions(self):
        return [IsAdmin()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        parameters=[UserListQuery, *SLICE_PARAMETERS],
        responses={200: UserWithMembershipOutput(many=True), **errors(400, 401, 403)},
    )
    def get(self, request):
        people = people_with_memberships(user_list(**valid(UserListQuery, request.query_params)))
        return sliced_response(request, people, UserWithMembershipOutput)
