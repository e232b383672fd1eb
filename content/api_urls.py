from django.urls import path

from .apis import AnnouncementDetailApi, AnnouncementListApi

urlpatterns = [
    path("announcements", AnnouncementListApi.as_view(), name="api-announcements"),
    path("announcements/<int:announcement_id>", AnnouncementDetailApi.as_view(), name="api-announcement"),
]
