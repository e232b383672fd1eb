from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import dashboard, reports, trail, views

# The API first: its calls are most of the traffic, and the resolver tries the patterns in order.
urlpatterns = [
    *[
        path("api/", include(f"{app}.api_urls"))
        for app in ["courts", "bookings", "programs", "accounts", "content", "payments", "memberships"]
    ],
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    *[
        path("", include(f"{app}.urls"))
        for app in [
            "content",
            "courts",
            "accounts",
            "bookings",
            "programs",
            "payments",
            "memberships",
            "notifications",
        ]
    ],
    path("healthz", views.healthz, name="healthz"),
    path("dashboard", dashboard.dashboard, name="dashboard"),
    path("dashboard/audit-trail", trail.trail, name="audit-trail"),
    path("dashboard/reports", reports.reports, name="reports"),
    path("admin/", admin.site.urls),
]

if settings.LOCAL_MODE:  # never in production: the pages of the local stand-ins (local/)
    urlpatterns.append(path("", include("local.urls")))

handler400 = "club.views.bad_request"
handler500 = "club.views.server_error"
