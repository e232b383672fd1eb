from django.contrib.admin import apps as admin_apps


class ClubAdminConfig(admin_apps.AdminConfig):
    default = False  # not the club app's own config
    default_site = "club.admin_site.ClubAdminSite"
