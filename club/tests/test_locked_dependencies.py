"""The Python packages are declared in pyproject.toml and locked in uv.lock: every file of every
version with its hash, and the environment the tests run in is exactly the lock (`make install`)."""

import subprocess
import tomllib
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
UV = str(ROOT / ".venv" / "bin" / "uv")


def uv(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([UV, *args, "--offline"], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_every_locked_file_has_its_hash():
    packages = tomllib.loads((ROOT / "uv.lock").read_text())["package"]
    files = [
        file
        for package in packages
        if package["source"] != {"virtual": "."}  # the site itself
        for file in [*package.get("wheels", []), *filter(None, [package.get("sdist")])]
    ]

    assert len(files) > 100
    assert [file["url"] for file in files if not file.get("hash", "").startswith("sha256:")] == []


def test_the_lock_answers_pyproject_toml():
    result = uv("lock", "--check")

    assert result.returncode == 0, result.stderr


def test_the_environment_is_exactly_the_lock():
    result = uv("sync", "--locked", "--check", "--python", str(ROOT / ".venv" / "bin" / "python"))

    assert result.returncode == 0, result.stderr
    assert "Would make no changes" in result.stderr
