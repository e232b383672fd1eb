from django.urls import path

from .apis import CourtDetailApi, CourtListApi, CourtRestoreApi

urlpatterns = [
    path("courts", CourtListApi.as_view(), name="api-courts"),
    path("courts/<int:court_id>", CourtDetailApi.as_view(), name="api-court"),
    path("courts/<int:court_id>/restore", CourtRestoreApi.as_view(), name="api-court-restore"),
]
