from django.urls import path

from . import views

app_name = "notifications"
urlpatterns = [
    path("dashboard/email-preferences", views.preferences, name="preferences"),
    path("unsubscribe/<str:token>", views.unsubscribe_link, name="unsubscribe"),
]
