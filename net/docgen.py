"""Print the engine values' section of docs/protocol.md from the dataclasses.

``python -m net.docgen`` prints the field list of every engine value that
crosses the wire; tests/test_protocol_documented.py holds the document to it.
"""

from __future__ import annotations

import dataclasses
import re
import typing

from core.observation import Observation, TrickView
from core.state import Announcement, Contract, HandResult, Premium

VALUES: tuple[type[typing.Any], ...] = (Observation, TrickView, Contract, Announcement, HandResult, Premium)


def _hint(hint: object) -> str:
    text = str(hint) if not isinstance(hint, type) else hint.__name__
    text = re.sub(r"Optional\[(.*)\]$", r"\1 | None", text)
    return (text.replace("typing.Annotated[int, 'card']", "Card").replace("core.observation.", "")
            .replace("core.state.", "").replace("core.actions.", "").replace("typing.", ""))


def engine_values() -> str:
    """The generated text (between the markers in docs/protocol.md)."""
    lines: list[str] = []
    for cls in VALUES:
        hints = typing.get_type_hints(cls, include_extras=True)
        lines.append(f"{cls.__name__}:")
        for f in dataclasses.fields(cls):
            default = ""
            if f.default is not dataclasses.MISSING:
                default = f" = {f.default!r}"
            lines.append(f"  {f.name}: {_hint(hints[f.name])}{default}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(engine_values())
