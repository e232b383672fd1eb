from django.urls import path

from .apis import CourtAvailabilityApi, CourtDetailApi, CourtListApi

urlpatterns = [
    path("courts", CourtListApi.as_view(), name="api-courts"),
    path("courts/<int:court_id>", CourtDetailApi.as_view(), name="api-court"),
    path("courts/<int:court_id>/availability", CourtAvailabilityApi.as_view(), name="api-court-availability"),
]
