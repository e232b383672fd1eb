"""Bookings as iCalendar (RFC 5545): a person's calendar feed, and one booking as an .ics file."""

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from icalendar import STATUS, Calendar, Event, vDuration
from rest_framework.request import Request

from kernel.slots import Slot
from kernel.text import one_line

from .models import Booking, CalendarFeed
from .selectors import with_calendar_fields

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from .selectors import CalendarFields

# How often a subscribed calendar app is asked to fetch the feed again.
REFRESH_INTERVAL = timedelta(hours=1)


def booking_event(booking: "WithAnnotations[Booking, CalendarFields]") -> Event:
    """A booking ever confirmed (with_calendar_fields), as an event: cancelled once it is not."""
    # A court's slots never overlap: the earliest starts the booking, the latest ends it.
    slots = sorted(map(Slot.parse, booking.slots))
    club = settings.SITE_NAME
    return Event.new(
        # The club's e-mail domain, the same whatever address the site has: a UID never changes.
        uid=f"booking-{booking.pk}@{settings.CLUB_CONTACT['email'].rpartition('@')[2]}",
        sequence=booking.sequence,
        stamp=booking.changed_at,
        last_modified=booking.changed_at,
        start=slots[0].starts_at(booking.date),
        end=slots[-1].ends_at(booking.date),
        summary=f"{booking.court_name} at {club}",
        location=f"{booking.court_name}, {club}, {settings.CLUB_CONTACT['address']}",
        # A date of a series is an event of its own, which says so.
        description=f"Booking #{booking.pk}: {booking.slots_label}."
        + (" One date of a series." if booking.series_id else ""),
        status=STATUS.CONFIRMED if booking.status == Booking.Status.CONFIRMED else STATUS.CANCELLED,
    )


def bookings_calendar(
    bookings: Iterable["WithAnnotations[Booking, CalendarFields]"], *, name: str
) -> Calendar:
    """A calendar of `bookings` (with_calendar_fields), with the club's time zone over their dates."""
    calendar = Calendar()
    calendar.prodid = f"-//{settings.SITE_NAME}//Bookings//EN"
    calendar.version = "2.0"
    # icalendar does not escape the name's line breaks, which would break the file.
    calendar.calendar_name = one_line(name)
    # RFC 7986 wants the value type named, which the property's setter leaves out.
    calendar.add("REFRESH-INTERVAL", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    # Outlook and Apple Calendar read the refresh interval from this older property.
    calendar.add("X-PUBLISHED-TTL", vDuration(REFRESH_INTERVAL))
    events = [booking_event(booking) for booking in bookings]
    for event in events:
        calendar.add_component(event)
    if events:
        # booking_event starts and ends each event at a moment, never a whole day (a date).
        calendar.add_missing_timezones(
            first_date=min(cast(datetime, event.start) for event in events).date(),
            last_date=max(cast(datetime, event.end) for event in events).date() + timedelta(days=1),
        )
    return calendar


def booking_ics(booking: Booking) -> bytes:
    """One booking that is or has been confirmed, as an .ics file."""
    fields = with_calendar_fields(Booking.objects.filter(pk=booking.pk)).get()
    calendar = bookings_calendar([fields], name=f"{fields.court_name} at {settings.SITE_NAME}")
    ics: bytes = calendar.to_ical()
    return ics


def feed_url(request: HttpRequest | Request, feed: CalendarFeed) -> str:
    return request.build_absolute_uri(reverse("bookings:calendar-feed", args=[feed.secret]))


def webcal(url: str) -> str:
    """An http(s) address as webcal://, which opens the calendar app to subscribe to it."""
    return "webcal://" + url.partition("://")[2]
