"""Every hook is documented in docs/hooks.md, with its exact signature and kind."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from tarock.core import hookspecs

DOC = Path(__file__).resolve().parent.parent / "docs" / "hooks.md"


def _hooks() -> dict[str, object]:
    return {name: fn for name, fn in vars(hookspecs).items()
            if name.startswith("tarock_") and callable(fn)}


def _signature(name: str, fn: object) -> str:
    ann = fn.__annotations__  # type: ignore[attr-defined]
    params = ", ".join(f"{p}: {ann[p]}" for p in inspect.signature(fn).parameters)  # type: ignore[arg-type]
    return f"def {name}({params}) -> {ann['return']}"


def _sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## (\w+)\s*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_every_hook_has_a_section() -> None:
    missing = sorted(set(_hooks()) - set(_sections()))
    assert not missing, f"hooks without a section in docs/hooks.md: {missing}"


def test_no_section_for_a_hook_that_does_not_exist() -> None:
    stale = sorted(n for n in _sections() if n.startswith("tarock_") and n not in _hooks())
    assert not stale, f"docs/hooks.md documents hooks that do not exist: {stale}"


def test_documented_signatures_match() -> None:
    sections = _sections()
    for name, fn in _hooks().items():
        assert _signature(name, fn) in sections[name], f"signature of {name} drifted from docs/hooks.md"


def test_documented_kind_matches() -> None:
    sections = _sections()
    for name, fn in _hooks().items():
        first = fn.tarock_spec["firstresult"]  # type: ignore[attr-defined]
        body = sections[name]
        kind = "First result." if first else "All results."
        assert kind in body, f"docs/hooks.md must say {kind!r} for {name}"
        assert ("| None" in _signature(name, fn)) == first, f"{name}: first-result hooks return X | None"
