from django.urls import path

from accounts.guards import admin_required
from club.dashboard import section

from . import views

app_name = "courts"
urlpatterns = [
    path("courts", views.court_list, name="list"),
    path("dashboard/manage-courts", section("Manage Courts", admin_required), name="manage"),
]
