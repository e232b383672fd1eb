"""The moments of a booking, written as every booking page writes them (bookings/tables.py)."""

from django import template

from bookings.tables import deadline, status_badge, when

register = template.Library()
register.filter("when", when)
register.filter("deadline", deadline)
register.filter("status_badge", status_badge)
