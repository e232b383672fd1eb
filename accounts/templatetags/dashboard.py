from django import template
from django.urls import reverse

from accounts.navigation import SIDEBAR_LINKS

register = template.Library()


@register.inclusion_tag("includes/sidebar_links.html", takes_context=True)
def sidebar_links(context):
    request = context["request"]
    current = request.resolver_match.view_name if request.resolver_match else ""
    links = SIDEBAR_LINKS.get(request.user.role, []) if request.user.is_authenticated else []
    return {"links": [(reverse(name), label, name == current) for name, label in links]}
