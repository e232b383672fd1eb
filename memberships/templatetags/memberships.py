from typing import Any, cast

from django import template

from memberships.selectors import club_sells_memberships

register = template.Library()


@register.simple_tag(takes_context=True)
def sells_memberships(context: template.Context) -> bool:
    """Whether the club sells memberships (a plan on sale), asked once per page however often the
    page's templates ask (the navbar and its small-screen menu both do)."""
    page = cast(dict[str, Any], context.render_context.dicts[0])  # any values: the stubs say str
    if "sells_memberships" not in page:
        page["sells_memberships"] = club_sells_memberships()
    return bool(page["sells_memberships"])
