"""Every status field moves one way: along the transitions declared beside its model, through
kernel.states.StatusMachine (`move`, or `move_where` for a lock-free claim). The project's code is read
for any other write of a `status`: an assignment to `.status`, or a `status=` given to update()."""

import ast
from pathlib import Path

from django.apps import apps
from django.conf import settings

from kernel.states import StatusMachine

ROOT = Path(settings.BASE_DIR)
# Code that writes a status by itself, and why it may.
EXCEPTIONS = {
    # The one method.
    "kernel/states.py": "StatusMachine.move and move_where are where a status is written.",
    # The task queue's own rows (django-tasks-db's), not a status of ours.
    "club/schedule.py": "An abandoned task's row is put back in the queue as the task backend keeps it.",
    # Seeds write finished histories directly, as rows, not moves that happen now.
    "club/demo_history.py": "The demo's past bookings are made as they ended up.",
    "club/management/commands/seed_scale.py": "The scale test's bookings are made as they ended up.",
    # Not a status of ours: the Stripe stand-in's PaymentIntent, made to move as Stripe's does.
    "scripts/localstripe_server.py": "localstripe's PaymentIntent status follows Stripe's test mode.",
}
# Not the product's code: what tests, measures or migrates it.
SKIPPED_DIRS = {".venv", "node_modules", "migrations", "tests", "testing", "e2e", "bench", "frontend"}


def status_writes(source: str) -> list[int]:
    """The lines of `source` that write a `status` other than by creating a row."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Attribute) and name.attr == "status":
                    lines.append(node.lineno)
        if not isinstance(node, ast.Call):
            continue
        call, keywords, args = node.func, {k.arg for k in node.keywords}, node.args
        if (
            isinstance(call, ast.Attribute)
            and call.attr in ("update", "bulk_update")
            and "status" in keywords
        ):
            lines.append(node.lineno)
        named = [arg.value for arg in args[1:2] if isinstance(arg, ast.Constant)]
        if isinstance(call, ast.Name) and call.id == "setattr" and named == ["status"]:
            lines.append(node.lineno)
    return sorted(set(lines))


def project_files():
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if not SKIPPED_DIRS & set(relative.parts):
            yield relative


def test_no_status_is_written_outside_its_declared_transitions():
    found = {
        f"{path}:{line}"
        for path in project_files()
        if str(path) not in EXCEPTIONS
        for line in status_writes((ROOT / path).read_text())
    }

    assert found == set()


def project_app(config) -> bool:
    path = Path(config.path)
    return path.is_relative_to(ROOT) and not SKIPPED_DIRS & set(path.relative_to(ROOT).parts)


def test_every_model_with_a_status_declares_its_transitions():
    ours = [
        model
        for config in apps.get_app_configs()
        if project_app(config)
        for model in config.get_models()
        if any(field.name == "status" for field in model._meta.fields)
    ]

    assert len(ours) >= 5
    assert [m.__name__ for m in ours if not (issubclass(m, StatusMachine) and m.TRANSITIONS)] == []


def test_the_reader_finds_each_way_of_writing_a_status():
    source = (
        "booking.status = 'x'\n"
        "a.status, b = 1, 2\n"
        "Booking.objects.filter(pk=1).update(status='x')\n"
        "setattr(booking, 'status', 'x')\n"
        "Booking.objects.create(status='x')\n"
        "if booking.status == 'x': pass\n"
    )

    assert status_writes(source) == [1, 2, 3, 4]
