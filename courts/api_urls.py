from django.urls import path

from .apis import CourtDetailApi, CourtListApi

urlpatterns = [
    path("courts", CourtListApi.as_view(), name="api-courts"),
    path("courts/<int:court_id>", CourtDetailApi.as_view(), name="api-court"),
]
