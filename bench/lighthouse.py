"""Lighthouse (mobile) scores of the production build, page by page.

Method
------
1. The site is served as bench/page_weight.py serves it: gunicorn with whitenoise, in local mode,
   from the Vite build and the collected static files, on a free loopback port, with the demo data
   (migrate and seed_demo first). The script builds nothing; it stops with a message when
   `make build` has not run.
2. Each page is audited by Lighthouse 12 (the npm package, run with `npx`, never a dependency of
   the project) in the system Chromium (`/usr/bin/chromium`, headless), with Lighthouse's mobile
   defaults: a Moto G Power-sized screen, simulated slow 4G and a 4x slower CPU. Only the
   performance and accessibility categories are run. With `--runs N` every page is audited N times
   and the run with the median performance score is reported (Lighthouse's own advice for noisy
   machines).
3. Per page it prints the performance and accessibility scores, Cumulative Layout Shift, Largest
   Contentful Paint, Total Blocking Time and the JavaScript the page loaded (bytes over the wire,
   i.e. compressed), then the title of every audit that cost a point of accessibility.

Usage (seed_demo needs the local Firebase Auth Emulator, so inside the local stack):
    .venv/bin/python scripts/local_stack.py -- .venv/bin/python bench/lighthouse.py [--runs N] [PATH ...]
(default: /login /register / /courts)
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere, yet share the page-weight bench's server
from bench.page_weight import check_build, gunicorn, prepare_database, server_environment  # noqa: E402
from testing import chromium  # noqa: E402

LIGHTHOUSE = "lighthouse@12"
DEFAULT_PATHS = ["/login", "/register", "/", "/courts"]
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run"
ATTEMPTS = 3  # per run, when Lighthouse reports a runtime error
AUDIT_TIMEOUT = 240  # seconds per Lighthouse run (the first one also fetches the package)


@dataclass
class Audit:
    path: str
    performance: int  # 0-100
    accessibility: int  # 0-100
    cls: float
    lcp_ms: float
    tbt_ms: float
    js_bytes: int  # transferred, i.e. compressed
    accessibility_failures: list[str] = field(default_factory=list)


class AuditFailed(Exception):
    pass


def run_lighthouse(url: str) -> dict:
    result = subprocess.run(
        [
            "npx",
            "--yes",
            LIGHTHOUSE,
            url,
            "--form-factor=mobile",
            "--only-categories=performance,accessibility",
            f"--chrome-flags={CHROME_FLAGS}",
            "--output=json",
            "--output-path=stdout",
            "--quiet",
        ],
        cwd=ROOT,
        env={**os.environ, "CHROME_PATH": chromium.EXECUTABLE, "NO_UPDATE_NOTIFIER": "1"},
        capture_output=True,
        text=True,
        timeout=AUDIT_TIMEOUT,
        check=False,
    )
    if result.returncode != 0:
        raise AuditFailed(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "no output")
    report = json.loads(result.stdout)
    if error := report.get("runtimeError"):
        raise AuditFailed(error.get("message", "runtime error"))
    return report


def audit(base_url: str, path: str) -> Audit:
    # Lighthouse now and then loses the trace of a load (NO_NAVSTART) and asks to be run again.
    for attempt in range(1, ATTEMPTS + 1):
        try:
            report = run_lighthouse(base_url + path)
            break
        except AuditFailed:
            if attempt == ATTEMPTS:
                raise
    categories, audits = report["categories"], report["audits"]
    scripts = [
        item["transferSize"]
        for item in audits["resource-summary"]["details"]["items"]
        if item["resourceType"] == "script"
    ]
    failures = [
        audits[ref["id"]]["title"]
        for ref in categories["accessibility"]["auditRefs"]
        if ref["weight"] > 0 and audits[ref["id"]]["score"] not in (None, 1)
    ]
    return Audit(
        path=path,
        performance=round(categories["performance"]["score"] * 100),
        accessibility=round(categories["accessibility"]["score"] * 100),
        cls=audits["cumulative-layout-shift"]["numericValue"],
        lcp_ms=audits["largest-contentful-paint"]["numericValue"],
        tbt_ms=audits["total-blocking-time"]["numericValue"],
        js_bytes=sum(scripts),
        accessibility_failures=failures,
    )


def median_run(runs: list[Audit]) -> Audit:
    median = statistics.median_low(run.performance for run in runs)
    return next(run for run in runs if run.performance == median)


def report(result: Audit, scores: list[int]) -> str:
    runs = f"  (runs: {', '.join(map(str, scores))})" if len(scores) > 1 else ""
    lines = [
        f"{result.path}",
        f"  performance     {result.performance}{runs}",
        f"  accessibility   {result.accessibility}",
        f"  CLS             {result.cls:.3f}",
        f"  LCP             {result.lcp_ms / 1000:.2f} s",
        f"  TBT             {result.tbt_ms:.0f} ms",
        f"  JS (over wire)  {result.js_bytes / 1024:.1f} KiB",
    ]
    lines += [f"  accessibility failure: {title}" for title in result.accessibility_failures]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths", nargs="*", default=DEFAULT_PATHS, help="pages to audit (default: %(default)s)"
    )
    parser.add_argument("--runs", type=int, default=1, help="audits per page; the median is reported")
    args = parser.parse_args()
    paths = [path if path.startswith("/") else f"/{path}" for path in args.paths]

    check_build()
    env = server_environment()
    prepare_database(env)
    with gunicorn(env) as base_url:
        print(f"Lighthouse 12 (mobile) on the production build, served by gunicorn at {base_url}\n")
        for path in paths:
            try:
                runs = [audit(base_url, path) for _ in range(max(1, args.runs))]
            except AuditFailed as failure:
                print(f"{path}\n  not audited: {failure}", end="\n\n", flush=True)
                continue
            print(report(median_run(runs), [run.performance for run in runs]), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
