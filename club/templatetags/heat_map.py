"""The reports' heat map cells (templates/dashboard/_heat_map.html), written in Python: 40 courts
make 560 of them, which the template language's lookups made the slowest part of the page."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from bookings.reports import Use

register = template.Library()

# The shade of a cell by its share booked, in fifths (dashboard.css reads the class names here).
HEAT = ["bg-base-100", "bg-primary/10", "bg-primary/25", "bg-primary/40", "bg-primary text-primary-content"]
NO_SLOTS = "bg-base-200"


@register.simple_tag
def heat_cells(uses: list[Use]) -> SafeString:
    return format_html_join("", '<td class="{}" title="{}">{}</td>', map(_cell, uses))


def _cell(use: Use) -> tuple[str, str, str]:
    """The cell's class, title and text."""
    percent = use.percent
    blocked = f", {use.blocked} blocked" if use.blocked else ""
    title = f"{use.booked} of {use.bookable} bookable slots booked{blocked}"
    if percent is None:
        return NO_SLOTS, title, "\N{EM DASH}"
    return HEAT[min(percent // 20, 4)], title, f"{percent}%"
