from django.urls import path

from . import views

app_name = "content"
urlpatterns = [
    path("", views.home, name="home"),
    path("support", views.support, name="support"),
    path("blog/<int:post_id>", views.blog_post, name="blog-post"),
    path("newsletter", views.newsletter, name="newsletter"),
    path("forbidden", views.forbidden, name="forbidden"),
    path("dashboard/announcements", views.announcements, name="announcements"),
    path("dashboard/make-announcements", views.make_announcements, name="make-announcements"),
    path("dashboard/support-inbox", views.support_inbox, name="support-inbox"),
    path("dashboard/support-inbox/<int:contact_id>", views.support_message, name="support-message"),
    path(
        "dashboard/support-inbox/<int:contact_id>/handled",
        views.support_message_handled,
        name="support-message-handled",
    ),
]
