from django.urls import path

from . import views

app_name = "courts"
urlpatterns = [
    path("courts", views.court_list, name="list"),
    path("dashboard/manage-courts", views.manage, name="manage"),
]
