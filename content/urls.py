from django.urls import path

from accounts.guards import admin_required, login_required
from club.dashboard import section

from . import views

app_name = "content"
urlpatterns = [
    path("", views.home, name="home"),
    path("support", views.support, name="support"),
    path("blog/<int:post_id>", views.blog_post, name="blog-post"),
    path("newsletter", views.newsletter, name="newsletter"),
    path("forbidden", views.forbidden, name="forbidden"),
    path("dashboard/announcements", section("Club Announcements", login_required), name="announcements"),
    path(
        "dashboard/make-announcements",
        section("Make Announcements", admin_required),
        name="make-announcements",
    ),
    path("dashboard/manage-coupons", section("Manage Coupons", admin_required), name="manage-coupons"),
]
