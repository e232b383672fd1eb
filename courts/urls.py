from django.urls import path

from . import views

app_name = "courts"
urlpatterns = [path("dashboard/manage-courts", views.manage, name="manage")]
