from django.urls import path

from . import views

app_name = "memberships"
urlpatterns = [
    path("membership", views.membership, name="membership"),
    path("membership/join/<int:plan_id>", views.join, name="join"),
    path("membership/renew", views.renew, name="renew"),
    path("dashboard/membership-plans", views.membership_plans, name="plans"),
]
