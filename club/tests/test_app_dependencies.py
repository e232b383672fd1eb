"""The apps depend on each other in one direction only (the graph is drawn in the README's layout
section): a cycle would mean two apps that cannot change, or be understood, without each other."""

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from django.conf import settings

APPS = ("audit", "accounts", "courts", "bookings", "payments", "content", "notifications")
# What the README draws: each app and the apps it may import.
DRAWN = {
    "audit": set(),
    "accounts": {"audit"},
    "notifications": {"accounts"},
    "courts": {"accounts", "audit"},
    "bookings": {"accounts", "audit", "courts", "notifications"},
    "payments": {"accounts", "audit", "bookings", "courts", "notifications"},
    "content": {"accounts", "audit", "notifications", "payments"},
}


def imported_packages(package: str) -> set[str]:
    """The top-level packages that `package`'s own code imports (its tests and migrations aside)."""
    found = set()
    for path in (Path(settings.BASE_DIR) / package).rglob("*.py"):
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


def imported_apps(app: str) -> set[str]:
    """The other apps that `app`'s own code imports."""
    return (imported_packages(app) & set(APPS)) - {app}


def test_the_apps_import_each_other_without_a_cycle():
    graph = {app: imported_apps(app) for app in APPS}

    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as cycle:
        raise AssertionError(f"The apps import each other in a circle: {' → '.join(cycle.args[1])}") from None
    assert order[0] == "audit"


def test_the_readme_draws_the_graph_as_it_is():
    assert {app: imported_apps(app) for app in APPS} == DRAWN


def test_no_code_of_the_site_imports_the_test_support():
    """testing/ starts servers and relays and reaches into firebase-admin's private parts: the tests,
    the browser tests and the benchmarks use it, never the code that is deployed."""
    importers = [package for package in (*APPS, "club") if "testing" in imported_packages(package)]

    assert importers == []
