from django.db.models import QuerySet

from .models import Announcement, Coupon

HOME_PAGE_COUPONS = 4


def active_coupons() -> QuerySet[Coupon]:
    return Coupon.objects.filter(is_active=True)


def coupon_by_code(code: str) -> Coupon | None:
    """The active coupon with this code, typed in any case and with stray spaces; else None."""
    return active_coupons().filter(code=code.strip().upper()).first()


def announcement_list() -> QuerySet[Announcement]:
    return Announcement.objects.all()
