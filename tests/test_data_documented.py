"""docs/data.md is generated from the code (``python -m tarock.core.datadoc --write``) and kept so."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from pathlib import Path

from tarock.core import context, contracts, datadoc, facts, settlement, state

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_data_md_is_the_generated_text() -> None:
    assert (DOCS / "data.md").read_text(encoding="utf-8") == datadoc.document(), (
        "docs/data.md drifted from the code: run python -m tarock.core.datadoc --write")


def test_every_field_has_a_stated_meaning() -> None:
    assert datadoc.missing() == []
    assert "**undocumented**" not in datadoc.document()


def test_a_field_without_a_meaning_is_found() -> None:
    @dataclasses.dataclass
    class Bare:
        """A class that says nothing about ``other``'s neighbour."""

        other: int
        """Documented."""
        silent: int = 0

    own = datadoc._source_docs(Bare)
    assert datadoc._meaning(Bare, "other", "int", own) == "Documented."
    assert datadoc._meaning(Bare, "silent", "int", own) is None


def test_every_data_type_of_the_rules_is_in_the_reference() -> None:
    listed = {cls for _, _, classes in datadoc.SECTIONS for cls in classes}
    for module in (contracts, state, settlement, context, facts):
        for value in vars(module).values():
            if (inspect.isclass(value) and dataclasses.is_dataclass(value)
                    and value.__module__ == module.__name__):
                assert value in listed, f"{value.__name__} is missing from core.datadoc.SECTIONS"
    aliases = {name for _, name in datadoc.ALIASES}
    for name, value in vars(contracts).items():
        if typing.get_origin(value) is typing.Literal:
            assert name in aliases, f"{name} is missing from core.datadoc.ALIASES"


def test_plugins_md_links_the_reference() -> None:
    assert "(data.md)" in (DOCS / "plugins.md").read_text(encoding="utf-8")
