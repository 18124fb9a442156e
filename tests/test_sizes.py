"""No class over 300 lines and no file over 600 lines in the tree a maintainer reads.

A class's lines run from its ``class`` line to its last line (``end_lineno -
lineno + 1``, read with :mod:`ast`, nested classes measured too); a file's are
its lines of text.  The test names every offender, so a class or file that grows
past its limit is found by name, not by a count.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("core", "variants", "net", "client", "tools")
MAX_CLASS = 300
MAX_FILE = 600


def oversized(source: str, name: str, max_class: int = MAX_CLASS, max_file: int = MAX_FILE) -> list[str]:
    """Every class of ``source`` (the text of the file ``name``) longer than ``max_class``
    lines, and the file itself if it is longer than ``max_file``, as ``name: what (lines)``."""
    found: list[str] = []
    lines = len(source.splitlines())
    if lines > max_file:
        found.append(f"{name}: the file ({lines} lines)")
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            size = node.end_lineno - node.lineno + 1
            if size > max_class:
                found.append(f"{name}: class {node.name} at line {node.lineno} ({size} lines)")
    return found


def sources(root: Path = ROOT, folders: Iterable[str] = FOLDERS) -> list[Path]:
    return [path for folder in folders for path in sorted((root / folder).rglob("*.py"))
            if "__pycache__" not in path.parts]


def test_the_measure_names_a_planted_long_class_and_file() -> None:
    fields = [f"    x{i} = {i}" for i in range(8)]
    source = "\n".join(["class Short:", "    a = 1", "", "", "class Long:", *fields, "",
                        "    class Inner:", *("    " + f for f in fields)]) + "\n"
    # Long: lines 5 to 23 (its fields, a blank line, Inner); Inner: lines 15 to 23.
    assert oversized(source, "planted.py", max_class=10, max_file=100) == [
        "planted.py: class Long at line 5 (19 lines)"]
    assert oversized(source, "planted.py", max_class=8, max_file=20) == [
        "planted.py: the file (23 lines)",
        "planted.py: class Long at line 5 (19 lines)",
        "planted.py: class Inner at line 15 (9 lines)",
    ]
    assert oversized(source, "planted.py", max_class=19, max_file=23) == []


def test_no_class_over_300_lines_and_no_file_over_600() -> None:
    files = sources()
    assert len(files) > 50, "the tree was not found"
    found = [o for path in files
             for o in oversized(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "too long (split along a seam of its own):\n" + "\n".join(found)
