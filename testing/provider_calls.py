"""A relay in front of the Firebase Auth Emulator that counts the calls reaching it.

Point the site's `FIREBASE_AUTH_EMULATOR_HOST` at `relay.host` and every call the site makes to the
identity provider passes through it and is counted by what it asks (the last part of its path:
`lookup` for an account's record, the revocation check; `createSessionCookie` for a sign-in). The
identity tests and bench/identity_calls.py read the counts; the site knows nothing of it.
"""

import http.client
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Hop-by-hop headers, and the length the relay sets itself.
_NOT_RELAYED = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


def call_name(path: str) -> str:
    """`/identitytoolkit.googleapis.com/v1/projects/p/accounts:lookup` → `lookup`."""
    last = path.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return last.rsplit(":", 1)[-1]


class CountingRelay:
    def __init__(self, target: str):
        """`target`: the emulator's host:port."""
        self.target = target
        self.calls: Counter[str] = Counter()
        self._lock = threading.Lock()
        relay = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps connections open, as firebase-admin's session does
            # Headers and body leave in two writes: without TCP_NODELAY the body would wait for the
            # client's delayed acknowledgement of the headers (up to 40 ms) on a kept-alive connection.
            disable_nagle_algorithm = True

            def relay(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                with relay._lock:
                    relay.calls[call_name(self.path)] += 1
                upstream = http.client.HTTPConnection(relay.target, timeout=120)
                try:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in _NOT_RELAYED}
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    answer = upstream.getresponse()
                    content = answer.read()
                finally:
                    upstream.close()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in _NOT_RELAYED:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = relay

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._serving: threading.Thread | None = None
        self._server.daemon_threads = True
        self.host = f"127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> "CountingRelay":
        self._serving = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._serving.start()
        return self

    def stop(self) -> None:
        if self._serving:  # shutdown() waits for a serve_forever() that never started
            self._server.shutdown()
        self._server.server_close()

    def count(self, *names: str) -> int:
        """How many calls of these kinds (all kinds if none is named) have passed so far."""
        with self._lock:
            return sum(n for name, n in self.calls.items() if not names or name in names)

    def snapshot(self) -> Counter[str]:
        with self._lock:
            return Counter(self.calls)
