from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import local as accounts_local
from notifications import local as notifications_local
from payments import local as payments_local

from . import dashboard, reports, trail, views

# The API first: its calls are most of the traffic, and the resolver tries the patterns in order.
urlpatterns = [
    *[
        path("api/", include(f"{app}.api_urls"))
        for app in ["courts", "bookings", "accounts", "content", "payments"]
    ],
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    *[
        path("", include(f"{app}.urls"))
        for app in ["content", "courts", "accounts", "bookings", "payments", "notifications"]
    ],
    path("healthz", views.healthz, name="healthz"),
    path("dashboard", dashboard.dashboard, name="dashboard"),
    path("dashboard/audit-trail", trail.trail, name="audit-trail"),
    path("dashboard/reports", reports.reports, name="reports"),
    path("admin/", admin.site.urls),
]

if settings.LOCAL_MODE:  # never in production
    # What the local mailbox received (notifications/local.py).
    urlpatterns += [
        path("local/mail", notifications_local.mail_list, name="local-mail"),
        path("local/mail/<str:mail_id>", notifications_local.mail_detail, name="local-mail-detail"),
        path("local/mail/<str:mail_id>/html", notifications_local.mail_html, name="local-mail-html"),
        path(
            "local/mail/<str:mail_id>/attachments/<int:index>",
            notifications_local.mail_attachment,
            name="local-mail-attachment",
        ),
    ]
    if settings.STRIPE_API_BASE:
        # The stand-ins for what localstripe's fake Stripe.js lacks (payments/local.py).
        urlpatterns += [
            path("local/stripe-adapter.js", payments_local.adapter_script, name="local-stripe-adapter"),
            path(
                "local/stripe-confirm", payments_local.LocalConfirmApi.as_view(), name="local-stripe-confirm"
            ),
        ]
    if settings.FIREBASE_AUTH_EMULATOR_HOST:
        # The links the emulator keeps instead of sending e-mail (accounts/local.py).
        urlpatterns.append(path("local/auth-links", accounts_local.auth_links, name="local-auth-links"))

handler400 = "club.views.bad_request"
handler500 = "club.views.server_error"
