from django.urls import path

from . import views

app_name = "memberships"
urlpatterns = [
    path("dashboard/membership-plans", views.membership_plans, name="plans"),
]
