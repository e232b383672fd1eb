"""The processes of a deployment come back: deploy/ holds a systemd unit for the site (gunicorn) and
one for the workers, each started again when it fails, and each stopped cleanly by the signal its
unit sends (docs/operations.md, Supervision)."""

import configparser
import os
import shlex
import shutil
import signal
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import get_commands, load_command_class
from django.db import connection
from gunicorn.config import Config

from scripts import local_stack

# It starts the site's own processes (gunicorn, the worker, manage.py): the integration layer.
pytestmark = pytest.mark.integration

DEPLOY = Path(settings.BASE_DIR) / "deploy"
INSTALLED_AT = "/srv/club"  # where the units expect the code (and its virtualenv)
UNITS = {"site": DEPLOY / "club-web.service", "worker": DEPLOY / "club-worker@.service"}


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(UNITS[name])
    return parser


def command(name: str) -> list[str]:
    return shlex.split(unit(name)["Service"]["ExecStart"])


def test_systemd_finds_nothing_wrong_with_the_units(tmp_path):
    """systemd's own check, with the units pointed at this checkout: their commands exist and every
    line is one systemd understands (a wrong value is only a warning, so the output must be empty)."""
    for path in UNITS.values():
        (tmp_path / path.name).write_text(path.read_text().replace(INSTALLED_AT, str(settings.BASE_DIR)))

    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (Debian's systemd package; make test installs it) checks the units"
    result = subprocess.run(
        [analyze, "verify", *(str(tmp_path / path.name) for path in UNITS.values())],
        capture_output=True,
        text=True,
        check=False,
    )

    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@pytest.mark.parametrize("name", UNITS)
def test_each_process_is_started_again_when_it_fails_and_never_given_up_on(name):
    assert unit(name)["Service"]["Restart"] == "on-failure"
    assert unit(name)["Unit"]["StartLimitIntervalSec"] == "0"
    assert unit(name)["Service"]["KillSignal"] == "SIGTERM"
    assert command(name)[0].startswith(f"{INSTALLED_AT}/.venv/bin/")


def test_the_site_unit_serves_the_sites_wsgi_application_with_gunicorn():
    gunicorn, *arguments = command("site")
    options = Config().parser().parse_args(arguments)  # gunicorn's own parser: its options exist

    assert Path(gunicorn).name == "gunicorn"
    assert options.args == ["club.wsgi"]
    assert callable(import_module("club.wsgi").application)
    assert options.bind == ["127.0.0.1:8000"]
    assert unit("site")["Service"]["Type"] == "notify"  # gunicorn says when it is ready


def test_the_worker_unit_runs_the_worker_command_without_the_reloader():
    python, manage, name, *arguments = command("worker")
    worker = load_command_class(get_commands()[name], name)
    options = worker.create_parser("manage.py", name).parse_args(arguments)  # its options exist

    assert (Path(python).name, manage, name) == ("python", "manage.py", "run_worker")
    assert (Path(settings.BASE_DIR) / manage).exists()
    assert options.reload is False


def on_the_test_database() -> dict:
    database = connection.settings_dict
    address = f"{database['USER']}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}"
    return {**os.environ, "LOCAL_MODE": "true", "DATABASE_URL": f"postgres://{address}/{database['NAME']}"}


@pytest.mark.django_db(transaction=True)
def test_sigterm_ends_the_worker_cleanly():
    log = local_stack.LOGS / "worker-signals.log"
    worker = local_stack.start(
        "worker-signals",
        [sys.executable, "manage.py", "run_worker", "--no-reload", "--no-startup-delay"],
        lambda: "Starting worker" in log.read_text(),
        cwd=local_stack.ROOT,
        env=on_the_test_database(),
    )
    try:
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(10) == 0  # a clean stop: systemd does not start it again
    finally:
        local_stack.stop(worker)


@pytest.mark.django_db(transaction=True)
def test_sigterm_ends_gunicorn_cleanly():
    port = local_stack.free_port()
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    site = local_stack.start(
        "web-signals",
        [gunicorn, "club.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        f"http://127.0.0.1:{port}/healthz",
        cwd=local_stack.ROOT,
        env=on_the_test_database(),
    )
    try:
        site.send_signal(signal.SIGTERM)
        assert site.wait(40) == 0  # a clean stop: systemd does not start it again
    finally:
        local_stack.stop(site)
