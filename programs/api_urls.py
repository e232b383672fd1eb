from django.urls import path

from . import apis

urlpatterns = [
    path("programs", apis.ProgramListApi.as_view(), name="api-programs"),
    path("programs/<int:program_id>", apis.ProgramApi.as_view(), name="api-program"),
    path(
        "programs/<int:program_id>/register", apis.ProgramRegisterApi.as_view(), name="api-program-register"
    ),
    path(
        "programs/<int:program_id>/participants",
        apis.ParticipantsApi.as_view(),
        name="api-program-participants",
    ),
    path("registrations/<int:registration_id>", apis.RegistrationApi.as_view(), name="api-registration"),
]
