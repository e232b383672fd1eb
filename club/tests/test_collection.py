"""`pytest` (and so `make test`) collects from the folders pyproject.toml names: a folder of tests
outside them would never run, and never fail."""

import tomllib

from django.conf import settings


def test_every_folder_of_tests_is_collected():
    config = tomllib.loads((settings.BASE_DIR / "pyproject.toml").read_text())
    collected = config["tool"]["pytest"]["ini_options"]["testpaths"]
    folders = {
        folder.name
        for folder in settings.BASE_DIR.iterdir()
        if folder.is_dir()
        and not folder.name.startswith(".")  # the virtualenv, git
        and any("node_modules" not in path.parts for path in folder.rglob("test_*.py"))
    }

    assert folders - set(collected) == set()
