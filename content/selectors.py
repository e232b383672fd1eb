from django.db.models import QuerySet
from django.utils import timezone

from .models import Announcement, Coupon

HOME_PAGE_COUPONS = 4


def active_coupons() -> QuerySet[Coupon]:
    """The coupons on offer today: active, and within their dates (the one left empty is open)."""
    today = timezone.localdate()
    return Coupon.objects.filter(is_active=True).exclude(valid_from__gt=today).exclude(valid_until__lt=today)


def announcement_list() -> QuerySet[Announcement]:
    return Announcement.objects.all()
