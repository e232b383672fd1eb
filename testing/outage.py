"""The site with parts a test can stop mid-run and start again (e2e/test_faults.py).

The site runs in a gunicorn process of its own, as in production, so that "without restarting the
app" is literal: the same process answers before, during and after an outage. The parts:
- localstripe of its own, which a test ends and starts again (it reloads what it had saved);
- a Firebase Auth Emulator of its own, which a test pauses (SIGSTOP) and resumes: it hangs, as a
  provider that does not answer. Ended and restarted, the emulator would revoke every session it
  had issued (its export moves each account's validSince), which Firebase itself never does;
- PostgreSQL through a relay that a test cuts: the machine's PostgreSQL also serves the rest of
  the suite (and other databases), so it is not ours to stop. A cut relay is what the site sees
  when PostgreSQL stops: its open connections drop and new ones are refused.
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

from scripts import local_stack

# The Firebase project of the site's own emulator: not the suite's, whose emulator has it.
PROJECT_ID = "demo-faults"
# After a call to the identity provider that got no answer, the site makes none for this long, then
# one trial call (IDENTITY_BREAKER_SECONDS, the default here: tests wait for it).
BREAKER_SECONDS = settings.IDENTITY_BREAKER_SECONDS


class Relay:
    """Passes TCP connections from its own port to `target`, until it is stopped."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.port = local_stack.free_port()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def stop(self) -> None:
        """Refuses new connections and drops the open ones."""
        if self._listener is not None:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() below
            self._listener.close()
            self._listener = None
        with self._lock:
            for connection in self._open:
                with contextlib.suppress(OSError):  # its other end may have hung up already
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self._open.clear()

    @property
    def running(self) -> bool:
        return self._listener is not None

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # stopped
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            # Passed on as they come, without waiting on Nagle's algorithm (as a direct connection,
            # whose ends write whole messages, would not).
            for end in (client, upstream):
                end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass  # dropped by stop(), or by either end
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):  # closed already
                    end.shutdown(socket.SHUT_RDWR)
            with self._lock:
                self._open.difference_update((source, sink))


class Process:
    """A part run as a process of its own: `launch` starts it and waits until it answers."""

    def __init__(self, launch: Callable[[], subprocess.Popen]) -> None:
        self._launch = launch
        self._process: subprocess.Popen | None = None
        self.paused = False

    def start(self) -> None:
        self._process = self._launch()

    def stop(self) -> None:
        if self._process is not None:
            self.resume()  # a stopped process would not see the SIGINT
            local_stack.stop(self._process)
            self._process = None

    def pause(self) -> None:
        """Stops the process without ending it (SIGSTOP): it still takes connections but answers
        none, as a provider that hangs. resume() lets it carry on where it was."""
        self._signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        self._signal(signal.SIGCONT)
        self.paused = False

    def _signal(self, number: signal.Signals) -> None:
        if self._process is None:
            raise RuntimeError("The process is not running.")
        os.killpg(self._process.pid, number)

    @property
    def running(self) -> bool:
        return self._process is not None and not self.paused

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None


class Site:
    """The site and its three parts, started in order; `url` is where the site answers."""

    def __init__(self, database: dict):
        self.database = Relay((database["HOST"] or "127.0.0.1", int(database["PORT"] or 5432)))
        emulator_host = f"127.0.0.1:{local_stack.free_port()}"
        self.identity = Process(
            lambda: local_stack.start_emulator(
                host=emulator_host, project=PROJECT_ID, name="firebase-emulator-faults"
            )
        )
        self.payments_base = f"http://127.0.0.1:{local_stack.free_port()}"
        # Not from scratch: after a restart it still knows the payments made before, as Stripe would.
        self.payments = Process(
            lambda: local_stack.start_localstripe(
                self.payments_base, from_scratch=False, name="localstripe-faults"
            )
        )
        self.emulator_host = emulator_host
        port = local_stack.free_port()
        self.url = f"http://127.0.0.1:{port}"
        database_url = f"postgres://{database['USER']}@127.0.0.1:{self.database.port}/{database['NAME']}"
        env = {
            **os.environ,
            "LOCAL_MODE": "true",
            "DATABASE_URL": database_url,
            "FIREBASE_AUTH_EMULATOR_HOST": emulator_host,
            "FIREBASE_PROJECT_ID": PROJECT_ID,
            "STRIPE_API_BASE": self.payments_base,
            "CACHE_URL": "locmemcache://",
            # Short, so that a test sees the site give up on a provider that hangs quickly.
            "PROVIDER_TIMEOUT": "2",
            # Every test signs people in afresh, more often than people do.
            "RATE_SESSION": "1000/min",
            "RATE_SESSION_ACCOUNT": "1000/min",
        }
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        # One worker: the same process, with the same kept database connection, sees it all.
        command = [gunicorn, "club.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
        self.app = Process(
            lambda: local_stack.start(
                "app-faults", command, f"{self.url}/healthz", cwd=local_stack.ROOT, env=env
            )
        )
        self.parts: dict[str, Relay | Process] = {
            "database": self.database,
            "identity": self.identity,
            "payments": self.payments,
        }

    def start(self) -> None:
        for part in self.parts.values():
            part.start()
        self.app.start()

    def restore(self) -> None:
        """Every part up again, after a test that may have failed with one of them down."""
        for part in self.parts.values():
            if isinstance(part, Process) and part.paused:
                part.resume()
            if not part.running:
                part.start()

    def stop(self) -> None:
        self.app.stop()
        for part in self.parts.values():
            if part.running:
                part.stop()
