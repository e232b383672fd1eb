from django.urls import path

from . import views

app_name = "memberships"
urlpatterns = [
    path("membership", views.membership, name="membership"),
    path("membership/join/<int:plan_id>", views.join, name="join"),
    path("membership/renew", views.renew, name="renew"),
    path("dashboard/membership-plans", views.membership_plans, name="plans"),
    path("dashboard/manage-users", views.manage_users, name="manage-users"),
    path("dashboard/manage-members", views.manage_members, name="manage-members"),
]
