"""Coupons, read and written (Manage Coupons, the API and Django admin), each change audited
(docs/rules.md, Coupons). What a coupon does to a payment is the payments' services'."""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from audit.services import audited_create, audited_delete, audited_update

from .models import DISCOUNT_RULE, MAX_USES_RULE, Coupon

# A coupon's values as the audit trail keeps them.
COUPON_AUDITED = [
    "code",
    "discount",
    "description",
    "is_active",
    "once_per_person",
    "max_uses",
    "valid_from",
    "valid_until",
]


def active_coupons() -> QuerySet[Coupon]:
    """The coupons on offer today: active, and within their dates (the one left empty is open)."""
    today = timezone.localdate()
    return Coupon.objects.filter(is_active=True).exclude(valid_from__gt=today).exclude(valid_until__lt=today)


def normalised_code(code: str) -> str:
    """A coupon's code as it is saved and looked up."""
    return code.strip().upper()


def _save_coupon(coupon: Coupon) -> Coupon:
    """Trims the code (upper-cased) and the description, validates (the code unique in any case, the
    discount 1 to 100, a limit of uses at least 1, the last day not before the first) and saves.
    The messages are keyed by the API's names."""
    coupon.code, coupon.description = normalised_code(coupon.code), coupon.description.strip()
    errors = {}
    if not coupon.code:
        errors["code"] = "Please enter a coupon code."
    elif Coupon.objects.filter(code=coupon.code).exclude(pk=coupon.pk).exists():
        errors["code"] = f"There is already a coupon {coupon.code}."
    if not isinstance(coupon.discount, int) or not 1 <= coupon.discount <= 100:
        errors["discount"] = DISCOUNT_RULE
    if coupon.max_uses is not None and (not isinstance(coupon.max_uses, int) or coupon.max_uses < 1):
        errors["maxUses"] = MAX_USES_RULE
    if coupon.valid_from and coupon.valid_until and coupon.valid_until < coupon.valid_from:
        errors["validUntil"] = f"The last day comes on or after the first ({coupon.valid_from.isoformat()})."
    if errors:
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            coupon.save()
    except IntegrityError as error:  # the same code saved concurrently
        raise ValidationError({"code": f"There is already a coupon {coupon.code}."}) from error
    return coupon


@transaction.atomic
def coupon_create(*, by: User | None = None, **fields: Any) -> Coupon:
    """A new coupon of `fields` (Coupon's, code and discount at least)."""
    return audited_create(
        Coupon(**fields),
        by=by,
        action="coupon.create",
        summary=lambda coupon: f"Added coupon {coupon.code}",
        audited=COUPON_AUDITED,
        save=_save_coupon,
    )


@transaction.atomic
def coupon_update(*, coupon: Coupon, by: User | None = None, **fields: Any) -> Coupon:
    return audited_update(
        coupon,
        by=by,
        action="coupon.update",
        changes=fields,
        summary=lambda before, after: f"Changed coupon {coupon.code}",
        audited=COUPON_AUDITED,
        save=_save_coupon,
    )


@transaction.atomic
def coupon_delete(*, coupon: Coupon, by: User | None = None) -> None:
    summary = f"Deleted coupon {coupon.code}"
    audited_delete(coupon, by=by, action="coupon.delete", summary=summary, audited=COUPON_AUDITED)
