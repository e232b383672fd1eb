"""What the logs may hold: never a secret that stands in an address. A calendar feed's secret
(/calendar/<secret>.ics) reads a person's bookings and an e-mail's unsubscribe token
(/unsubscribe/<token>) changes their preferences, so gunicorn's access log and the site's own log
lines write those parts of a path as [secret]."""

import logging
import re
from datetime import timedelta
from typing import TYPE_CHECKING, cast

from gunicorn.config import Config
from gunicorn.glogging import Logger
from gunicorn.http import Request
from gunicorn.http.wsgi import Response

if TYPE_CHECKING:
    from gunicorn._types import _EnvironType
    from gunicorn.glogging import _AtomsDict

# The paths of bookings:calendar-feed and notifications:unsubscribe.
_SECRET_IN_PATH = re.compile(r"(?<=/calendar/)[^/?#\s\"']+(?=\.ics)|(?<=/unsubscribe/)[^/?#\s\"']+")


def redact(text: str) -> str:
    return _SECRET_IN_PATH.sub("[secret]", text)


class AccessLogger(Logger):
    """gunicorn's logger (gunicorn.conf.py), with the secrets out of every part of an access-log
    line and out of its error log ("Error handling request <path>")."""

    def setup(self, cfg: Config) -> None:
        super().setup(cfg)
        self.error_log.addFilter(RedactSecrets())

    def atoms(
        self, resp: Response, req: Request, environ: "_EnvironType", request_time: timedelta
    ) -> "_AtomsDict":
        atoms = super().atoms(resp, req, environ, request_time)
        # The same atoms, their text redacted.
        return cast(
            "_AtomsDict",
            {name: redact(value) if isinstance(value, str) else value for name, value in atoms.items()},
        )


class RedactSecrets(logging.Filter):
    """The site's log lines without the secrets (Django's "Not Found: <path>", say)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _SECRET_IN_PATH.search(message):
            record.msg, record.args = redact(message), ()
        return True
