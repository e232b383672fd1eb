"""Runs a command with the local stand-ins of the outside services around it, then stops them.

    python scripts/local_stack.py [--keep-accounts DIR] -- COMMAND [ARG ...]

`make run`, `make dev` and `make test` use it. It starts the Firebase Auth Emulator
(firebase/firebase.json: 127.0.0.1:9099, project demo-club, no UI) unless one already answers
there, runs COMMAND with FIREBASE_AUTH_EMULATOR_HOST set, and stops the emulator when COMMAND
ends (Ctrl-C included). With --keep-accounts the emulator's accounts are loaded from DIR and saved
back to it on exit, so they still match the database after a restart. Exits with COMMAND's status.
"""

import argparse
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIREBASE = ROOT / "firebase"
EMULATOR_HOST = "127.0.0.1:9099"
PROJECT_ID = "demo-club"
READY_TIMEOUT = 60  # seconds; it is usually ready in about 10
STOP_TIMEOUT = 30  # seconds, time to save the accounts on exit


def answering(host: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://{host}/", timeout=1):
            return True
    except OSError:
        return False


def start_emulator(keep_accounts: Path | None, log: Path) -> subprocess.Popen:
    command = [
        str(FIREBASE / "node_modules" / ".bin" / "firebase"),
        "emulators:start",
        "--only",
        "auth",
        "--project",
        PROJECT_ID,
        "--config",
        str(FIREBASE / "firebase.json"),
    ]
    if keep_accounts:
        if (keep_accounts / "firebase-export-metadata.json").exists():
            command += ["--import", str(keep_accounts)]
        command += ["--export-on-exit", str(keep_accounts)]
    log.parent.mkdir(parents=True, exist_ok=True)
    # Its own session, so Ctrl-C reaches the command first and the emulator is stopped in order.
    emulator = subprocess.Popen(  # noqa: S603 - our own command line
        command,
        cwd=FIREBASE,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        env={**os.environ, "CI": "true", "NO_UPDATE_NOTIFIER": "1"},
        start_new_session=True,
    )
    deadline = time.monotonic() + READY_TIMEOUT
    while not answering(EMULATOR_HOST):
        if emulator.poll() is not None or time.monotonic() > deadline:
            stop(emulator)
            sys.exit(f"The Firebase Auth Emulator did not start; see {log}:\n{log.read_text()[-2000:]}")
        time.sleep(0.5)
    return emulator


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
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    emulator = None
    if answering(EMULATOR_HOST):
        print(f"Using the Firebase Auth Emulator already running at {EMULATOR_HOST}.", file=sys.stderr)
    else:
        print(f"Starting the Firebase Auth Emulator at {EMULATOR_HOST}…", file=sys.stderr)
        keep_accounts = args.keep_accounts.resolve() if args.keep_accounts else None  # it runs in firebase/
        emulator = start_emulator(keep_accounts, ROOT / "var" / "firebase-emulator.log")
    try:
        return subprocess.call(command, env={**os.environ, "FIREBASE_AUTH_EMULATOR_HOST": EMULATOR_HOST})  # noqa: S603
    except KeyboardInterrupt:
        return 130
    finally:
        if emulator:
            stop(emulator)


if __name__ == "__main__":
    sys.exit(main())
