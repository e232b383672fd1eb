"""Runs a command with the local stand-ins of the outside services around it, then stops them.

    python scripts/local_stack.py [--keep-accounts DIR] [--keep-payments FILE] [--webhook-url URL]
        -- COMMAND [ARG ...]

`make run` and `make dev` use it (the tests start their own: testing/environment.py). It starts,
unless one already answers at its address:
- the Firebase Auth Emulator (127.0.0.1:9099, project demo-club, no UI);
- localstripe (127.0.0.1:8420, started empty unless --keep-payments), with the app's webhook
  registered at URL if given;
- the local mailbox, aiosmtpd's SMTP server (127.0.0.1:1025) keeping each message in the Maildir
  var/mail/ (read by local/mailbox.py);
runs COMMAND with FIREBASE_AUTH_EMULATOR_HOST and STRIPE_API_BASE set, and stops what it started
when COMMAND ends (Ctrl-C included). With --keep-accounts the emulator's accounts are loaded from
DIR and saved back to it on exit, so they still match the database after a restart. Exits with
COMMAND's status.
With --keep-payments localstripe keeps what it knows (customers, payments, subscriptions) in FILE
and starts from it, so that the payments and memberships a kept database records are still known
to it, renewals included.
"""

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIREBASE = ROOT / "firebase"
LOGS = ROOT / "var"
EMULATOR_HOST = "127.0.0.1:9099"
LOCALSTRIPE = "http://127.0.0.1:8420"
MAIL_PORT = 1025
MAIL_DIR = LOGS / "mail"
PROJECT_ID = "demo-club"
# Must match STRIPE_WEBHOOK_SECRET's local default (club/settings.py).
WEBHOOK_SECRET = "whsec_local_only"  # noqa: S105 - a local-only placeholder
READY_TIMEOUT = 60  # seconds; the emulator is usually ready in about 4
STOP_TIMEOUT = 30  # seconds, time for the emulator to save its accounts on exit


def free_port() -> int:
    """A loopback port nothing listens on (for a server to start on, or to find nothing at), taken at
    random below the range the system hands out for connections (32768 up, on Linux): a server that
    takes seconds to start (the emulator) must not find its port taken by a connection meanwhile.
    Never the same port twice in a process: one handed out may not be listened on yet."""
    while True:
        port = random.randrange(20000, 32768)  # noqa: S311 - not a secret
        if port in _HANDED_OUT:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _HANDED_OUT.add(port)
        return port


_HANDED_OUT: set[int] = set()


def answering(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):  # noqa: S310 - local
            return True
    except urllib.error.HTTPError:
        return True  # it answered, if only to say no
    except OSError:
        return False


