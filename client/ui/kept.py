"""What the lobby keeps between tables: the player's name, the saved tables, the finished ones.

- :func:`first_name`: the name to play under; asked once, at the first start (none in the
  settings and no ``--name``), and kept in the user's settings (:mod:`client.settings`);
- :func:`saved_rows`: the lobby's row of each saved table (:mod:`client.tables`);
- :func:`kept_page`: the statistics, the replay viewer or the name page, back to the lobby after;
- :func:`keep_network_table`: a network table that ended, kept with the others from its records;
- :func:`standings_on_exit`, :func:`network_standings`: the standings of the table left, printed
  on the terminal once the screen is gone.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from tarock.client.errors import error_text
from tarock.client.history import KeptTable, read_table, standings_block, standings_text
from tarock.client.i18n import _, p_
from tarock.client.replay_view import ReplayView
from tarock.client.settings import Settings, load, save
from tarock.client.statistics import Statistics
from tarock.client.tables import KeptTable as KeptFile
from tarock.client.tables import Tables
from tarock.client.text.rule_words import Terms
from tarock.client.ui.history_pages import ask_name, show_lines, show_replay
from tarock.client.ui.local import SavedTable, SaveError, TableSetup
from tarock.client.ui.model import TableModel
from tarock.core.plugins import Catalogue
from tarock.core.table import standings
from tarock.net.store import StoreError


async def first_name(args: argparse.Namespace) -> str:
    """``--name``, else the name kept in the settings, else asked now (and kept)."""
    given = (getattr(args, "name", None) or "").strip()
    if given:
        return given
    kept = load().name
    if kept:
        return kept
    name = await ask_name("", first=True)
    return _keep_name(name) or _("You")


def _keep_name(name: str) -> str:
    if name:
        try:
            save(Settings(name=name))
        except (OSError, StoreError) as exc:
            print(f"tarock: {exc}", file=sys.stderr, flush=True)
    return name


def saved_rows(tables: Tables, catalogue: Catalogue) -> list[tuple[str, str]]:
    """Each saved table's key and words: its game, the rounds played and who plays."""
    rows = []
    for saved in tables.saved():
        variant = catalogue.variants.get(saved.setup.variant)
        title = p_("variant", variant.title) if variant is not None else saved.setup.variant
        text = _("{game}, {n} of {rounds} rounds played").format(
            game=title, n=saved.played, rounds=saved.setup.rounds)
        rows.append((saved.key, text))
    return rows


def finished_tables(tables: Tables, catalogue: Catalogue) -> list[KeptTable]:
    """The finished tables that replay here (one that does not, with other plugins say, is left out)."""
    out = []
    for path in tables.finished():
        try:
            out.append(read_table(path, catalogue))
        except SaveError:
            continue
    return out


async def kept_page(kind: str, tables: Tables, catalogue: Catalogue, player: str) -> str:
    """Show the page ``kind`` (``stats``, ``replay``, ``name``); return the player's name after it."""
    if kind == "name":
        name = await ask_name(player, first=False)
        return _keep_name(name) if name != player else player
    finished = finished_tables(tables, catalogue)
    if kind == "stats":
        await show_lines(_("Statistics"), Statistics(finished).lines())
    else:
        await show_replay(ReplayView(finished))
    return player


_RECORD = re.compile(r"^table-(?P<table>[0-9a-f]+)-r(?P<round>\d+)-d(?P<deal>\d+)-(?P<node>[0-9a-f]+)\.json$")


def keep_network_table(tables: Tables, records: Path | None, node: str, since: float,
                       model: TableModel) -> None:
    """A network table that ended (played out, or ended with the standings): kept with the finished
    tables, from the record files this node wrote of it (none without a records folder).  The table
    is the one this node last wrote a hand of, if that was since ``since`` (its hands of earlier
    sessions too); its seats as the screen named them."""
    if records is None or not model.over or not records.is_dir():
        return
    found: dict[str, list[tuple[int, int, Path]]] = {}
    for path in records.glob("table-*.json"):
        name = _RECORD.fullmatch(path.name)
        if name is not None and node.startswith(name["node"]):
            found.setdefault(name["table"], []).append((int(name["round"]), int(name["deal"]), path))
    if not found:
        return
    table = max(found, key=lambda t: max(_mtime(p) for _r, _d, p in found[t]))
    if max(_mtime(p) for _r, _d, p in found[table]) < since:
        return
    try:
        hands = [json.loads(p.read_text(encoding="utf-8")) for _r, _d, p in sorted(found[table])]
        setup = TableSetup(str(hands[0]["variant"]), dict(hands[0].get("options") or {}), list(model.names),
                           [""] * len(model.names), model.rounds, 0, model.seat, table)
        tables.keep(setup, hands)
    except (OSError, ValueError, KeyError, TypeError, StoreError) as exc:
        print(f"tarock: {error_text(exc)}", file=sys.stderr, flush=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def network_standings(model: TableModel) -> None:
    """The standings of the network table ``model`` showed, printed on the terminal (none: no round)."""
    if model.sheet:
        ranks = standings(list(model.sheet[-1].totals))
        terms = Terms.of_rules(model.obs.rules if model.obs is not None else None)
        lines = standings_block(model.title, len(model.sheet), model.rounds, ranks, model.names, terms)
        print("\n".join(lines), flush=True)


def standings_on_exit(save: SavedTable, catalogue: Catalogue) -> None:
    """The standings of the table kept in ``save`` (in play, or moved to the history when it ended),
    printed on the terminal."""
    path = save.path
    if not path.exists() and isinstance(save, KeptFile):
        path = save.history / path.name
    try:
        kept = read_table(path, catalogue)
    except (SaveError, json.JSONDecodeError):
        return
    if kept.table.rows:
        print("\n".join(standings_text(kept)), flush=True)
