from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("login", views.login_page, name="login"),
    path("register", views.register_page, name="register"),
    path("email-verified", views.email_verified, name="email-verified"),
    path("logout", views.logout, name="logout"),
    path("forgot-password", views.forgot_password, name="forgot-password"),
    path("dashboard/profile", views.profile, name="profile"),
    path("dashboard/profile/sign-out-everywhere", views.sign_out_everywhere, name="sign-out-everywhere"),
]
