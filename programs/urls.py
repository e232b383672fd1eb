from django.urls import path

from . import views

app_name = "programs"
urlpatterns = [
    path("programs", views.program_list, name="list"),
    path("programs/<int:program_id>", views.program_detail, name="detail"),
    path("programs/<int:program_id>/register", views.register, name="register"),
    path("programs/<int:program_id>/participants", views.participants_page, name="participants"),
    path("dashboard/manage-programs", views.manage_programs, name="manage"),
    path("dashboard/manage-programs/<int:program_id>", views.program_edit, name="edit"),
]
