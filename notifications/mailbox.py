"""The local mailbox: an SMTP server on loopback that keeps every message it receives as one `.eml`
file in a folder, and the reader of that folder.

In local mode the site sends its e-mail here through the same SMTP code as production; the local mail
page (notifications/local.py) and the tests read what it kept. It imports nothing of Django, so that
scripts/local_stack.py can run it before the site is configured:

    python -m notifications.mailbox --port 1025 --folder var/mail
"""

import argparse
import email
import email.policy
import itertools
import signal
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path


class _KeepMessages:
    """aiosmtpd's handler: a message is on disk before the server says 250."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._lock = threading.Lock()
        self._count = itertools.count()

    async def handle_DATA(self, server, session, envelope):
        with self._lock:
            # Names sort in arrival order; the counter keeps two messages of one nanosecond apart.
            name = f"{time.time_ns():020d}-{next(self._count):06d}.eml"
            partial = self.folder / f".{name}.part"
            partial.write_bytes(envelope.original_content or envelope.content)
            partial.rename(self.folder / name)  # readers never see half a message
        return "250 Message accepted for delivery"


def serve(folder: Path, port: int):
    """Starts the server in a thread of its own; `.stop()` on the answer ends it."""
    from aiosmtpd.controller import Controller  # a development tool: not installed in production

    folder.mkdir(parents=True, exist_ok=True)
    controller = Controller(_KeepMessages(folder), hostname="127.0.0.1", port=port)
    controller.start()
    return controller


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


def read(path: Path) -> Mail:
    # The default policy parses into EmailMessage (the modern API: get_body, iter_attachments).
    message: EmailMessage = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)  # type: ignore[assignment]
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    return Mail(
        id=path.stem,
        sender=str(message["From"] or ""),
        to=str(message["To"] or ""),
        subject=str(message["Subject"] or ""),
        date=str(message["Date"] or ""),
        text=text.get_content() if text else "",
        html=html.get_content() if html else "",
        attachments=tuple(
            Attachment(
                part.get_filename() or "", part.get_content_type(), part.get_payload(decode=True) or b""
            )
            for part in message.iter_attachments()
        ),
        headers={key: str(value) for key, value in message.items()},
    )


def messages(folder: Path, limit: int | None = None) -> list[Mail]:
    """The kept messages, the newest first (the newest `limit` of them: only those are read)."""
    return [read(path) for path in sorted(folder.glob("*.eml"), reverse=True)[:limit]]


def find(folder: Path, mail_id: str) -> Mail | None:
    path = folder / f"{mail_id}.eml"
    # Only a name this folder gave out: nothing with a path in it.
    if not mail_id.replace("-", "").isdigit() or not path.is_file():
        return None
    return read(path)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--port", type=int, default=1025)
    parser.add_argument("--folder", type=Path, required=True)
    args = parser.parse_args()
    controller = serve(args.folder, args.port)
    print(f"Keeping the mail sent to 127.0.0.1:{args.port} in {args.folder}", flush=True)
    stopped = threading.Event()
    # Ctrl-C or a stop from the stack script ends it, even when started from a shell that made it
    # ignore SIGINT (a background job's inheritance).
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, lambda *_: stopped.set())
    stopped.wait()
    controller.stop()


if __name__ == "__main__":
    main()
