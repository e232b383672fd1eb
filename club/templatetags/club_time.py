"""The one way the site writes a date or a moment, in the club's time zone (settings.TIME_ZONE).

    {% load club_time %}
    {{ payment.paid_at|when }}   November 24, 2026, 3:05 PM
    {{ booking.date|day }}       November 24, 2026

The islands write them the same way with frontend/src/lib/time.ts; change both together.
"""

from datetime import date, datetime

from django import template
from django.utils import timezone
from django.utils.formats import date_format

register = template.Library()

# Long date (the spec's announcements: long date plus time), and the time in 12 hours.
DAY = "F j, Y"
MOMENT = f"{DAY}, g:i A"


@register.filter
def when(moment: datetime | None) -> str:
    """A moment (an aware datetime) in the club's time zone."""
    return date_format(timezone.localtime(moment), MOMENT) if moment else ""


@register.filter
def day(value: date | datetime | None) -> str:
    """A calendar day; a moment gives its day in the club's time zone."""
    if not value:
        return ""
    if isinstance(value, datetime):
        value = timezone.localtime(value)
    return date_format(value, DAY)
