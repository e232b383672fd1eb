from django.urls import path

from . import views

app_name = "content"
urlpatterns = [
    path("", views.home, name="home"),
    path("support", views.support, name="support"),
    path("forbidden", views.forbidden, name="forbidden"),
]
