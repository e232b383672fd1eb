from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", include("content.urls")),
    path("", include("courts.urls")),
    path("", include("accounts.urls")),
    path("api/", include("accounts.api_urls")),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

handler404 = "club.views.page_not_found"
handler500 = "club.views.server_error"
