"""People's text as the site keeps it. A name, a reason or a description is one line of printable
characters: it ends up in e-mail headers, calendar files and CSV cells, where a line break or
another control character changes what the rest means. A message (a support request, an
announcement) may break lines, and has no other control character either."""

import re

from django.core.exceptions import ValidationError

# The C0 and C1 control characters, DEL, and Unicode's own line and paragraph separators.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_BUT_LINE_BREAKS_AND_TABS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


def validate_one_line(value: str) -> None:
    if _CONTROL.search(value):
        raise ValidationError(
            "Write it on one line, without line breaks, tabs or other control characters.",
            code="control_characters",
        )


def validate_lines(value: str) -> None:
    if _CONTROL_BUT_LINE_BREAKS_AND_TABS.search(value):
        raise ValidationError(
            "Remove the control characters: only line breaks and tabs may stand between the words.",
            code="control_characters",
        )


def one_line(value: str) -> str:
    """`value` with each run of control characters and spaces as one space, for where a line break
    would change the meaning (a subject line, a calendar's name), whatever a row kept from before
    names refused them holds."""
    return " ".join(_CONTROL.sub(" ", value).split())
