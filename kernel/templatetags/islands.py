"""The contract between templates and React islands.

    {% island "toasts" props %}<p>What shows before (or without) JavaScript</p>{% endisland %}

renders a mount element, its props as a json_script block under an id unique in the page, and the
island's Vite entry (`frontend/src/islands/<name>.tsx`) once per page. The entry's
`mountIslands("toasts", Component)` (frontend/src/lib/islands.tsx) renders the component in place of
the fallback. What all islands share (the CSRF token, API URLs) is the `island-config` blob instead.
"""

from collections.abc import Iterable
from typing import Any, cast

from django import template
from django.contrib.messages.storage.base import Message
from django.template.context import Context
from django.utils.html import format_html, json_script
from django.utils.safestring import mark_safe
from django_vite.templatetags.django_vite import vite_asset

register = template.Library()


@register.simple_block_tag(takes_context=True, end_name="endisland")
def island(context: Context, content: str, name: str, props: dict[str, Any] | None = None) -> str:
    # The render context gives each template, and so each {% include %}, a scope of its own; its
    # bottom dict is the one the whole page shares, so ids and entries count across includes.
    page = cast(dict[str, Any], context.render_context.dicts[0])  # any values: the stubs say str
    state = page.setdefault("islands", {"count": 0, "entries": set()})
    state["count"] += 1
    props_id = f"island-props-{state['count']}"
    entry = f"src/islands/{name}.tsx"
    script = "" if entry in state["entries"] else vite_asset(entry)
    state["entries"].add(entry)
    return format_html(
        '<div data-island="{}" data-props-id="{}">{}</div>{}{}',
        name,
        props_id,
        content,  # the fallback: what shows before (or without) JavaScript
        json_script(props or {}, props_id),
        mark_safe(script),  # noqa: S308 - tags built by django-vite from its manifest
    )


@register.simple_tag(takes_context=True)
def island_config(context: Context) -> str:
    return json_script(context["island_config"](), "island-config")


TOAST_KINDS = {"success": "success", "error": "error", "warning": "error"}


@register.filter
def toast_props(messages: Iterable[Message]) -> dict[str, list[dict[str, str]]]:
    """Django messages as the toasts island's props (frontend/src/islands/toasts.tsx)."""
    return {"messages": [{"kind": TOAST_KINDS.get(m.level_tag, "info"), "text": str(m)} for m in messages]}
