"""Page weight of the production build, as a browser downloads it.

Method
------
1. The production build is served the way it is deployed: gunicorn with whitenoise, from the Vite
   build (frontend/dist) and the collected static files (staticfiles/). The script does not build
   anything; it stops with a message when `make build` has not run. It migrates and seeds the demo
   data (local mode: SQLite under var/ unless DATABASE_URL is set), then starts gunicorn on a free
   loopback port and waits until /healthz answers 200.
2. Each page is loaded in headless Chromium (the system one, through Playwright) in a fresh browser
   context, so nothing is cached from one page to the next, and measured once the page has loaded
   and the network has gone idle. Chromium asks for br/gzip, so whitenoise sends its precompressed
   files; Playwright's `request.sizes()["responseBodySize"]` is the body as it came over the wire
   (encoded), `len(response.body())` the body after decoding. Requests to anything but the local
   server are aborted.
3. Per page it prints the bytes of HTML, JavaScript, CSS and images, the request count, whether
   any JavaScript (a React island) was loaded, and the first paint: the compressed HTML plus every
   stylesheet the page loaded, against 14 kB (14 * 1024 bytes) -- what a new TCP connection can
   deliver in its first round trip (initial congestion window of 10 segments). Bodies only: the
   response headers, and TLS in production, come on top.

Usage (seed_demo needs the local Firebase Auth Emulator, so inside the local stack):
    .venv/bin/python scripts/local_stack.py -- .venv/bin/python bench/page_weight.py [-v] [PATH ...]
(default: / /courts /support; -v also lists every response)
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Error, Request, Response, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, yet share the project's Chromium setup
from scripts import local_stack  # noqa: E402
from testing import chromium  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
BUILD_OUTPUTS = [ROOT / "frontend" / "dist" / "manifest.json", ROOT / "staticfiles" / "staticfiles.json"]

DEFAULT_PATHS = ["/", "/courts", "/support"]
FIRST_PAINT_BUDGET = 14 * 1024  # bytes


# Every wait is bounded, so the whole run is too.
SETUP_TIMEOUT = 120  # seconds, for migrate and seed_demo each
STARTUP_TIMEOUT = 20  # seconds, until /healthz answers 200
SHUTDOWN_TIMEOUT = 10  # seconds, after SIGTERM before SIGKILL
PAGE_TIMEOUT = 15_000  # milliseconds, per navigation or wait in the browser


@dataclass
class Resource:
    url: str
    type: str  # Playwright's resource type: document, script, stylesheet, image, font, fetch, ...
    status: int
    encoding: str  # the Content-Encoding it came with: br, gzip, or "" for none
    encoded: int  # body bytes on the wire
    decoded: int  # body bytes after decompression


@dataclass
class PageWeight:
    path: str
    status: int | None = None
    resources: list[Resource] = field(default_factory=list)

    def encoded(self, *types: str) -> int:
        return sum(r.encoded for r in self.resources if r.type in types)

    def decoded(self, *types: str) -> int:
        return sum(r.decoded for r in self.resources if r.type in types)

    @property
    def first_paint(self) -> int:
        return self.encoded("document", "stylesheet")

    @property
    def has_javascript(self) -> bool:
        return any(r.type == "script" for r in self.resources)


# --- The server -------------------------------------------------------------------------------
def server_environment() -> dict[str, str]:
    """The inherited environment in local mode, pinned to the production build (no Vite dev server)."""
    return {**os.environ, "LOCAL_MODE": "true", "DEBUG": "false", "VITE_DEV_MODE": "false"}


def check_build() -> None:
    missing = [path.relative_to(ROOT) for path in BUILD_OUTPUTS if not path.is_file()]
    if missing:
        names = ", ".join(str(path) for path in missing)
        sys.exit(f"The production build is missing ({names}). Run `make build` first.")


def prepare_database(env: dict[str, str]) -> None:
    """Migrations and the demo data, so the pages show what `make run` shows."""
    (ROOT / "var").mkdir(exist_ok=True)
    for command in (["migrate", "--noinput"], ["seed_demo"]):
        result = subprocess.run(
            [str(PYTHON), "manage.py", *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=SETUP_TIMEOUT,
            check=False,
        )
        if result.returncode != 0:
            sys.exit(f"`manage.py {' '.join(command)}` failed:\n{result.stdout}{result.stderr}")


def answers_ok(url: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
    try:
        with opener.open(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def gunicorn(env: dict[str, str]) -> Iterator[str]:
    """Serves the site on a free loopback port for the duration; yields its base URL."""
    port = local_stack.free_port()
    base_url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile(mode="w+") as log:
        server = subprocess.Popen(
            [str(GUNICORN), "club.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT
            while not answers_ok(f"{base_url}/healthz"):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    sys.exit(f"gunicorn did not answer /healthz with 200 on {base_url}:\n{log.read()}")
                time.sleep(0.2)
            yield base_url
        finally:
            server.terminate()
            try:
                server.wait(timeout=SHUTDOWN_TIMEOUT)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


# --- The browser ------------------------------------------------------------------------------
def resource(response: Response) -> Resource:
    try:
        decoded = len(response.body())
    except Error:  # a redirect, or a body the browser no longer holds
        decoded = 0
    return Resource(
        url=response.url,
        type=response.request.resource_type,
        status=response.status,
        encoding=response.headers.get("content-encoding", ""),
        encoded=response.request.sizes()["responseBodySize"],
        decoded=decoded,
    )


def measure(browser: Browser, base_url: str, path: str) -> PageWeight:
    """Loads one page in a fresh context (an empty cache) and weighs every response."""
    context = browser.new_context()
    try:
        context.set_default_timeout(PAGE_TIMEOUT)
        context.route(lambda url: not url.startswith(f"{base_url}/"), lambda route: route.abort())
        page = context.new_page()
        finished: list[Request] = []  # the sizes are known once the whole body has arrived
        page.on("requestfinished", lambda request: finished.append(request))
        document = page.goto(base_url + path, wait_until="load")
        page.wait_for_load_state("networkidle")
        responses = [response for request in finished if (response := request.response())]
        return PageWeight(
            path=path,
            status=document.status if document else None,
            resources=[resource(response) for response in responses],
        )
    finally:
        context.close()


# --- The report -------------------------------------------------------------------------------
def kb(size: int) -> str:
    return f"{size / 1024:.1f} kB"


def report(weight: PageWeight, list_responses: bool) -> str:
    def sizes(resource_type: str) -> str:
        return f"{kb(weight.encoded(resource_type))}  ({kb(weight.decoded(resource_type))} uncompressed)"

    within = weight.first_paint <= FIRST_PAINT_BUDGET
    verdict = f"OK, within {kb(FIRST_PAINT_BUDGET)}" if within else f"OVER {kb(FIRST_PAINT_BUDGET)}"
    rows = [
        ("HTML", sizes("document")),
        ("JS", sizes("script")),
        ("CSS", sizes("stylesheet")),
        ("Images", sizes("image")),
        ("Requests", str(len(weight.resources))),
        ("First paint (HTML + CSS, compressed)", f"{kb(weight.first_paint)}  {verdict}"),
        ("JavaScript loaded (React islands)", "yes" if weight.has_javascript else "no"),
    ]
    width = max(len(label) for label, _ in rows)
    lines = [f"{weight.path}  (HTTP {weight.status})"]
    lines += [f"  {label:<{width}}  {value}" for label, value in rows]
    # Text that went over the wire as it is: compression would shrink it several times.
    lines += [
        f"  note: {r.type} sent without Content-Encoding: {r.url}"
        for r in weight.resources
        if r.type in ("document", "stylesheet", "script") and not r.encoding and r.decoded > 0
    ]
    if list_responses:
        lines.append("  Responses (type, status, encoding, bytes on the wire, uncompressed, URL):")
        lines += [
            f"    {r.type:<10} {r.status}  {r.encoding or '-':<4} {r.encoded:>8} B {r.decoded:>8} B  {r.url}"
            for r in weight.resources
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths", nargs="*", default=DEFAULT_PATHS, help="pages to weigh (default: %(default)s)"
    )
    parser.add_argument("-v", "--responses", action="store_true", help="also list every response")
    args = parser.parse_args()
    paths = [path if path.startswith("/") else f"/{path}" for path in args.paths]

    check_build()
    env = server_environment()
    prepare_database(env)
    with gunicorn(env) as base_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium.EXECUTABLE, args=chromium.ARGS, headless=True, timeout=2 * PAGE_TIMEOUT
        )
        try:
            print(f"Page weight of the production build, served by gunicorn at {base_url}\n")
            for path in paths:
                print(report(measure(browser, base_url, path), args.responses), end="\n\n")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