def listening(port: int) -> bool:
    """Whether a server takes connections on the loopback port (for one that speaks no HTTP)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def start(
    name: str, command: list[str], ready: str | Callable[[], bool], *, cwd: Path, env: dict | None = None
) -> subprocess.Popen:
    """Starts `command` and waits until it is ready: until `ready` (a URL) answers, or returns True."""
    is_ready = ready if callable(ready) else lambda: answering(ready)
    log = LOGS / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    # Its own session, so Ctrl-C reaches the command first and the service is stopped in order.
    process = subprocess.Popen(  # noqa: S603 - our own command line
        command, cwd=cwd, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    deadline = time.monotonic() + READY_TIMEOUT
    while not is_ready():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            sys.exit(f"{name} did not start; see {log}:\n{log.read_text()[-2000:]}")
        time.sleep(0.5)
    return process


def start_emulator(
    keep_accounts: Path | None = None,
    *,
    host: str = EMULATOR_HOST,
    project: str = PROJECT_ID,
    name: str = "firebase-emulator",
) -> subprocess.Popen:
    """The emulator of `project` at `host`, without its UI. Its hub and logger take free ports, so
    that several run side by side (the tests run one per process; firebase-tools finds a running
    emulator by its project)."""
    address, port = host.split(":")
    emulators = {
        "auth": {"host": address, "port": int(port)},
        "hub": {"host": address, "port": free_port()},
        "logging": {"host": address, "port": free_port()},
        "ui": {"enabled": False},
        "singleProjectMode": True,
    }
    config = LOGS / f"{name}.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"emulators": emulators}))
    command = [str(FIREBASE / "node_modules" / ".bin" / "firebase"), "emulators:start", "--only", "auth"]
    command += ["--project", project, "--config", str(config)]
    if keep_accounts:
        if (keep_accounts / "firebase-export-metadata.json").exists():
            command += ["--import", str(keep_accounts)]
        command += ["--export-on-exit", str(keep_accounts)]
    # The emulator compiles its request validators when first used, not all as it starts (~16 s).
    preload = f'--require "{FIREBASE / "compile-validators-on-first-use.cjs"}"'
    node_options = f"{os.environ.get('NODE_OPTIONS', '')} {preload}".strip()
    env = {**os.environ, "CI": "true", "NO_UPDATE_NOTIFIER": "1", "NODE_OPTIONS": node_options}
    return start(name, command, f"http://{host}/", cwd=FIREBASE, env=env)


def start_localstripe(
    base: str = LOCALSTRIPE,
    *,
    from_scratch: bool = True,
    name: str = "localstripe",
    store: Path | None = None,
) -> subprocess.Popen:
    """localstripe, keeping what it knows in `store` (default var/NAME.pickle;
    scripts/localstripe_server.py); without `from_scratch` it starts from what it last kept there,
    as after a restart of Stripe itself."""
    port = urllib.parse.urlsplit(base).port
    command = [sys.executable, str(ROOT / "scripts" / "localstripe_server.py"), "--port", str(port)]
    if from_scratch:
        command.append("--from-scratch")
    store = store or LOGS / f"{name}.pickle"
    store.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "LOCALSTRIPE_STORE": str(store.resolve())}
    return start(name, command, f"{base}/v1/charges", cwd=ROOT, env=env)


def start_mailbox(
    port: int = MAIL_PORT, folder: Path = MAIL_DIR, *, name: str = "mailbox"
) -> subprocess.Popen:
    # Maildir makes its own folders only in a new folder: not in one an older mailbox kept .eml in.
    for part in ("tmp", "new", "cur"):
        (folder / part).mkdir(parents=True, exist_ok=True)
    handler = "aiosmtpd.handlers.Mailbox"
    command = [sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{port}", "-c", handler, str(folder)]
    return start(name, command, lambda: listening(port), cwd=ROOT)


@contextmanager
def running(answers: Callable[[], bool], start_it: Callable[[], subprocess.Popen]) -> Iterator[None]:
    """A service while this lasts: the one that already answers, or one started now and stopped after."""
    if answers():
        yield
        return
    process = start_it()
    try:
        yield
    finally:
        stop(process)


def register_webhook(url: str, *, base: str = LOCALSTRIPE, secret: str = WEBHOOK_SECRET) -> None:
    """localstripe signs its events with the secret, as Stripe does, and delivers them to `url`."""
    body = urllib.parse.urlencode({"url": url, "secret": secret}).encode()
    request = urllib.request.Request(f"{base}/_config/webhooks/club", data=body, method="POST")  # noqa: S310
    with urllib.request.urlopen(request, timeout=5):  # noqa: S310 - local
        pass


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)  # the emulator saves its accounts on SIGINT
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--keep-accounts", type=Path, metavar="DIR")
    parser.add_argument("--keep-payments", type=Path, metavar="FILE")
    parser.add_argument("--webhook-url", metavar="URL")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    started = []
    try:
        if answering(f"http://{EMULATOR_HOST}/"):
            print(f"Using the Firebase Auth Emulator already running at {EMULATOR_HOST}.", file=sys.stderr)
        else:
            print(f"Starting the Firebase Auth Emulator at {EMULATOR_HOST}…", file=sys.stderr)
            # It runs in firebase/: the accounts folder must not be relative.
            started.append(start_emulator(args.keep_accounts.resolve() if args.keep_accounts else None))
        if answering(f"{LOCALSTRIPE}/v1/charges"):
            print(f"Using the localstripe already running at {LOCALSTRIPE}.", file=sys.stderr)
        else:
            print(f"Starting localstripe at {LOCALSTRIPE}…", file=sys.stderr)
            keep = args.keep_payments
            started.append(start_localstripe(from_scratch=keep is None, store=keep))
        if listening(MAIL_PORT):
            print(f"Using the mail server already running at 127.0.0.1:{MAIL_PORT}.", file=sys.stderr)
        else:
            print(f"Starting the local mailbox at 127.0.0.1:{MAIL_PORT} ({MAIL_DIR})…", file=sys.stderr)
            started.append(start_mailbox())
        if args.webhook_url:
            register_webhook(args.webhook_url)
        env = {**os.environ, "FIREBASE_AUTH_EMULATOR_HOST": EMULATOR_HOST, "STRIPE_API_BASE": LOCALSTRIPE}
        return subprocess.call(command, env=env)  # noqa: S603
    except KeyboardInterrupt:
        return 130
    finally:
        for process in reversed(started):
            stop(process)


if __name__ == "__main__":
    sys.exit(main())
