"""Print the engine values' section of docs/protocol.md from the dataclasses.

``python -m tarock.net.docgen`` prints the fields of :class:`core.observation.Observation`
and of every dataclass reachable from its type hints (actions aside: they are
documented by their tags); tests/test_protocol_documented.py holds the
document to it.
"""

from __future__ import annotations

import dataclasses
import re
import typing

from tarock.core.actions import Action
from tarock.core.datadoc import shown
from tarock.core.observation import Observation


def _hint(hint: object) -> str:
    text = str(hint) if not isinstance(hint, type) else hint.__name__
    text = re.sub(r"Optional\[(.*)\]$", r"\1 | None", text)
    text = text.replace("typing.Annotated[int, 'card']", "Card").replace("typing.", "")
    text = text.replace("collections.abc.", "")
    return re.sub(r"\b(?:core|variants)\.[\w.]*\.(\w+)", r"\1", text)


def _reachable(root: type[typing.Any]) -> list[type[typing.Any]]:
    """``root`` and the dataclasses its fields' hints name, depth first, each once."""
    found: list[type[typing.Any]] = []

    def visit(hint: object) -> None:
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and not issubclass(hint, Action):
            if hint in found:
                return
            found.append(hint)
            for inner in typing.get_type_hints(hint, include_extras=True).values():
                visit(inner)
            return
        for arg in typing.get_args(hint):
            visit(arg)

    visit(root)
    return found


def engine_values() -> str:
    """The generated text (between the markers in docs/protocol.md)."""
    lines: list[str] = []
    for cls in _reachable(Observation):
        hints = typing.get_type_hints(cls, include_extras=True)
        lines.append(f"{cls.__name__}:")
        for f in dataclasses.fields(cls):
            default = ""
            if f.default is not dataclasses.MISSING:
                default = f" = {shown(f.default)}"
            elif f.default_factory is not dataclasses.MISSING:
                default = f" = {shown(f.default_factory())}"
            lines.append(f"  {f.name}: {_hint(hints[f.name])}{default}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(engine_values())
