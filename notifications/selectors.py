from collections.abc import Mapping

from django.db.models import QuerySet

from accounts.models import User

from .models import Notification, Preferences


def told_about(*, event: str) -> QuerySet[Notification, Mapping[str, object]]:
    """What `event` has told (or will tell) someone of: the `about` of its messages."""
    return Notification.objects.filter(event=event).values("about")


def wanting(*, optional: str) -> QuerySet[User]:
    """The people who get the optional messages of `optional` (all but those who turned them off)."""
    turned_off = Preferences.objects.filter(**{optional: False}).values("user")
    return User.objects.exclude(pk__in=turned_off).order_by("pk")
