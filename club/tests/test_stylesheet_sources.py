"""Tailwind writes only the classes it finds in a stylesheet's @source files: an island, a
component or a template missing from every stylesheet's sources renders with classes that do not
exist (a page that looks right only while another file happens to use the same ones)."""

import itertools
import re
from pathlib import Path

from django.conf import settings

STYLES = Path(settings.BASE_DIR) / "frontend" / "src" / "styles"
SOURCE = re.compile(r'^@source (not )?"([^"]+)"', re.MULTILINE)
BRACES = re.compile(r"\{([^{}]*)\}")


def expand(pattern: str) -> list[str]:
    """`pattern` with each {a,b} group expanded: "x/{a,b}.tsx" → ["x/a.tsx", "x/b.tsx"]."""
    parts = BRACES.split(pattern)
    choices = [[part] if index % 2 == 0 else part.split(",") for index, part in enumerate(parts)]
    return ["".join(chosen) for chosen in itertools.product(*choices)]


def sources() -> set[Path]:
    """Every file or folder named as a source by a stylesheet (less those a stylesheet leaves out
    of its own: those are another's)."""
    named: set[Path] = set()
    for sheet in STYLES.glob("*.css"):
        for negated, pattern in SOURCE.findall(sheet.read_text()):
            if not negated:
                named |= {(STYLES / path).resolve() for path in expand(pattern)}
    return named


def is_covered(file: Path, named: set[Path]) -> bool:
    return any(file == source or source in file.parents for source in named)


def test_every_island_and_component_is_a_source_of_a_stylesheet():
    named = sources()
    scripts = [*STYLES.parent.glob("islands/*.tsx"), *STYLES.parent.glob("components/*.tsx")]
    assert scripts
    missing = [
        str(path.relative_to(STYLES.parent)) for path in scripts if not is_covered(path.resolve(), named)
    ]
    assert missing == [], "add each to the @source of the stylesheet of the pages that use it"


def test_every_source_a_stylesheet_names_exists():
    root = Path(settings.BASE_DIR).resolve()
    gone = [str(path.relative_to(root)) for path in sources() if not path.exists()]
    assert gone == []
