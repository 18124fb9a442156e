"""Write docs/data.md, the reference of the rules' data types, from the code.

``python -m tarock.core.datadoc`` prints the document; ``python -m tarock.core.datadoc
--write`` writes it.  Every dataclass field is listed with its type, its
default and its meaning, taken from the code: the field's own docstring (the
string under it), else the sentences of the class docstring that name it in
double backquotes, else the documented type it has.  A field with none of
these is an error (:func:`missing`), so a new field cannot go undocumented;
tests/test_data_documented.py holds docs/data.md to this output.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import re
import sys
import textwrap
import typing
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from tarock.core import (
    auction,
    cards,
    context,
    contracts,
    facts,
    househooks,
    settlement,
    state,
    tricks,
    valat,
)
from tarock.core.actions import KontraTarget
from tarock.core.rules import Rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "data.md"

ALIASES: tuple[tuple[ModuleType, str], ...] = (
    (contracts, "TrumpMode"), (contracts, "Partnership"), (contracts, "TalonUse"), (contracts, "GoalKind"),
    (contracts, "CallTime"),
)
"""The named sets of values (``Literal`` aliases) the reference lists."""

SECTIONS: tuple[tuple[str, str, tuple[type[Any], ...]], ...] = (
    ("Contracts, trick rules, goals and premiums",
     "What a variant declares with `tarock_contracts` and `tarock_premium_specs`.",
     (contracts.ContractSpec, contracts.TrickRules, contracts.Goal, contracts.CallRule, contracts.Holding,
      contracts.PremiumSpec, contracts.Outcome, contracts.Playable)),
    ("The auction",
     "How the generic auction (`core.auction.Auction`) runs, and what a bid counts "
     "(`ContractSpec.rank`, `ContractSpec.auction_value`, `Auction.key`).",
     (auction.AuctionStyle,)),
    ("Kontra", "What a Kontra raises; the levels and their factors are in the table above the section.",
     (KontraTarget,)),
    ("The hand", "What the hooks read: the state of one hand (changed only by the engine) and its parts.",
     (state.HandState, state.Contract, state.Announcement, state.Trick, state.Verdict, state.Reason)),
    ("Score and settlement",
     "What `tarock_score` answers, the line items it holds, and the result core computes from them.",
     (state.Score, settlement.Item, state.HandResult)),
    ("The table", "What carries from one hand to the next (`HandState.context`).", (context.TableContext,)),
    ("Facts", "The rules as one read-only value, for bots, the client and peers (`Rules.facts`).",
     (facts.RuleFacts, facts.VariantFacts)),
)

HELPERS: tuple[tuple[str, ModuleType | type[Any], Callable[[str], bool]], ...] = (
    ("tarock.core.rules.Rules (the `rules` a hook receives)", Rules, lambda name: not name.startswith("_")),
    ("tarock.core.settlement", settlement, lambda name: not name.startswith("_")),
    ("tarock.core.tricks", tricks, lambda name: not name.startswith("_")),
    ("tarock.core.cards", cards, lambda name: not name.startswith("_")),
    ("tarock.core.contracts", contracts, lambda name: not name.startswith("_")),
    ("tarock.core.auction", auction, lambda name: name in ("auction_info",)),
    ("tarock.core.auction.Auction", auction.Auction,
     lambda name: name in ("key", "groups", "top", "refusal")),
    ("tarock.core.context", context, lambda name: not name.startswith("_")),
    ("tarock.core.valat", valat, lambda name: not name.startswith("_")),
    ("tarock.core.househooks (ready-made hooks, assigned in the class body)", househooks,
     lambda name: not name.startswith("_")),
)
"""Where the helpers a plugin author calls live: module (or class) and which of its functions."""


def _source_docs(owner: type[Any] | ModuleType) -> dict[str, str]:
    """The docstrings written under the assignments of a class or module body."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(owner)))
    body = tree.body[0].body if isinstance(owner, type) else tree.body  # type: ignore[attr-defined]
    out: dict[str, str] = {}
    for stmt, after in itertools.pairwise(body):
        target = stmt.target if isinstance(stmt, ast.AnnAssign) else (
            stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None)
        if (isinstance(target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            out[target.id] = inspect.cleandoc(after.value.value)
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


def _sentences(doc: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", _flat(doc))


def _hint(hint: object) -> str:
    if isinstance(hint, type):
        return hint.__name__
    for module, name in ALIASES:  # a Literal alias by its name, not its values
        alias = getattr(module, name)
        if hint == alias:
            return name
        if hint == alias | None:
            return f"{name} | None"
    text = str(hint)
    text = re.sub(r"Optional\[(.*)\]$", r"\1 | None", text)
    text = text.replace("typing.Annotated[int, 'card']", "Card").replace("typing.", "")
    text = text.replace("collections.abc.", "")
    return re.sub(r"\b(?:core|variants)\.[\w.]*\.(\w+)", r"\1", text)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _section_classes() -> dict[str, type[Any]]:
    return {cls.__name__: cls for _, _, classes in SECTIONS for cls in classes}


def _documented_types() -> set[str]:
    names = {cls.__name__ for _, _, classes in SECTIONS for cls in classes}
    return names | {name for _, name in ALIASES}


def _meaning(cls: type[Any], name: str, hint: str, own: dict[str, str]) -> str | None:
    if name in own:
        return _flat(own[name])
    found = [s for s in _sentences(inspect.getdoc(cls) or "") if f"``{name}``" in s]
    if found:
        return " ".join(found)
    for other in re.findall(r":class:`~?(?:[\w.]*\.)?(\w+)`", inspect.getdoc(cls) or ""):
        same = _section_classes().get(other)
        if same is not None and same is not cls and name in {f.name for f in dataclasses.fields(same)}:
            hints = typing.get_type_hints(same, include_extras=True)
            told = _meaning(same, name, _hint(hints[name]), _source_docs(same))
            if told is not None:
                return f"As in `{other}`: {told}"
    named = [t for t in _documented_types() if re.search(rf"\b{t}\b", hint)]
    if named:
        return "See " + ", ".join(f"`{t}`" for t in sorted(named)) + "."
    return None


def missing() -> list[str]:
    """``Class.field`` for every field the reference cannot give a meaning."""
    out = []
    for _, _, classes in SECTIONS:
        for cls in classes:
            own = _source_docs(cls)
            hints = typing.get_type_hints(cls, include_extras=True)
            for f in dataclasses.fields(cls):
                if _meaning(cls, f.name, _hint(hints[f.name]), own) is None:
                    out.append(f"{cls.__name__}.{f.name}")
    return out


def shown(value: object) -> str:
    """``repr`` of a default, with sets in sorted order (their own order follows the hash seed)."""
    if isinstance(value, (set, frozenset)):
        inner = ", ".join(sorted(shown(v) for v in value))
        return f"{type(value).__name__}({{{inner}}})" if value else f"{type(value).__name__}()"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ", ".join(f"{f.name}={shown(getattr(value, f.name))}" for f in dataclasses.fields(value)
                           if f.repr)
        return f"{type(value).__name__}({fields})"
    if isinstance(value, tuple):
        return "(" + ", ".join(shown(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def _default(f: dataclasses.Field[Any]) -> str:
    if f.default is not dataclasses.MISSING:
        return f"`{shown(f.default)}`"
    if f.default_factory is not dataclasses.MISSING:
        return f"`{shown(f.default_factory())}`"
    return "" if f.init else "(computed)"


def _class(cls: type[Any]) -> list[str]:
    doc = inspect.getdoc(cls) or ""
    summary = _flat(doc.split("\n\n")[0])
    lines = [f"### {cls.__name__}", "", f"`{cls.__module__}.{cls.__name__}`: {summary}", "",
             "| field | type | default | meaning |", "|---|---|---|---|"]
    own = _source_docs(cls)
    hints = typing.get_type_hints(cls, include_extras=True)
    for f in dataclasses.fields(cls):
        hint = _hint(hints[f.name])
        meaning = _meaning(cls, f.name, hint, own) or "**undocumented**"
        lines.append(f"| `{f.name}` | `{_cell(hint)}` | {_cell(_default(f))} | {_cell(meaning)} |")
    return [*lines, ""]


def _aliases() -> list[str]:
    lines = ["## Named values", "", "| name | values | meaning |", "|---|---|---|"]
    for module, name in ALIASES:
        values = ", ".join(f"`{v}`" for v in typing.get_args(getattr(module, name)))
        meaning = _flat(_source_docs(module).get(name, ""))
        lines.append(f"| `{name}` ({module.__name__}) | {values} | {_cell(meaning)} |")
    return [*lines, ""]


def _kontra_levels() -> list[str]:
    words = facts.KONTRA_WORDS
    lines = ["## Kontra levels", "",
             "A level counts the raises of one chain: 0 is no Kontra.  An item's amount is multiplied by",
             "`2 ** level` (`Item.factor`, with its `scale`); `ContractSpec.kontra` is the highest level a",
             "contract allows, and `VariantFacts.kontra_words` names the levels where a variant has its own",
             "words (the default below; Königrufen says Kontra and Re).", "",
             "| level | factor | default word |", "|---|---|---|"]
    for level in range(len(words) + 1):
        factor = settlement.Item("game", (0,), (1,), 1, kontra=level).factor
        lines.append(f"| {level} | ×{factor} | {words[level - 1] if level else '(none)'} |")
    return [*lines, ""]


def _functions(owner: ModuleType | type[Any], keep: Callable[[str], bool]) -> list[tuple[str, str]]:
    out = []
    for name, value in vars(owner).items():
        fn = value.__func__ if isinstance(value, staticmethod | classmethod) else value
        if not keep(name) or not inspect.isfunction(fn):
            continue
        if isinstance(owner, ModuleType) and fn.__module__ != owner.__name__:
            continue
        doc = inspect.getdoc(fn)
        first = _flat(doc.split("\n\n")[0]) if doc else ""
        out.append((f"{name}{_signature(fn)}", first))
    return out


def _signature(fn: Callable[..., Any]) -> str:
    """``(parameters) -> return`` as written in the source, ``self`` left out."""
    node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    assert isinstance(node, ast.FunctionDef)
    args = node.args
    if args.args and args.args[0].arg in ("self", "cls"):
        args.args = args.args[1:]
    returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
    return f"({ast.unparse(args)}){returns}"


def _helpers() -> list[str]:
    lines = ["## Where the helpers live", "",
             "Functions a plugin calls instead of reimplementing them, by module, with the first",
             "paragraph of their docstring.", ""]
    for title, owner, keep in HELPERS:
        lines += [f"### {title}", ""]
        for signature, first in _functions(owner, keep):
            lines.append(f"- `{signature}`" + (f": {first}" if first else ""))
        lines.append("")
    return lines


def document() -> str:
    """The text of docs/data.md."""
    lines = [
        "# The rules' data: a reference",
        "",
        "<!-- generated by `python -m tarock.core.datadoc --write` from the code; do not edit by hand -->",
        "",
        "The types a variant or house rule declares and reads: contracts and their trick rules, goals",
        "and premiums; the state of a hand, a score and its settlement items; the table context; the",
        "named values and Kontra levels; and where the helpers live.  The hooks that take and answer",
        "them are in [hooks.md](hooks.md), a worked introduction in [plugins.md](plugins.md).  Each",
        "field's meaning is the docstring in the code; change it there and regenerate.",
        "",
    ]
    lines += _aliases() + _kontra_levels()
    for title, intro, classes in SECTIONS:
        lines += [f"## {title}", "", intro, ""]
        for cls in classes:
            lines += _class(cls)
    lines += _helpers()
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    gaps = missing()
    if gaps:
        print(f"fields without a stated meaning: {', '.join(gaps)}", file=sys.stderr)
        return 1
    if args == ["--write"]:
        DOC.write_text(document(), encoding="utf-8")
        return 0
    sys.stdout.write(document())
    return 0


if __name__ == "__main__":
    sys.exit(main())
