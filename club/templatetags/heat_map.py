"""The reports' heat map cells (templates/dashboard/_heat_map.html), written in Python: the court by
hour map of 40 courts has 560 of them, which the template language's lookups make the slowest
part of the page. Each cell holds its figure, so the shade only helps the eye."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from bookings.reports import Use

register = template.Library()

# The shade of a cell by its share booked, in fifths (dashboard.css reads the class names here).
HEAT = ["bg-base-100", "bg-primary/10", "bg-primary/25", "bg-primary/40", "bg-primary text-primary-content"]
NO_SLOTS = "bg-base-200"


@register.simple_tag
def heat_cells(uses: list[Use]) -> SafeString:
    return mark_safe("".join(map(_cell, uses)))  # noqa: S308 - numbers only


def _cell(use: Use) -> str:
    percent = use.percent
    blocked = f", {use.blocked} blocked" if use.blocked else ""
    title = f"{use.booked} of {use.bookable} bookable slots booked{blocked}"
    if percent is None:
        return f'<td class="{NO_SLOTS}" title="{title}">\N{EM DASH}</td>'
    return f'<td class="{HEAT[min(percent // 20, 4)]}" title="{title}">{percent}%</td>'
