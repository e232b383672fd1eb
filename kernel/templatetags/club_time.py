"""The one way the site writes a date or a moment, in the club's time zone (kernel.days):

{% load club_time %}
{{ payment.paid_at|when }}   November 24, 2026, 3:05 PM
{{ booking.date|day }}       November 24, 2026
{{ payment.period_start|days:payment.period_end }}
                             December 5, 2026 – January 5, 2027
"""

from django import template

from kernel.days import day, days, when

register = template.Library()
register.filter(day)
register.filter(days)
register.filter(when)
