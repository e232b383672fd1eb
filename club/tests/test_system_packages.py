"""`make test` sets up the system packages the tests need (scripts/system_packages.sh): a machine
without Chromium's headless shell gets it from Debian's packages when this user may install them,
and otherwise hears at once what to install, not after minutes of failing browser tests.

The machine's own apt-get, sudo and id are stand-ins here (small scripts on a PATH of the test's
own): a test must not install or remove packages on the machine that runs it."""

import os
import shutil
import subprocess
import time
from pathlib import Path

from django.conf import settings

SCRIPT = Path(settings.BASE_DIR) / "scripts" / "system_packages.sh"


def run_with(tmp_path: Path, **commands: str) -> subprocess.CompletedProcess:
    """The script with a PATH holding bash and only these commands (name: the script's body)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "bash").symlink_to(shutil.which("bash"))
    for name, body in commands.items():
        path = folder / name.replace("_", "-")
        path.write_text(f"#!{shutil.which('bash')}\n{body}\n")
        path.chmod(0o755)
    env = {**os.environ, "PATH": str(folder)}
    return subprocess.run(
        [str(folder / "bash"), str(SCRIPT)], capture_output=True, text=True, env=env, timeout=30
    )


def test_with_chromium_and_systemd_analyze_there_it_does_nothing(tmp_path):
    result = run_with(
        tmp_path, chromium_headless_shell="", systemd_analyze="", apt_get="echo called >&2; exit 9"
    )

    assert (result.returncode, result.stderr) == (0, "")


def test_a_user_who_may_not_install_is_told_at_once_what_to_run(tmp_path):
    started = time.monotonic()

    result = run_with(tmp_path, systemd_analyze="", apt_get="exit 9", id="echo 1000", sudo="exit 1")

    assert result.returncode == 1
    assert "The tests need chromium-headless-shell, which this machine lacks" in result.stderr
    assert "sudo apt-get install -y chromium-headless-shell" in result.stderr
    assert time.monotonic() - started < 5


def test_a_machine_without_debians_apt_is_told_what_to_install(tmp_path):
    result = run_with(tmp_path, id="echo 0")

    assert result.returncode == 1
    assert "sudo apt-get install -y chromium-headless-shell systemd" in result.stderr


def test_root_gets_the_missing_packages_from_debian(tmp_path):
    calls = tmp_path / "apt-calls"

    result = run_with(tmp_path, systemd_analyze="", id="echo 0", apt_get=f'echo "$*" >> {calls}')

    assert result.returncode == 0, result.stderr
    assert calls.read_text().splitlines() == ["update -qq", "install -y -qq chromium-headless-shell"]


def test_a_user_with_sudo_gets_them_through_sudo(tmp_path):
    calls = tmp_path / "calls"

    result = run_with(
        tmp_path,
        id="echo 1000",
        sudo=f'echo "sudo $*" >> {calls}',
        apt_get=f'echo "apt-get $*" >> {calls}',
    )

    assert result.returncode == 0, result.stderr
    assert calls.read_text().splitlines() == [
        "sudo -n true",
        "sudo apt-get update -qq",
        "sudo apt-get install -y -qq chromium-headless-shell systemd",
    ]


def test_make_test_sets_up_the_system_packages_before_anything_else():
    planned = subprocess.run(
        ["make", "--dry-run", "--no-print-directory", "test"],  # noqa: S607 - make from PATH, as a developer runs it
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert planned.stdout.splitlines()[0] == "scripts/system_packages.sh"
