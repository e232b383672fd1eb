"""A booking's status and payment deadline, as every booking page writes them (bookings/tables.py);
moments and days themselves come from club_time."""

from django import template

from bookings.tables import deadline, status_badge

register = template.Library()
register.filter("deadline", deadline)
register.filter("status_badge", status_badge)
