"""The reader of the local mailbox: the Maildir where aiosmtpd's own SMTP server keeps every
message it receives (a development tool, not installed in production):

    python -m aiosmtpd -n -l 127.0.0.1:1025 -c aiosmtpd.handlers.Mailbox var/mail

In local mode the site sends its e-mail there through the same SMTP code as production; the local
mail page (mail.py) and the tests read what it kept. scripts/local_stack.py starts it.
"""

import email
import email.policy
import mailbox
import re
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import cast


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str
    content: bytes


@dataclass(frozen=True)
class Mail:
    id: str
    sender: str
    to: str
    subject: str
    date: str
    text: str
    html: str
    attachments: tuple[Attachment, ...]
    headers: dict[str, str]


def _read(folder: mailbox.Maildir, key: str) -> Mail:
    # The default policy parses into EmailMessage (the modern API: get_body, iter_attachments).
    message: EmailMessage = email.message_from_bytes(folder.get_bytes(key), policy=email.policy.default)
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    return Mail(
        id=key,
        sender=str(message["From"] or ""),
        to=str(message["To"] or ""),
        subject=str(message["Subject"] or ""),
        date=str(message["Date"] or ""),
        text=text.get_content() if text else "",
        html=html.get_content() if html else "",
        attachments=tuple(
            Attachment(
                part.get_filename() or "",
                part.get_content_type(),
                # Decoded, an attachment is bytes (typeshed allows a Message, which a leaf is not).
                cast(bytes | None, part.get_payload(decode=True)) or b"",
            )
            for part in message.iter_attachments()
        ),
        headers={key: str(value) for key, value in message.items()},
    )


def _arrival(key: str) -> tuple[int, int]:
    """A Maildir name's second of arrival, and the server's count of the messages it kept, which
    orders those of one second exactly (two of them may share a reading of the clock)."""
    second, count = re.match(r"(\d+)\.M\d+P\d+Q(\d+)", key).groups()  # type: ignore[union-attr]
    return int(second), int(count)


def messages(folder: Path, limit: int | None = None) -> list[Mail]:
    """The kept messages, the newest first (the newest `limit` of them: only those are read)."""
    kept = mailbox.Maildir(folder)
    return [_read(kept, key) for key in sorted(kept.keys(), key=_arrival, reverse=True)[:limit]]


def find(folder: Path, mail_id: str) -> Mail | None:
    kept = mailbox.Maildir(folder)
    # Only a name this folder gave out, looked up among its own.
    return _read(kept, mail_id) if mail_id in kept else None
