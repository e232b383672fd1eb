from django.urls import path

from club.dashboard import section

from . import views
from .guards import admin_required

app_name = "accounts"
urlpatterns = [
    path("login", views.login_page, name="login"),
    path("register", views.register_page, name="register"),
    path("logout", views.logout, name="logout"),
    path("dashboard", views.dashboard, name="dashboard"),
    path("dashboard/manage-users", views.manage_users, name="manage-users"),
    path("dashboard/manage-members", section("Manage Members", admin_required), name="manage-members"),
]
