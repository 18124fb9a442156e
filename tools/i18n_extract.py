"""Which messages the catalogue must hold, and keeping the ``.po`` files up to date.

``python -m tarock.tools.i18n_extract`` adds every message that is missing to
``de.po`` (and to ``en.po`` where the source is not English), with an empty
translation for a translator to fill; tests/test_i18n.py fails while one is
missing or empty.  The messages are:

- the client's own: every ``_("…")``, ``n_("…", "…", n)``, ``p_(ctx, "…")``
  and ``NP_(ctx, "…")`` with literal strings in ``client/text``, ``client/ui``,
  ``client/i18n`` and the line client's modules (``--plain`` and the
  network commands' terminal; found in the syntax tree, as xgettext would);
- the rules' data of every variant this installation offers or defines
  (plugins.toml): titles and descriptions of the variants, games and
  premiums, holding requirements, option names and descriptions, the
  Kontra words and the unit of money; and the bot kinds;
- the reasons the engine and the variants give (``Reason(code, message)``
  and ``Verdict.deny`` with literal strings in ``core`` and ``variants``;
  a sentence written as ``"... {field} ...".format(...)`` is kept as a
  template, context ``reason-template``, and translated with its figures)
  and the notes of their results.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import polib

from tarock.client.i18n import HERE, TEMPLATE_CONTEXT, po_path

ROOT = HERE.parent.parent
LINE_CLIENT = ("cli.py", "command.py", "localcli.py", "replaycli.py", "human.py", "netcli.py", "netview.py",
               "render.py", "stats.py", "words.py", "written.py", "errors.py", "history.py", "replay_view.py",
               "settings.py", "statistics.py", "tables.py", "argtypes.py", "cliargs.py", "netargs.py")
"""The modules of the line-based client (``--plain``, the network commands' terminal)."""
CLIENT_SOURCES = (ROOT / "client" / "text", ROOT / "client" / "ui", ROOT / "client" / "i18n",
                  *(ROOT / "client" / module for module in LINE_CLIENT))
RULE_SOURCES = (ROOT / "core", ROOT / "variants")

HOUSE_RULES = " House rules: "
"""How core.plugins joins a base variant's description and its house rules' names."""

GERMAN_SOURCES = frozenset({"game", "premium", "variant", "kontra", "card", "option-name", "option-value",
                            "bot", "money", "item"})
"""Contexts whose msgids are not English (names from the rules, identifiers): en.po translates them too."""


@dataclass(frozen=True, order=True)
class Message:
    context: str
    msgid: str
    plural: str = ""
    where: str = ""


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _format_template(node: ast.expr) -> str | None:
    """The literal of ``"... {field} ...".format(...)``, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _literal(node.func.value)
    return None


def _calls(path: Path) -> Iterator[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def _name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def client_messages(folders: Iterable[Path] = CLIENT_SOURCES) -> set[Message]:
    """The messages the client's code asks the catalogue for, by literal (``folders``: folders or files)."""
    out: set[Message] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")) if folder.is_dir() else [folder]:
            where = str(path.relative_to(ROOT))
            for call in _calls(path):
                name, args = _name(call), call.args
                if name == "_" and args and (text := _literal(args[0])) is not None:
                    out.add(Message("", text, where=where))
                elif name == "n_" and len(args) >= 2:
                    one, many = _literal(args[0]), _literal(args[1])
                    if one is not None and many is not None:
                        out.add(Message("", one, many, where))
                elif name in ("p_", "NP_") and len(args) >= 2:
                    ctx, text = _literal(args[0]), _literal(args[1])
                    if ctx is not None and text is not None:
                        out.add(Message(ctx, text, where=where))
    return out


def rule_messages(folders: Iterable[Path] = RULE_SOURCES) -> set[Message]:
    """The reasons and notes the engine and the variants write, by literal."""
    out: set[Message] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for call in _calls(path):
                name, args = _name(call), call.args
                lazy = name in ("refuse", "_denied_on") and len(args) >= 2
                if lazy and (code := _literal(args[0])) is not None:
                    # Verdict.refuse(code, template, *args) and Königrufen's cached denials: a
                    # sentence made when it is shown, translated by its code
                    out.add(Message("reason-code", code, where=where))
                elif name in ("Reason", "deny") and len(args) >= 2:
                    code, text = _literal(args[0]), _literal(args[1])
                    if text is not None:
                        out.add(Message("reason", text, where=where))
                    elif (template := _format_template(args[1])) is not None:
                        out.add(Message(TEMPLATE_CONTEXT, template, where=where))
                    elif code is not None:  # a sentence made at run time: translated by its code
                        out.add(Message("reason-code", code, where=where))
                if name == "Item" and args and (item := _literal(args[0])) and item != "game":
                    out.add(Message("item", item, where=where))
                for kw in call.keywords:
                    if kw.arg == "note" and (text := _literal(kw.value)) is not None and text:
                        out.add(Message("note", text, where=where))
    return out


def data_messages() -> set[Message]:
    """The rules' data of every variant plugins.toml offers or defines, and the bot kinds."""
    from tarock.client.bots import BOT_KINDS
    from tarock.core.plugins import load_plugins

    out: set[Message] = {Message("bot", kind) for kind in BOT_KINDS}
    catalogue = load_plugins(None)
    for variant in catalogue.variants.values():
        out.add(Message("variant", variant.title))
        if variant.description:
            base, _sep, _rules = variant.description.partition(HOUSE_RULES)
            out.add(Message("variant-description", base))
        rules = variant.rules()
        facts = rules.facts
        out.add(Message("variant", facts.title))
        for spec in facts.contracts:
            out.add(Message("game", spec.title))
            if spec.description:
                out.add(Message("game-description", spec.description))
            out.update(Message("holding", h.description) for h in spec.requires if h.description)
        for premium in facts.premiums:
            out.add(Message("premium", premium.title))
            if premium.description:
                out.add(Message("premium-description", premium.description))
        for name, declared in rules.option_specs.items():
            out.add(Message("option-name", name))
            out.add(Message("option", declared.spec.description))
            out.update(Message("option-value", str(c)) for c in declared.spec.choices)
        out.update(Message("kontra", w) for w in facts.facts.kontra_words)
        if facts.facts.money:
            out.add(Message("money", facts.facts.money))
    return out


def wanted() -> set[Message]:
    """Every message the catalogue must hold."""
    return client_messages() | rule_messages() | data_messages()


def key(m: Message) -> tuple[str, str]:
    return (m.context, m.msgid)


def update(
    lang: str, messages: Iterable[Message], keep: frozenset[tuple[str, str]] = frozenset()
) -> list[Message]:
    """Add the ``messages`` missing from ``lang``'s catalogue and drop those no
    longer asked for (except ``keep``: an English wording of an English message
    stays while the message is used); return those added."""
    messages = list(messages)
    path = po_path(lang)
    po = polib.pofile(str(path)) if path.exists() else polib.POFile()
    if not path.exists():
        po.metadata = {
            "Project-Id-Version": "tarock",
            "Language": lang,
            "MIME-Version": "1.0",
            "Content-Type": "text/plain; charset=UTF-8",
            "Content-Transfer-Encoding": "8bit",
            "Plural-Forms": "nplurals=2; plural=(n != 1);",
        }
    wanted_keys = {key(m) for m in messages}
    for entry in [e for e in po if (e.msgctxt or "", e.msgid) not in wanted_keys | keep]:
        po.remove(entry)  # no longer asked for anywhere
    have = {(e.msgctxt or "", e.msgid) for e in po}
    added: list[Message] = []
    for m in sorted(set(messages), key=key):
        if key(m) in have:
            continue
        have.add(key(m))
        entry = polib.POEntry(
            msgctxt=m.context or None,
            msgid=m.msgid,
            msgstr="",
            occurrences=[(m.where, "")] if m.where else [],
        )
        if m.plural:
            entry.msgid_plural = m.plural
            entry.msgstr_plural = {0: "", 1: ""}
        po.append(entry)
        added.append(m)
    po.save(str(path))
    return added


def main() -> int:
    messages = {m for m in wanted()}
    unique: dict[tuple[str, str], Message] = {}
    for m in sorted(messages):
        unique.setdefault(key(m), m)
    added_de = update("de", unique.values())
    added_en = update("en", [m for m in unique.values() if m.context in GERMAN_SOURCES], frozenset(unique))
    print(f"de.po: {len(added_de)} added; en.po: {len(added_en)} added")
    return 0


if __name__ == "__main__":
    sys.exit(main())
