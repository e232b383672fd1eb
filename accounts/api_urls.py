from django.urls import path

from . import apis

# /api/users (the admins' list of people, and your own profile) is memberships' (memberships.apis.UserApi).
urlpatterns = [
    path("session", apis.SessionApi.as_view(), name="api-session"),
    path("people", apis.PeopleApi.as_view(), name="api-people"),
    path("users/email/<str:email>", apis.UserByEmailApi.as_view(), name="api-user-by-email"),
    path("users/<str:email>/role", apis.UserRoleApi.as_view(), name="api-user-role"),
]
