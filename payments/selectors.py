from django.db.models import QuerySet

from accounts.models import User

from .models import Payment


def payment_list(*, viewer: User, email: str = "") -> QuerySet[Payment]:
    """The payments that happened (not the intents still open) that `viewer` may see: their own;
    an admin, everyone's, or one person's with `email`."""
    payments = Payment.objects.exclude(status=Payment.Status.PENDING).select_related("user", "coupon")
    if not viewer.is_admin:
        payments = payments.filter(user=viewer)
    if email := email.strip().lower():
        payments = payments.filter(user__email=email)
    return payments
