from django.db.models import QuerySet

from .models import Announcement


def announcement_list() -> QuerySet[Announcement]:
    return Announcement.objects.all()
