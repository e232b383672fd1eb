from django.contrib import admin
from django.contrib.auth.models import Group

# Django's groups grant permissions, which the club does not use: an admin is a role (User.role).
admin.site.unregister(Group)
