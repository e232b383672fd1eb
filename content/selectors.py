from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, QuerySet, Window

from accounts.models import User

from .models import Announcement, ContactMessage

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class Unread(TypedDict):
    """What unread_announcements adds to each announcement."""

    unread_count: int


def announcement_list() -> QuerySet[Announcement]:
    return Announcement.objects.all()


def unread_announcements(*, user: User) -> "QuerySet[WithAnnotations[Announcement, Unread]]":
    """The announcements made since `user` last opened the announcements page (or joined), newest
    first, each with `unread_count`, how many there are: a slice of them still knows the total."""
    unread = Announcement.objects.filter(created_at__gt=user.announcements_seen_at)
    return unread.annotate(unread_count=Window(Count("pk")))


def contact_message_list(*, waiting_only: bool = False) -> QuerySet[ContactMessage]:
    """The support messages, newest first, with who handled each and how many replies it had;
    `waiting_only`: those nobody has handled yet."""
    contacts = (
        ContactMessage.objects.select_related("handled_by")
        .annotate(reply_count=Count("replies"))
        .order_by("-created_at", "-id")  # the model's order is left out of a query that counts
    )
    return contacts.filter(handled_at__isnull=True) if waiting_only else contacts
