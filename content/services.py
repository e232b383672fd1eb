from django.db import transaction

from accounts.models import User
from audit.services import audit_record, audited_update

from . import tasks
from .models import Announcement, ContactMessage, NewsletterSubscription


def contact_message_create(*, name: str, email: str, message: str) -> ContactMessage:
    return ContactMessage.objects.create(name=name, email=email, message=message)


def newsletter_subscribe(*, email: str) -> bool:
    """Adds the e-mail to the club's list; answers False when it was there already (not an error)."""
    # get_or_create also answers False to the loser of two concurrent requests for the same e-mail.
    _, created = NewsletterSubscription.objects.get_or_create(email=email.strip().lower())
    return created


@transaction.atomic
def announcement_create(*, text: str, by: User | None = None) -> Announcement:
    """A new announcement; the worker e-mails it to everyone who wants announcements."""
    announcement = Announcement(text=text.strip())
    announcement.full_clean()
    announcement.save()
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
def announcement_update(*, announcement: Announcement, text: str, by: User | None = None) -> Announcement:
    return audited_update(
        announcement,
        by=by,
        action="announcement.update",
        changes={"text": text.strip()},
        summary=lambda before, after: "Changed an announcement",
        audited=["text"],
    )


@transaction.atomic
def announcement_delete(*, announcement: Announcement, by: User | None = None) -> None:
    audit_record(
        actor=by,
        action="announcement.delete",
        target=announcement,
        summary="Deleted an announcement",
        before={"text": announcement.text},
    )
    announcement.delete()
