from django import template

register = template.Library()


@register.simple_tag
def page_numbers(page) -> list:
    """The page numbers to offer around `page`: the first and last few, and … for the rest."""
    return list(page.paginator.get_elided_page_range(page.number))
