"""A kept table read back: its setup, its hands replayed (one engine, one truth) and its score sheet.

A table's file (a saved table in play or a finished one, :mod:`client.tables`) holds the records of
its hands; :func:`read_table` replays them with the table's rules into the hands and the
:class:`~core.table.Table` (the sheet and the standings).  :func:`standings_text` is what the
terminal shows when the client closes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarock.client.i18n import _, p_
from tarock.client.render import sheet_lines, standings_lines
from tarock.client.text.rule_words import Terms
from tarock.client.ui.local import SaveError, TableSetup
from tarock.core.codec import RecordError
from tarock.core.engine import Hand
from tarock.core.plugins import Catalogue
from tarock.core.record import replay
from tarock.core.rules import RuleError, Rules
from tarock.core.table import Standing, Table, contract_text


@dataclass
class KeptTable:
    """A kept table replayed: who sat where, the hands, the sheet."""

    path: Path
    setup: TableSetup
    rules: Rules
    title: str
    ended: str
    hands: list[Hand] = field(default_factory=list)
    table: Table = field(default_factory=Table)

    @property
    def names(self) -> list[str]:
        return self.setup.names

    @property
    def terms(self) -> Terms:
        return Terms.of(self.rules.variant_facts)

    def sheet(self) -> list[str]:
        return sheet_lines(self.table, self.names, self.terms, self.rules.facts)


def read_table(path: Path, catalogue: Catalogue) -> KeptTable:
    """The table kept in ``path``, its hands replayed; :class:`SaveError` saying why it cannot be."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(_("cannot read {path}: {error}").format(path=path, error=exc.strerror)) from None
    except ValueError as exc:
        raise SaveError(_("{path} is not JSON: {error}").format(path=path, error=exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("finished"), list):
        raise SaveError(_("{path}: the hands are malformed").format(path=path))
    setup = TableSetup.from_json(data.get("setup") or {})
    try:
        variant = catalogue.find(setup.variant)
        rules = variant.rules(setup.options)
    except RuleError as exc:
        raise SaveError(f"{path.name}: {exc}") from None
    kept = KeptTable(path, setup, rules, p_("variant", variant.title), str(data.get("ended") or ""),
                     table=Table(seats=setup.seats, rounds=setup.rounds))
    for raw in data["finished"]:
        hand = _replayed(raw, rules)
        result = hand.state.result
        if result is None:
            raise SaveError(_("a finished hand of the saved table does not replay to its end"))
        kept.table.add(result, contract_text(hand.state), rules.next_context(hand.state, result))
        kept.hands.append(hand)
    return kept


def _replayed(raw: Any, rules: Rules) -> Hand:
    record = {k: v for k, v in raw.items() if k != "passed_out"} if isinstance(raw, dict) else raw
    try:
        rep = replay(record, rules=rules)
    except RecordError as exc:
        raise SaveError(_("a saved hand cannot be replayed: {error}").format(error=exc)) from None
    if rep.hand is None or rep.error_index is not None or not rep.hand.done:
        raise SaveError(_("a finished hand of the saved table does not replay to its end"))
    return rep.hand


def standings_text(kept: KeptTable) -> list[str]:
    """The standings as they are (the terminal shows them when the client closes)."""
    return standings_block(kept.title, len(kept.table.rows), kept.table.rounds, kept.table.standings(),
                           kept.names, kept.terms)


def standings_block(title: str, played: int, rounds: int, ranks: Sequence[Standing], names: Sequence[str],
                    terms: Terms) -> list[str]:
    """``Königrufen: standings after 3 of 12 rounds`` and a line per player, best first."""
    head = _("{game}: standings after {n} of {rounds} rounds").format(game=title, n=played, rounds=rounds)
    if terms.unit_name:
        head += " " + _("(sub points in {unit})").format(unit=terms.unit_name)
    return [head, *standings_lines(ranks, names, terms)]
