from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from .models import Announcement, ContactMessage, Coupon, NewsletterSubscription


def contact_message_create(*, name: str, email: str, message: str) -> ContactMessage:
    return ContactMessage.objects.create(name=name, email=email, message=message)


def newsletter_subscribe(*, email: str) -> bool:
    """Adds the e-mail to the club's list; answers False when it was there already (not an error)."""
    try:
        with transaction.atomic():
            _, created = NewsletterSubscription.objects.get_or_create(email=email.strip().lower())
    except IntegrityError:  # subscribed by a concurrent request a moment ago
        return False
    return created


def _normalised_code(code: str) -> str:
    return code.strip().upper()


def _save_coupon(coupon: Coupon) -> Coupon:
    """Validates (the code unique in any case, the discount 1 to 100) and saves."""
    errors = {}
    if not coupon.code:
        errors["code"] = "Please enter a coupon code."
    elif Coupon.objects.filter(code=coupon.code).exclude(pk=coupon.pk).exists():
        errors["code"] = f"There is already a coupon {coupon.code}."
    if not isinstance(coupon.discount, int) or not 1 <= coupon.discount <= 100:
        errors["discount"] = "The discount is a whole percent from 1 to 100."
    if errors:
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            coupon.save()
    except IntegrityError as error:  # the same code saved concurrently
        raise ValidationError({"code": f"There is already a coupon {coupon.code}."}) from error
    return coupon


def coupon_create(*, code: str, discount: int, description: str = "", is_active: bool = True) -> Coupon:
    return _save_coupon(
        Coupon(
            code=_normalised_code(code),
            discount=discount,
            description=description.strip(),
            is_active=is_active,
        )
    )


def coupon_update(*, coupon: Coupon, **fields) -> Coupon:
    if "code" in fields:
        fields["code"] = _normalised_code(fields["code"])
    if "description" in fields:
        fields["description"] = fields["description"].strip()
    for field, value in fields.items():
        setattr(coupon, field, value)
    return _save_coupon(coupon)


def coupon_delete(*, coupon: Coupon) -> None:
    coupon.delete()


def _clean_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise ValidationError({"text": "Please write the announcement."})
    return text


def announcement_create(*, text: str) -> Announcement:
    return Announcement.objects.create(text=_clean_text(text))


def announcement_update(*, announcement: Announcement, text: str) -> Announcement:
    announcement.text = _clean_text(text)
    announcement.save(update_fields=["text", "updated_at"])
    return announcement


def announcement_delete(*, announcement: Announcement) -> None:
    announcement.delete()
