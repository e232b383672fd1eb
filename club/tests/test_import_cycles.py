"""Inside each package the modules import each other in one direction: a cycle would mean modules that
cannot be read, or changed, without each other, and Python hands one of them over half-made. An import
written inside a function hides a cycle from Python but not from this test, which counts every import
wherever it is written; and the project's function-level imports are only the kinds listed here, each
with its reason."""

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
# Tests (and the browser tests, pytest's conftest.py) import what they test where they need it, and
# bench/'s scripts set Django up at run time before they may import the project: neither is imported
# by the product. Migrations are generated.
NOT_THE_PRODUCT = {"tests", "migrations", "e2e", "bench", "testing", ".venv", "node_modules"}

# Function-level imports with a reason other than a cycle, by file and import.
WHY_INSIDE_A_FUNCTION = {
    # Django's own manage.py: it imports Django in main() to explain a missing install.
    ("manage.py", "from django.core.management import execute_from_command_line"),
}
# AppConfig.ready() is Django's place for connecting signal receivers and registering extensions:
# it runs once every app's models are loaded, which an import at the top of apps.py would precede.
APP_READY = "ready"


def product_files() -> Iterator[Path]:
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if not NOT_THE_PRODUCT & set(relative.parts) and relative.name != "conftest.py":
            yield relative


def module_name(path: Path) -> str:
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in product_files()}


def imported_modules(module: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The project's modules that an import statement in `module` loads (the nearest module of a
    name: `from .services import booking_cancel` loads the services module)."""

    def nearest(name: str) -> str | None:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        return name or None

    if isinstance(node, ast.Import):
        found = {nearest(alias.name) for alias in node.names}
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".")
            if MODULES[module].name != "__init__.py":
                package = package[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, *([node.module] if node.module else [])])
        found = {nearest(f"{base}.{alias.name}") for alias in node.names}
    return found - {None, module}


def function_level_imports(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, ast.Import | ast.ImportFrom]]:
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    yield function, node


def cycles_by_package() -> dict[str, list[str]]:
    """Each top-level package whose modules import each other in a circle, with one such circle."""
    graph: dict[str, dict[str, set[str]]] = {}
    for module, path in MODULES.items():
        package = module.split(".")[0]
        imports = graph.setdefault(package, {}).setdefault(module, set())
        for node in ast.walk(ast.parse((ROOT / path).read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                imports |= {name for name in imported_modules(module, node) if name.split(".")[0] == package}
    cycles = {}
    for package, modules in graph.items():
        try:
            TopologicalSorter(modules).prepare()
        except CycleError as cycle:
            cycles[package] = cycle.args[1]
    return cycles


def test_the_modules_of_a_package_import_each_other_in_one_direction():
    cycles = {package: " → ".join(cycle) for package, cycle in cycles_by_package().items()}

    assert cycles == {}, "Modules that import each other in a circle (inside a function counts too)"


def test_function_level_imports_are_only_those_with_a_reason_other_than_a_cycle():
    found = set()
    for path in product_files():
        for function, node in function_level_imports(ast.parse((ROOT / path).read_text())):
            if function.name != APP_READY or path.name != "apps.py":
                found.add((path.as_posix(), ast.unparse(node)))

    assert found - WHY_INSIDE_A_FUNCTION == set()
    listed_but_gone = WHY_INSIDE_A_FUNCTION - found
    assert listed_but_gone == set(), "Listed here but no longer in the code: take them out of the list"


def test_a_function_level_import_that_hides_a_cycle_is_found():
    """The reading of imports itself: relative imports, at any depth, inside functions as well."""
    module, path = "bookings.services", MODULES["bookings.services"]
    tree = ast.parse("def helper():\n    from .waitlist import slot_freed\n    from ..courts import models\n")

    imports = [node for _, node in function_level_imports(tree)]

    assert path.name == "services.py"
    assert imported_modules(module, imports[0]) == {"bookings.waitlist"}
    assert imported_modules(module, imports[1]) == {"courts.models"}
