"""The local mailbox as the tests use it: a real SMTP server (aiosmtpd's, keeping a Maildir that
local/mailbox.py reads) on the port and in the folder that testing/environment.py gave the
site (EMAIL_URL, MAIL_DIR), which a test may stop and start again to see what the site does while
the mail server is away.

Django's test environment swaps the mailers for its in-memory outbox; a test that asks for the
`mailbox` fixture gets SMTP back (`smtp_mailers`), so its mail takes the production path."""

import os
import shutil
import urllib.parse
from pathlib import Path
from typing import cast

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox as KeepInMaildir
from django.conf import settings

from local import mailbox


class Mailbox:
    def __init__(self, folder: Path, port: int):
        self.folder, self.port = folder, port
        self._server: Controller | None = None

    def start(self) -> None:
        if self._server is None:
            self._server = Controller(KeepInMaildir(self.folder), hostname="127.0.0.1", port=self.port)
            self._server.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    def clear(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        KeepInMaildir(self.folder)  # the Maildir's folders, made afresh for the running server

    def messages(self, to: str = "") -> list[mailbox.Mail]:
        """What arrived (to one address if given), the oldest first."""
        kept = reversed(mailbox.messages(self.folder))
        return [mail for mail in kept if not to or to in mail.to]


def mailbox_of_the_tests() -> Mailbox:
    port = urllib.parse.urlsplit(os.environ["EMAIL_URL"]).port
    return Mailbox(settings.MAIL_DIR, cast(int, port))  # testing.environment gives EMAIL_URL a port


def smtp_mailers(mailbox: Mailbox) -> dict:
    options = {"host": "127.0.0.1", "port": mailbox.port, "timeout": 5}
    return {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": options}}
