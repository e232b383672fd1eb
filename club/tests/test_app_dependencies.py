"""The site's packages depend on each other in one direction only, as the README's layout section
draws them: the kernel imports no app, the apps import the kernel and the apps below them, and the
project (club) sits on top. A template counts as code: `{% load %}` of a tag library imports the
package that defines it, and a template under templates/<app>/ belongs to that app. A cycle would
mean two packages that cannot change, or be understood, without each other."""

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
KERNEL, PROJECT = "kernel", "club"
APPS = (
    "audit",
    "accounts",
    "courts",
    "memberships",
    "bookings",
    "programs",
    "payments",
    "content",
    "notifications",
)
# What the README draws: each package and the packages it imports (the project may import any app).
DRAWN = {
    "kernel": set(),
    "audit": {"kernel"},
    "accounts": {"kernel", "audit"},
    "notifications": {"kernel", "accounts", "audit"},
    "courts": {"kernel", "accounts", "audit"},
    "memberships": {"kernel", "accounts", "audit", "courts", "notifications"},
    "bookings": {"kernel", "accounts", "audit", "courts", "memberships", "notifications"},
    "programs": {"kernel", "accounts", "audit", "bookings", "courts", "memberships", "notifications"},
    "payments": {
        "kernel",
        "accounts",
        "audit",
        "bookings",
        "courts",
        "memberships",
        "notifications",
        "programs",
    },
    "content": {"kernel", "accounts", "audit", "notifications", "payments"},
    "club": {
        "kernel",
        "audit",
        "accounts",
        "courts",
        "memberships",
        "bookings",
        "programs",
        "payments",
        "content",
    },
}
PACKAGES = tuple(DRAWN)
# What runs beside the site and is never its code in production: the tests' support, the browser
# tests, the benchmarks, the local stand-ins' launcher and their pages (routed in local mode only).
NOT_THE_SITE = {"testing", "e2e", "bench", "scripts", "local"}
LOAD = re.compile(r"{%\s*load\s+(.*?)\s*%}")


def python_imports(package: str) -> set[str]:
    """The top-level packages that `package`'s own code imports (its tests and migrations aside)."""
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        if {"tests", "migrations"} & set(path.parts):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found.update(name.split(".")[0] for name in names)
    return found


def tag_libraries() -> dict[str, str]:
    """Each tag library of the site, by the name templates load it with, and its package."""
    return {path.stem: path.parts[-3] for path in ROOT.glob("*/templatetags/*.py") if path.stem != "__init__"}


def template_imports(package: str) -> set[str]:
    """The packages whose tag libraries the package's templates load: templates/<app>/ for an app,
    every other template for the project (the layouts, the e-mails, the error pages, the dashboard)."""
    folder = ROOT / "templates"
    if package in APPS:
        templates = (folder / package).rglob("*.*")
    elif package == PROJECT:
        templates = (path for path in folder.rglob("*.*") if path.relative_to(folder).parts[0] not in APPS)
    else:
        templates = ()
    libraries = tag_libraries()
    loaded = {
        name for path in templates for names in LOAD.findall(path.read_text()) for name in names.split()
    }
    return {libraries[name] for name in loaded if name in libraries}


def imported_packages(package: str) -> set[str]:
    """The site's other packages that `package` imports, in its code or its templates."""
    return ((python_imports(package) | template_imports(package)) & set(PACKAGES)) - {package}


def test_the_packages_import_each_other_without_a_cycle():
    graph = {package: imported_packages(package) for package in PACKAGES}

    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as cycle:
        raise AssertionError(
            f"Packages that import each other in a circle: {' → '.join(cycle.args[1])}"
        ) from None
    assert order[0] == KERNEL
    assert order[-1] == PROJECT


def test_the_readme_draws_the_graph_as_it_is():
    assert {package: imported_packages(package) for package in PACKAGES} == DRAWN


def test_every_package_of_the_site_is_drawn():
    """A new package is placed in the drawing (kernel, app or project) or named as not the site's."""
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")}

    assert packages - set(PACKAGES) - NOT_THE_SITE == set()


def test_a_template_loading_another_apps_tags_counts_as_an_import():
    libraries = tag_libraries()

    assert libraries["club_time"] == KERNEL
    assert libraries["booking_times"] == "bookings"
    assert "bookings" in template_imports("payments")  # payments/pay.html loads booking_times
    assert "accounts" in template_imports(PROJECT)  # the dashboard's layout loads the sidebar's links


def test_no_code_of_the_site_imports_the_test_support():
    """testing/ starts servers and relays and reaches into firebase-admin's private parts: the tests,
    the browser tests and the benchmarks use it, never the code that is deployed."""
    importers = [package for package in PACKAGES if NOT_THE_SITE & python_imports(package)]

    assert importers == []
