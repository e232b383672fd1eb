"""The handbook (README.md and docs/*.md) points only at things that exist: its links and anchors,
the site's routes, the repository's files, the management commands, the code it names, and the
settings its Settings table lists; and a page's list of contents lists each of its sections. A
page that names something renamed or removed fails here."""

import importlib
import itertools
import os
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import get_commands
from django.urls import Resolver404, resolve

ROOT = Path(settings.BASE_DIR)
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGE_IDS = [str(page.relative_to(ROOT)) for page in PAGES]

FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
ROUTE = re.compile(r"^(?:(?:GET|POST|PUT|PATCH|DELETE) )?(/[^\s]*)$")
# Absolute paths of the machine the site runs on (deploy/'s units, Debian's packages), not routes.
MACHINE_PATHS = ("/etc/", "/srv/", "/usr/")
PLACEHOLDER = re.compile(r"\{\w+\}|<\w+>|…")
ALTERNATIVES = re.compile(r"\{([\w-]+(?:,[\w-]+)+)\}")  # /api/bookings/{pending,approved}
FILE_SUFFIXES = "py|md|toml|lock|css|html|txt|json|js|cjs|ts|tsx|sh|service|svg"
REPO_PATH = re.compile(rf"^[a-z_.][\w.\-<>*]*/[\w.\-<>*/]*$|^[a-z_][\w.\-]*\.(?:{FILE_SUFFIXES})$")
PACKAGES = "kernel|club|accounts|courts|memberships|bookings|programs|payments|content|notifications|audit"
CODE_REFERENCE = re.compile(rf"^(?:{PACKAGES})(?:\.\w+)+$")  # bookings.services.booking_request
MODEL_ATTRIBUTE = re.compile(r"^([A-Z]\w+)\.(\w+)$")  # Booking.TRANSITIONS
NOT_IN_A_CLONE = {"node_modules", "dist", "staticfiles", "var", "__pycache__"}
MANAGE_COMMAND = re.compile(r"manage\.py[ \t]+([a-z_]+)")
SETTING_READ = re.compile(r'env\.\w+\(\s*"([A-Z_]+)"')


def prose(page: Path) -> str:
    """The page without its fenced code blocks, whose text is not the page's own words."""
    return FENCE.sub("", page.read_text())


def code_spans(page: Path) -> list[str]:
    return CODE_SPAN.findall(prose(page))


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text in lower case, without punctuation (but for
    hyphens and underscores), spaces made hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Its headings' anchors; a repeated heading's gets -1, -2, … as on GitHub."""
    found: set[str] = set()
    for heading in HEADING.findall(prose(page)):
        slug = first = github_slug(heading)
        for repeat in itertools.count(1):
            if slug not in found:
                break
            slug = f"{first}-{repeat}"
        found.add(slug)
    return found


def made_at_run_time(path: str) -> bool:
    """Under a folder .gitignore names (var/, frontend/dist/): made by the commands, not in a clone."""
    ignored = [line for line in (ROOT / ".gitignore").read_text().splitlines() if line.endswith("/")]
    return any((path.rstrip("/") + "/").startswith(folder) for folder in ignored)


def files_named(name: str) -> list[Path]:
    """The repository's files and folders called `name`, anywhere (installed and built ones aside)."""
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [s for s in subfolders if not s.startswith(".") and s not in NOT_IN_A_CLONE]
        found += [Path(folder) / entry for entry in subfolders + files if entry == name]
    return found


def in_repository(path: str) -> bool:
    """A path with folders is the repository root's; a bare name (`services.py`, `tests/`) may be
    anywhere in it. `<name>` stands for any name."""
    pattern = re.sub(r"<\w+>", "*", path.rstrip("/"))
    if "/" in pattern:
        return any(ROOT.glob(pattern))
    return bool(files_named(pattern))


def examples(route: str) -> list[str]:
    """The paths a written route stands for: a sample value in each placeholder, each alternative
    of a {a,b} group, without the query string."""
    path = route.split("?")[0].split("#")[0]
    groups = ALTERNATIVES.findall(path)
    choices = itertools.product(*(group.split(",") for group in groups))
    paths = []
    for choice in choices:
        expanded = path
        for alternative in choice:
            expanded = ALTERNATIVES.sub(alternative, expanded, count=1)
        paths.append(PLACEHOLDER.sub("1", expanded))
    return paths


