"""Django admin's site (club.apps.ClubAdminConfig), apart from kernel.admin: the site is made when it
is first used, which may be before the apps' admin modules register their models."""

from django.contrib import admin

from accounts import views as account_views


class ClubAdminSite(admin.AdminSite):
    """Django admin, open to the club's admins, who sign in and out the same way as everywhere else
    and whose passwords are Firebase's."""

    def login(self, request, extra_context=None):
        return account_views.admin_login(request, extra_context)

    def logout(self, request, extra_context=None):
        return account_views.logout(request, extra_context)

    def password_change(self, request, extra_context=None):
        return account_views.admin_password_change(request, extra_context)
