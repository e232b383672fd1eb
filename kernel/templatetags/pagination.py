from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def page_url(context, number: int) -> str:
    """This page's address at page `number`, keeping its other query parameters (search, filters)."""
    query = context["request"].GET.copy()
    query["page"] = number
    return f"?{query.urlencode()}"


@register.simple_tag
def page_numbers(page) -> list:
    """The page numbers to offer around `page`: the first and last few, and … for the rest."""
    return list(page.paginator.get_elided_page_range(page.number))
