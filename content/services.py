from django.db import transaction
from django.utils import timezone

from accounts.models import User
from audit.services import audit_record, audited_delete, audited_update

from . import notices, tasks
from .models import Announcement, ContactMessage, ContactReply, NewsletterSubscription


@transaction.atomic
def contact_message_create(*, name: str, email: str, message: str) -> ContactMessage:
    """A message from the support page: its sender is told it arrived, the admins that it waits."""
    contact = ContactMessage.objects.create(name=name, email=email, message=message)
    notices.contact_received(contact)
    return contact


@transaction.atomic
def contact_message_handle(*, contact: ContactMessage, by: User) -> ContactMessage:
    """An admin marks a support message handled (once: the first who did stays recorded)."""
    locked = ContactMessage.objects.select_for_update().get(pk=contact.pk)
    if locked.handled_at is None:
        locked.handled_at, locked.handled_by = timezone.now(), by
        locked.save(update_fields=["handled_at", "handled_by"])
        audit_record(
            actor=by,
            action="contact.handle",
            target=locked,
            summary=f"Marked the support message of {locked.email} handled",
            after={"handled_at": locked.handled_at.isoformat()},
        )
    return locked


@transaction.atomic
def contact_reply_send(*, contact: ContactMessage, by: User, text: str) -> ContactReply:
    """An admin replies to a support message: the reply is kept beside it and e-mailed to its
    sender, and the message counts as handled."""
    reply = ContactReply(message=contact, by=by, text=text.strip())
    reply.full_clean()
    reply.save()
    notices.contact_replied(reply)
    audit_record(
        actor=by,
        action="contact.reply",
        target=contact,
        summary=f"Replied to the support message of {contact.email}",
        after={"reply": reply.text},
    )
    contact_message_handle(contact=contact, by=by)
    return reply


def announcements_mark_read(*, user: User) -> None:
    """`user` has seen every announcement made so far (content.selectors.unread_announcements)."""
    user.announcements_seen_at = timezone.now()
    user.save(update_fields=["announcements_seen_at"])


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
    audited_delete(
        announcement, by=by, action="announcement.delete", summary="Deleted an announcement", audited=["text"]
    )
