"""What the club's content tells people by e-mail: its new announcements (optional)."""

from django.conf import settings
from django.urls import reverse

from notifications.selectors import wanting
from notifications.services import absolute_url, notify

from .models import Announcement


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
