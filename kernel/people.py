"""A person as the admins' lists show them: the name people know them by, with the e-mail that
tells two namesakes apart."""

from django.utils.html import format_html
from django.utils.safestring import SafeString


def person(name: str, email: str) -> SafeString:
    """The name, and the e-mail under it; the e-mail alone for someone without a name. A long
    address breaks anywhere rather than widen its column."""
    if not name:
        return format_html('<span class="break-all">{}</span>', email)
    return format_html(
        '<span class="font-medium">{}</span>'
        '<span class="block text-xs text-base-content/70 break-all">{}</span>',
        name,
        email,
    )
