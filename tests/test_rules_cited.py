"""Rules are cited from docs/rules.md, and every cited section exists.

(a) Every ``docs/rules.md §N`` (or ``§N.M``) in the product, the tests, the
examples and the documents names a heading of docs/rules.md; so do the
cross-references inside docs/rules.md itself.  A citation may go on with
more sections in its line ("docs/rules.md §16 and §17") or wrap to the next
line.

(b) Nothing cites the rule documents outside the repository: the project's
old rules map, the numbered seed texts (by number or by file name) or the
Upper-Austrian profile by its name.

Both checks are functions of a file's text, tried here on planted files too,
so each can fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SCANNED = ("core", "variants", "net", "client", "tests", "examples", "docs", "fuzz", "plugins.toml",
           "README.md")
"""Where citations are looked for (folders recursively, text files only)."""
SUFFIXES = frozenset({".py", ".md", ".toml", ".po", ".txt", ".cfg", ".ini", ".json", ".sh", ".pyi"})

HEADING = re.compile(r"^#{2,4} §(\d+(?:\.\d+)*) ", re.MULTILINE)
CITED_DOC = re.compile(r"docs/rules\.md")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
OTHER_DOC = re.compile(r"[\w./-]+\.md\b")
OUTSIDE = (
    (re.compile(r"RULES\.md"), "the rules map outside the repository"),
    (re.compile(r"\b[Ss]eeds? 00\d"), "a seed text by number"),
    (re.compile(r"\b00\d_[0-9a-f]{16}\.txt"), "a seed text by file name"),
    (re.compile(r"shared/seeds\b"), "the folder of the seed texts"),
    (re.compile(r"koenigrufen-ooe-2023"), "the Upper-Austrian profile by name"),
)


def headings(text: str) -> set[str]:
    """The section numbers docs/rules.md defines (``"4"``, ``"4.5"``)."""
    return set(HEADING.findall(text))


def _cited_after(line: str, start: int) -> str:
    """The part of ``line`` from ``start`` up to the next other document named in it."""
    rest = line[start:]
    other = OTHER_DOC.search(rest)
    return rest if other is None else rest[:other.start()]


def citations(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, section)`` of every docs/rules.md citation in ``text``.

    A line naming docs/rules.md cites every ``§`` after that name, and the
    following line continues the citation, each up to the next document's name.
    """
    lines = text.splitlines()
    for i, line in enumerate(lines):
        named = [m.end() for m in CITED_DOC.finditer(line)]
        for start in named:
            for number in SECTION.findall(_cited_after(line, start)):
                yield i + 1, number
        if named and i + 1 < len(lines):
            for number in SECTION.findall(_cited_after(lines[i + 1], 0)):
                yield i + 2, number


def self_references(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, section)`` of every ``§`` docs/rules.md cites in its own body
    (lines naming another document excepted)."""
    for i, line in enumerate(text.splitlines()):
        if HEADING.match(line + " ") or OTHER_DOC.search(line.replace("docs/rules.md", "")):
            continue
        for number in SECTION.findall(line):
            yield i + 1, number


def outside_citations(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, what)`` for every citation of a rule document outside the repository."""
    for i, line in enumerate(text.splitlines()):
        for pattern, what in OUTSIDE:
            if pattern.search(line):
                yield i + 1, what


def scanned_files() -> Iterator[Path]:
    """The text files of :data:`SCANNED`, this test excepted, docs/rules.md included."""
    me = Path(__file__).resolve()
    for name in SCANNED:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            if file.suffix in SUFFIXES and file.resolve() != me and "__pycache__" not in file.parts:
                yield file


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def unresolved(paths: list[Path], sections: set[str]) -> list[str]:
    """``file:line §N`` for every docs/rules.md citation in ``paths`` that names no heading."""
    out = []
    for path in paths:
        text = _text(path)
        if text is None:
            continue
        found = self_references(text) if path.resolve() == RULES.resolve() else citations(text)
        out += [f"{path}:{line} §{number}" for line, number in found if number not in sections]
    return out


def outside(paths: list[Path]) -> list[str]:
    """``file:line what`` for every citation of a document outside the repository in ``paths``."""
    out = []
    for path in paths:
        text = _text(path)
        if text is not None:
            out += [f"{path}:{line} {what}" for line, what in outside_citations(text)]
    return out


def test_docs_rules_has_numbered_sections() -> None:
    sections = headings(RULES.read_text(encoding="utf-8"))
    assert {"1", "10", "12", "13", "14", "15", "16", "17", "18"} <= sections
    assert all(n.split(".")[0] in sections for n in sections), "a subsection without its section"


def test_every_cited_section_exists() -> None:
    sections = headings(RULES.read_text(encoding="utf-8"))
    files = list(scanned_files())
    assert RULES in files
    cited = sum(1 for f in files if (t := _text(f)) is not None for _ in citations(t))
    assert cited > 200, f"only {cited} citations of docs/rules.md found: is the scan looking?"
    bad = unresolved(files, sections)
    assert not bad, "citations of docs/rules.md sections that do not exist:\n" + "\n".join(bad)


def test_nothing_cites_rule_documents_outside_the_repository() -> None:
    bad = outside(list(scanned_files()))
    assert not bad, "cite docs/rules.md §N instead:\n" + "\n".join(bad)


def test_the_checks_find_planted_citations(tmp_path: Path) -> None:
    sections = headings(RULES.read_text(encoding="utf-8"))
    good = tmp_path / "good.py"
    good.write_text('"""Stichzwang (docs/rules.md §4.4; the club: §16.4), dealing (docs/rules.md\n'
                    '§3.3), see docs/protocol.md §99."""\n', encoding="utf-8")
    assert unresolved([good], sections) == []
    assert [n for _, n in citations(good.read_text(encoding="utf-8"))] == ["4.4", "16.4", "3.3"]
    assert outside([good]) == []

    wrong = tmp_path / "wrong.py"
    wrong.write_text("# docs/rules.md §4.4 and §99.1\n# docs/rules.md\n#   §77\n", encoding="utf-8")
    assert unresolved([wrong], sections) == [f"{wrong}:1 §99.1", f"{wrong}:3 §77"]

    old = tmp_path / "old.py"
    old.write_text("# " + "RULES" + ".md decision 4\n"
                   "x = 1  # " + "Seed" + " 002: the club\n"
                   "# see " + "004" + "_67803efa0bd2b3f1.txt\n"
                   "rng = 7  # an RNG seed 7 is no citation\n", encoding="utf-8")
    assert outside([old]) == [f"{old}:1 the rules map outside the repository",
                              f"{old}:2 a seed text by number",
                              f"{old}:3 a seed text by file name"]
