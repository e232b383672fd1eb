from django.db.models import Count, QuerySet

from .models import Announcement, ContactMessage


def announcement_list() -> QuerySet[Announcement]:
    return Announcement.objects.all()


def contact_message_list(*, waiting_only: bool = False) -> QuerySet[ContactMessage]:
    """The support messages, newest first, with who handled each and how many replies it had;
    `waiting_only`: those nobody has handled yet."""
    contacts = (
        ContactMessage.objects.select_related("handled_by")
        .annotate(reply_count=Count("replies"))
        .order_by("-created_at", "-id")  # the model's order is left out of a query that counts
    )
    return contacts.filter(handled_at__isnull=True) if waiting_only else contacts
