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
]
