"""People's text as the site keeps it. A name, a reason or a description is one line of printable
characters: it ends up in e-mail headers, calendar files and CSV cells, where a line break or
another control character changes what the rest means. A message (a support request, an
announcement) may break lines, and has no other control character either."""

import re

from django.core.exceptions import ValidationError

# The C0 and C1 control characters, DEL, and Unicode's own line and paragraph separators.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_BUT_LINE_BREAKS_AND_TABS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


ONE_LINE = "Write it on one line, without line breaks, tabs or other control characters."
LINES = "Remove the control characters: only line breaks and tabs may stand between the words."


def one_line_refusal(value: str) -> str:
    """Why `value` cannot be a name, a reason or a description; "" when it can."""
    return ONE_LINE if _CONTROL.search(value) else ""


def validate_one_line(value: str) -> None:
    if refusal := one_line_refusal(value):
        raise ValidationError(refusal, code="control_characters")


def validate_lines(value: str) -> None:
    if _CONTROL_BUT_LINE_BREAKS_AND_TABS.search(value):
        raise ValidationError(LINES, code="control_characters")


def one_line(value: str) -> str:
    """`value` with each run of control characters and spaces as one space, for where a line break
    would change the meaning (a subject line): a row saved from a shell may hold any character."""
    return " ".join(_CONTROL.sub(" ", value).split())
