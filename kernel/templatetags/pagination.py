from django import template
from django.core.paginator import Page

register = template.Library()


@register.simple_tag
def page_numbers(page: Page[object]) -> list[int | str]:
    """The page numbers to offer around `page`: the first and last few, and … for the rest."""
    return list(page.paginator.get_elided_page_range(page.number))
