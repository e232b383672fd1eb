"""What the club's content tells people by e-mail: its new announcements (optional), and, of a
support message, its sender that it arrived and what an admin replied, and the admins that
messages wait for a reply (batched)."""

from django.conf import settings
from django.urls import reverse

from notifications.selectors import wanting
from notifications.services import Visitor, absolute_url, notify, notify_admins

from .models import Announcement, ContactMessage, ContactReply

# How many of the messages waiting the admins' notice lists (it says how many there are).
WAITING_LISTED = 10


def announced(*, announcement_id: int) -> int:
    """Tells everyone who has not turned announcements off; answers how many. Run by the worker:
    thousands of people are not told inside a request."""
    announcement = Announcement.objects.filter(pk=announcement_id).first()
    if announcement is None:  # deleted before the worker came to it
        return 0
    context = {
        "announcement": announcement,
        "announcements_url": absolute_url(reverse("content:announcements")),
    }
    told = 0
    for person in wanting(optional="announcements").iterator():
        told += bool(
            notify(
                event="announcement",
                recipient=person,
                about=f"announcement:{announcement.pk}",
                subject=f"News from {settings.SITE_NAME}",
                template="announcement",
                context=context,
                optional="announcements",
            )
        )
    return told


def _sender(contact: ContactMessage) -> Visitor:
    return Visitor(name=contact.name, email=contact.email)


def contact_received(contact: ContactMessage) -> None:
    """To the sender: the club has their message. To every admin: the messages waiting, batched."""
    notify(
        event="contact_received",
        recipient=_sender(contact),
        about=f"contact:{contact.pk}",
        subject=f"{settings.SITE_NAME} has your message: we'll reply within 24 hours",
        template="contact_received",
        context={"contact": contact},
    )
    waiting = ContactMessage.objects.filter(handled_at__isnull=True)
    count = waiting.count()
    context = {
        "count": count,
        "contacts": waiting[:WAITING_LISTED],
        "inbox_url": absolute_url(reverse("content:support-inbox")),
    }
    subject = f"{count} support message{'s' if count != 1 else ''} waiting for a reply"
    notify_admins(event="contacts_waiting", subject=subject, template="contacts_waiting", context=context)


def contact_replied(reply: ContactReply) -> None:
    """To the sender: the admin's reply, under their own message."""
    contact = reply.message
    notify(
        event="contact_reply",
        recipient=_sender(contact),
        about=f"contact-reply:{reply.pk}",
        subject=f"Re: your message to {settings.SITE_NAME}",
        template="contact_reply",
        context={"contact": contact, "reply": reply},
    )
