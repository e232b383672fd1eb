"""A coupon changed or deleted anywhere cancels the open payments made on terms it no longer gives,
once the change has committed (Stripe is asked); if Stripe fails then, the check at confirmation
still refunds a payment the coupon no longer allows."""

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver

from .models import Coupon, Payment
from .services import payment_cancel, payments_cancel_for_coupon


@receiver(post_save, sender=Coupon, dispatch_uid="payments-coupon-saved")
def coupon_saved(sender: type[Coupon], instance: Coupon, created: bool, raw: bool, **kwargs: Any) -> None:
    if not created and not raw:
        transaction.on_commit(partial(payments_cancel_for_coupon, coupon_id=instance.pk), robust=True)


@receiver(pre_delete, sender=Coupon, dispatch_uid="payments-coupon-deleted")
def coupon_deleted(sender: type[Coupon], instance: Coupon, **kwargs: Any) -> None:
    # Once deleted, the coupon is no longer named by its payments (SET_NULL): note them now.
    pending = Payment.objects.filter(coupon=instance, status=Payment.Status.PENDING)
    for payment_id in pending.values_list("pk", flat=True):
        transaction.on_commit(partial(payment_cancel, payment_id=payment_id), robust=True)
