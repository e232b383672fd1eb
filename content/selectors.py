from django.db.models import QuerySet

from .models import Announcement

HOME_PAGE_COUPONS = 4


def announcement_list() -> QuerySet[Announcement]:
    return Announcement.objects.all()
