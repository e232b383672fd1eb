from django.urls import path

from . import apis

urlpatterns = [
    path("plans", apis.PlanListApi.as_view(), name="api-plans"),
    path("plans/<int:plan_id>", apis.PlanDetailApi.as_view(), name="api-plan"),
    path("memberships/me", apis.MyMembershipApi.as_view(), name="api-membership-me"),
    path("users", apis.UserApi.as_view(), name="api-users"),
]
