"""A person as the admins' lists show them: the name people know them by, with the e-mail that
tells two namesakes apart."""

import re

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

# Where an address may break when its column is narrow: after the "@" and before each dot (and
# after a hyphen, as any text), where a reader still sees whole words ("dana.novak@" / "players").
_BREAK_AT = re.compile(r"(?<=@)|(?=\.)")


def email_html(email: str) -> SafeString:
    """The address, breaking only where a reader expects it (and inside a word only if a part is
    wider than its column)."""
    parts = _BREAK_AT.split(email)
    return format_html(
        '<span class="wrap-break-word">{}</span>',
        mark_safe("<wbr>".join(escape(part) for part in parts)),  # noqa: S308 (each part escaped)
    )


def person(name: str, email: str) -> SafeString:
    """The name, and the e-mail under it; the e-mail alone for someone without a name."""
    if not name:
        return email_html(email)
    return format_html(
        '<span class="font-medium">{}</span><span class="block text-xs text-base-content/70">{}</span>',
        name,
        email_html(email),
    )
