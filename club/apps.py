from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ClubConfig(AppConfig):
    name = "club"
    default = True  # this module declares Django admin's config too (INSTALLED_APPS names it)


class ClubAdminConfig(admin_apps.AdminConfig):
    """Django admin, as the club's site (club.admin_site.ClubAdminSite)."""

    default = False
    default_site = "club.admin_site.ClubAdminSite"
