from django.db.models import Count, Q, QuerySet

from accounts.models import User
from content.models import Coupon

from .models import Payment


def payment_list(*, viewer: User, email: str = "") -> QuerySet[Payment]:
    """The payments that happened (not the intents still open, nor those cancelled unpaid) that
    `viewer` may see: their own; an admin, everyone's, or one person's with `email` (as stored)."""
    payments = Payment.objects.exclude(status__in=[Payment.Status.PENDING, Payment.Status.CANCELLED])
    payments = payments.select_related("user", "coupon", "booking")
    if not viewer.is_admin:
        payments = payments.filter(user=viewer)
    if email:
        payments = payments.filter(user__email=email)
    return payments


def coupon_uses(*, coupon: Coupon, user_id: int) -> tuple[int, int]:
    """How many payments succeeded with `coupon`: in all, and by the user `user_id`."""
    uses = Payment.objects.filter(coupon=coupon, status=Payment.Status.SUCCEEDED).aggregate(
        total=Count("pk"), by_person=Count("pk", filter=Q(user_id=user_id))
    )
    return uses["total"], uses["by_person"]
