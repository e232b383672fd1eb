from django.db.models import QuerySet

from .models import Announcement, Coupon

HOME_PAGE_COUPONS = 4


def active_coupons() -> QuerySet[Coupon]:
    return Coupon.objects.filter(is_active=True)


def announcement_list() -> QuerySet[Announcement]:
    return Announcement.objects.all()
