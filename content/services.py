from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from audit.services import audit_record, audited_update
from kernel.text import lines_refusal

from . import tasks
from .models import Announcement, ContactMessage, NewsletterSubscription


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


def _clean_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise ValidationError({"text": "Please write the announcement."})
    if refusal := lines_refusal(text):
        raise ValidationError({"text": refusal})
    return text


@transaction.atomic
def announcement_create(*, text: str, by=None) -> Announcement:
    """A new announcement; the worker e-mails it to everyone who wants announcements."""
    announcement = Announcement.objects.create(text=_clean_text(text))
    tasks.announce.enqueue(announcement.pk)  # a row too: it commits with the announcement
    audit_record(
        actor=by,
        action="announcement.create",
        target=announcement,
        summary="Posted an announcement",
        after={"text": announcement.text},
    )
    return announcement


@transaction.atomic
def announcement_update(*, announcement: Announcement, text: str, by=None) -> Announcement:
    return audited_update(
        announcement,
        by=by,
        action="announcement.update",
        changes={"text": _clean_text(text)},
        summary=lambda before, after: "Changed an announcement",
        audited=["text"],
        save=lambda announcement: announcement.save(update_fields=["text", "updated_at"]),
    )


@transaction.atomic
def announcement_delete(*, announcement: Announcement, by=None) -> None:
    audit_record(
        actor=by,
        action="announcement.delete",
        target=announcement,
        summary="Deleted an announcement",
        before={"text": announcement.text},
    )
    announcement.delete()
