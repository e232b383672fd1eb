from django.urls import path

from . import apis

urlpatterns = [
    path("session", apis.SessionApi.as_view(), name="api-session"),
    path("users", apis.UserApi.as_view(), name="api-users"),
    path("users/email/<str:email>", apis.UserByEmailApi.as_view(), name="api-user-by-email"),
    path("users/<str:email>/role", apis.UserRoleApi.as_view(), name="api-user-role"),
]