def broken_route(route: str) -> bool:
    if route.startswith(settings.STATIC_URL):  # served by WhiteNoise, not the URL resolver
        name = route.removeprefix(settings.STATIC_URL)
        return bool(Path(name).suffix) and finders.find(name) is None
    for path in examples(route):
        try:
            resolve(path)
        except Resolver404:
            return True
    return False


def broken_code_reference(reference: str) -> bool:
    """`package.module.name`, `app.Model` or `Model.attribute` names nothing in the code."""
    if model_attribute := MODEL_ATTRIBUTE.match(reference):
        model_name, attribute = model_attribute.groups()
        models = [model for model in apps.get_models() if model.__name__ == model_name]
        return not any(hasattr(model, attribute) for model in models)
    parts = reference.split(".")
    if len(parts) == 2 and parts[1][0].isupper() and parts[0] in {c.label for c in apps.get_app_configs()}:
        try:
            apps.get_model(reference)
            return False
        except LookupError:
            pass
    for split in range(len(parts), 0, -1):  # the longest importable module, then its attributes
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            if not hasattr(found, name):
                return True
            found = getattr(found, name)
        return False
    return True


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_links_lead_to_pages_and_headings_that_exist(page: Path) -> None:
    broken = []
    for target in LINK.findall(prose(page)):
        if re.match(r"^[a-z]+:", target):  # https:, mailto: — outside the repository
            continue
        file, _, anchor = target.partition("#")
        linked = (page.parent / file).resolve() if file else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_contents_list_every_section(page: Path) -> None:
    """A page that opens with a list of its sections lists each of them, in order."""
    contents = re.findall(r"^- \[[^\]]+\]\(#([^)]+)\)$", prose(page), re.MULTILINE)
    sections = [github_slug(title) for title in re.findall(r"^## (.+)$", prose(page), re.MULTILINE)]
    assert not contents or contents == sections


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_routes_resolve(page: Path) -> None:
    routes = [m.group(1) for span in code_spans(page) if (m := ROUTE.match(span))]
    routes = [route for route in routes if not route.startswith(MACHINE_PATHS)]
    assert routes, "a page of the handbook names routes"
    assert [route for route in routes if broken_route(route)] == []


def test_a_broken_route_or_anchor_is_caught() -> None:
    assert broken_route("/dashboard/club-rules") is False
    assert broken_route("/api/bookings/{pending,approved,confirmed}?email=") is False
    assert broken_route("/api/refunds/{id}/retry") is False
    assert broken_route("/dashboard/club-ruls") is True
    assert broken_route("/api/bookings/{pending,aproved}") is True
    assert github_slug("Django admin: fixing data by hand") == "django-admin-fixing-data-by-hand"
    assert github_slug("The club's policy") == "the-clubs-policy"


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_repository_paths_exist(page: Path) -> None:
    paths = [span for span in code_spans(page) if REPO_PATH.match(span) and not made_at_run_time(span)]
    assert [path for path in paths if not in_repository(path)] == []


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_code_references_name_code_that_exists(page: Path) -> None:
    references = [s for s in code_spans(page) if CODE_REFERENCE.match(s) or MODEL_ATTRIBUTE.match(s)]
    assert [reference for reference in references if broken_code_reference(reference)] == []


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_management_commands_exist(page: Path) -> None:
    commands = MANAGE_COMMAND.findall(page.read_text())
    assert [command for command in commands if command not in get_commands()] == []


def test_the_settings_table_lists_what_the_settings_read() -> None:
    operations = (ROOT / "docs" / "operations.md").read_text()
    section = operations.split("\n## Settings\n")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    documented = {name for row in rows for name in CODE_SPAN.findall(row.split(" | ")[0])}
    read = set(SETTING_READ.findall((ROOT / "club" / "settings.py").read_text()))
    assert sorted(documented - read) == [], "in the table, but club/settings.py does not read them"
    assert sorted(read - documented) == [], "read by club/settings.py, but not in the table"
