from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

from . import views

# Django admin opens to the club's admins, signed in the same way as everywhere else
# (set before admin.site.urls builds its URL patterns).
admin.site.login = account_views.admin_login
admin.site.logout = account_views.logout

urlpatterns = [
    path("", include("content.urls")),
    path("", include("courts.urls")),
    path("", include("accounts.urls")),
    path("", include("bookings.urls")),
    path("", include("payments.urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("courts.api_urls")),
    path("api/", include("bookings.api_urls")),
    path("api/", include("content.api_urls")),
    path("api/", include("payments.api_urls")),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]

handler404 = "club.views.page_not_found"
handler500 = "club.views.server_error"
