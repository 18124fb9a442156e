"""The soak's checker: what every node holds after the run, against what must hold.

It reads, per node, the records folder (one file per finished deal), the crash-safe
store(s) in the state folder (the outcome of every deal: record or void, with reason
and culprit), and the JSON events of all its processes; and the soak's history. Each
check that fails adds a :class:`Violation`; the soak passes only with none.

The checks (names as printed):

- ``one-table``: every ``seated`` event names the same table.
- ``ended``: the table ends: every node's last process exited 0 and printed ``over``
  and ``standings``.
- ``records-identical``: every node holds the same record files, byte for byte.
- ``records-valid``: every record replays; its ``net`` fields agree with its file name.
- ``rounds-once``: the deals that count (played, not passed out) cover rounds 1..k
  each exactly once (k = the table's rounds when it ended); no deal number twice.
- ``outcomes``: per node, the store's deals and the record files agree; no deal is
  both recorded and void; deal numbers form one sequence 1..n without gaps; every node
  holds the same outcomes (same deals, same kind); a host store agrees with the seats.
- ``nobody-named``: no ``void`` event and no stored outcome names a culprit.
- ``standings``: every node's ``over`` totals equal the sum of the replayed
  settlements, and every node's standings are the same.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from net_procs import hand_file
from table_rules import TableRules
from tarock_procs import REPO, Bot

from tarock.core.codec import RecordError
from tarock.core.plugins import load_plugins

RECORD_NAME = re.compile(r"^table-([0-9a-f]+)-r(\d+)-d(\d+)\.json$")


@dataclass(frozen=True)
class Violation:
    check: str
    text: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.text}"


@dataclass
class Outcome:
    deal: int
    kind: str  # "hand" or "void"
    reason: str
    culprit: str


@dataclass
class NodeView:
    """What one node holds at the end."""

    name: str
    record_files: dict[str, bytes]
    outcomes: dict[int, Outcome] | None  # the seat store's, None when it cannot be read
    host_outcomes: dict[int, Outcome] | None  # its host store's (if it ever hosted)
    store_error: str
    events: list[dict[str, Any]]
    final_status: int | None
    final_events: list[dict[str, Any]]


@dataclass
class Report:
    violations: list[Violation] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def add(self, check: str, text: str) -> None:
        self.violations.append(Violation(check, text))


def read_outcomes(path: Path) -> dict[int, Outcome]:
    """The ``outcomes`` rows of a node's store (raises sqlite3.Error or ValueError)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT table_id, deal, kind, reason, culprit FROM outcomes "
                          "ORDER BY deal").fetchall()
    finally:
        db.close()
    tables = {row[0] for row in rows}
    if len(tables) > 1:
        raise ValueError(f"outcomes of {len(tables)} tables: {sorted(tables)}")
    return {int(d): Outcome(int(d), str(k), str(r), str(c)) for _, d, k, r, c in rows}


def _json_events(lines: Sequence[str]) -> list[dict[str, Any]]:
    found = []
    for line in lines:
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict) and "event" in value:
                found.append(value)
    return found


def node_view(name: str, records: Path, state: Path, runs: Sequence[Sequence[str]],
              final_status: int | None) -> NodeView:
    """A node's view from its folders and the output lines of each of its processes, in order."""
    files = {hand_file(p.name): p.read_bytes() for p in sorted(records.glob("*.json"))}
    outcomes = host_outcomes = None
    error = ""
    seat_store = [p for p in state.glob("*.sqlite") if not p.name.endswith(".host.sqlite")]
    host_store = sorted(state.glob("*.host.sqlite"))
    try:
        if len(seat_store) != 1:
            raise ValueError(f"{len(seat_store)} seat stores in {state}")
        outcomes = read_outcomes(seat_store[0])
        if host_store:
            host_outcomes = read_outcomes(host_store[0])
    except (sqlite3.Error, ValueError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    events = [e for run in runs for e in _json_events(run)]
    final_events = _json_events(runs[-1]) if runs else []
    return NodeView(name, files, outcomes, host_outcomes, error, events, final_status, final_events)


def bot_view(bot: Bot, state: Path) -> NodeView:
    """The view of a bot of this run (its processes have all ended)."""
    runs = [proc.lines() for proc in [*bot.earlier, bot.proc]]
    return node_view(bot.name, bot.records, state, runs, bot.proc.popen.returncode)


def folder_views(work: Path, history: Sequence[Mapping[str, Any]]) -> list[NodeView]:
    """The views of a kept run's nodes, from its folder (``logs/NAME.K.log``, records, state)."""
    ends = {e["node"]: e.get("status") for e in history if e["kind"] == "end"}
    names = sorted(p.name.removeprefix("records-") for p in work.glob("records-*"))
    names = sorted(set(names) | {p.name.removeprefix("state-") for p in work.glob("state-*")})
    views = []
    for name in names:
        logs = sorted(work.glob(f"logs/{name}.*.log"), key=lambda p: int(p.name.split(".")[-2]))
        runs = [p.read_text(encoding="utf-8", errors="replace").splitlines() for p in logs]
        views.append(node_view(name, work / f"records-{name}", work / f"state-{name}", runs, ends.get(name)))
    return views


def _replayed(data: bytes, tables: TableRules) -> tuple[dict[str, Any], tuple[int, ...] | None]:
    """The record object and its settlement (None: passed out); RecordError if it does not replay."""
    obj = json.loads(data)
    if not isinstance(obj, dict):
        raise RecordError("a record must be a JSON object")
    played = tables.replay(obj)
    if played.error_index is not None or played.hand is None:
        raise RecordError(f"does not replay (action {played.error_index}: {played.reason})")
    result = played.hand.state.result
    return obj, (tuple(result.settlement) if result is not None and not result.passed_out else None)


def check(nodes: Sequence[NodeView], *, rounds: int, history: Sequence[Mapping[str, Any]]) -> Report:
    """Every check over the nodes' views and the soak's history; the figures for the summary."""
    rep = Report()
    names = [n.name for n in nodes]

    # -- one table --------------------------------------------------------------------------
    tables = {e["table"] for n in nodes for e in n.events if e["event"] == "seated"}
    if len(tables) != 1:
        rep.add("one-table", f"seated events name {len(tables)} tables: {sorted(tables)}")
    hosts = sorted({(e["epoch"], e["host_name"]) for n in nodes for e in n.events if e["event"] == "seated"})
    rep.figures["hosts"] = [f"epoch {ep}: {h}" for ep, h in hosts]
    by_epoch: dict[int, set[str]] = {}
    for ep, h in hosts:
        by_epoch.setdefault(ep, set()).add(h)
    # Not a violation by itself (a host without a majority must only wait), but worth a look.
    rep.figures["epochs_with_two_hosts"] = {ep: sorted(hs) for ep, hs in by_epoch.items() if len(hs) > 1}

    # -- the table ends ---------------------------------------------------------------------
    ended = True
    for n in nodes:
        kinds = {e["event"] for e in n.final_events}
        if n.final_status != 0 or "standings" not in kinds or "over" not in kinds:
            ended = False
            rep.add("ended", f"{n.name}'s last process exited {n.final_status}"
                    f"{' (killed by the soak: it had not ended)' if n.final_status in (None, -9) else ''}, "
                    f"over {'printed' if 'over' in kinds else 'missing'}, "
                    f"standings {'printed' if 'standings' in kinds else 'missing'}")
    rep.figures["table_ended"] = ended

    # -- records: identical everywhere ------------------------------------------------------
    union = sorted({name for n in nodes for name in n.record_files})
    for name in union:
        holders = {n.name: n.record_files.get(name) for n in nodes}
        versions = {v for v in holders.values() if v is not None}
        missing = [k for k, v in holders.items() if v is None]
        if missing:
            rep.add("records-identical", f"{name} is missing on {', '.join(missing)}")
        if len(versions) > 1:
            rep.add("records-identical", f"{name} differs between nodes ({len(versions)} versions)")

    # -- records: valid, and the rounds they count --------------------------------------------
    tables = TableRules(load_plugins(REPO / "plugins.toml").variants)  # the table's rules, built once
    per_round: dict[int, list[int]] = {}
    by_deal: dict[int, list[str]] = {}
    settlements: list[tuple[int, ...]] = []
    passed_out = 0
    for name in union:
        match = RECORD_NAME.match(name)
        data = next(n.record_files[name] for n in nodes if name in n.record_files)
        if match is None:
            rep.add("records-valid", f"record file name {name} is not table-<id>-rNN-dNNN.json")
            continue
        rnd, deal = int(match.group(2)), int(match.group(3))
        by_deal.setdefault(deal, []).append(name)
        try:
            obj, settlement = _replayed(data, tables)
        except (RecordError, ValueError) as exc:
            rep.add("records-valid", f"{name}: {exc}")
            continue
        net = obj.get("net", {})
        if net.get("deal") != deal or net.get("round") != rnd or not str(net.get("table", "")).startswith(
                match.group(1)):
            rep.add("records-valid", f"{name}: its net fields say table {str(net.get('table'))[:12]} "
                    f"round {net.get('round')} deal {net.get('deal')}")
        if settlement is None:
            passed_out += 1
        else:
            per_round.setdefault(rnd, []).append(deal)
            settlements.append(settlement)
    for deal, files in sorted(by_deal.items()):
        if len(files) > 1:
            rep.add("rounds-once", f"deal {deal} has {len(files)} record files: {files}")
    for rnd, deals in sorted(per_round.items()):
        if len(deals) > 1:
            rep.add("rounds-once", f"round {rnd} counted {len(deals)} times (deals {deals})")
    counted = sorted(per_round)
    top = rounds if ended else (max(counted) if counted else 0)
    gaps = sorted(set(range(1, top + 1)) - set(counted))
    if gaps:
        rep.add("rounds-once", f"rounds never counted: {gaps}" + (" (the table ended)" if ended else ""))
    extra = [r for r in counted if r > rounds]
    if extra:
        rep.add("rounds-once", f"rounds beyond the table's {rounds}: {extra}")
    rep.figures["deals_recorded"] = len(union)
    rep.figures["rounds_counted"] = len(counted)
    rep.figures["passed_out"] = passed_out

    # -- outcomes in the stores ---------------------------------------------------------------
    file_deals: dict[str, set[int]] = {}
    for n in nodes:
        file_deals[n.name] = {int(m.group(3)) for f in n.record_files if (m := RECORD_NAME.match(f))}
    readable = [n for n in nodes if n.outcomes is not None]
    for n in nodes:
        if n.outcomes is None:
            rep.add("outcomes", f"{n.name}'s store cannot be read, its outcomes are unchecked: "
                    f"{n.store_error}")
    for n in readable:
        assert n.outcomes is not None
        stored_hands = {d for d, o in n.outcomes.items() if o.kind == "hand"}
        voids = {d for d, o in n.outcomes.items() if o.kind == "void"}
        odd = {d: o.kind for d, o in n.outcomes.items() if o.kind not in ("hand", "void")}
        if odd:
            rep.add("outcomes", f"{n.name}: outcomes of unknown kind {odd}")
        both = sorted(voids & file_deals[n.name])
        if both:
            rep.add("outcomes", f"{n.name}: deals {both} are void in its store but have record files "
                    "(a record on disk that no longer counts)")
        unrecorded = sorted(stored_hands - file_deals[n.name])
        if unrecorded:
            rep.add("outcomes", f"{n.name}: deals {unrecorded} are finished in its store "
                    "but have no record file")
        unstored = sorted(file_deals[n.name] - stored_hands - voids)
        if unstored:
            rep.add("outcomes", f"{n.name}: record files of deals {unstored} have no outcome in its store")
        held = set(n.outcomes) | file_deals[n.name]
        if held:
            lost = sorted(set(range(1, max(held) + 1)) - held)
            if lost:
                rep.add("outcomes", f"{n.name}: deals {lost} have no outcome (lost)")
    if readable:
        assert readable[0].outcomes is not None
        base = {d: o.kind for d, o in readable[0].outcomes.items()}
        for n in readable[1:]:
            assert n.outcomes is not None
            mine = {d: o.kind for d, o in n.outcomes.items()}
            if mine != base:
                diff = sorted(d for d in set(mine) | set(base) if mine.get(d) != base.get(d))
                rep.add("outcomes", f"{n.name} and {readable[0].name} hold other outcomes for deals {diff}: "
                        + ", ".join(f"{d}: {mine.get(d, '-')}/{base.get(d, '-')}" for d in diff[:8]))
        consensus: dict[int, set[str]] = {}
        for n in readable:
            assert n.outcomes is not None
            for d, o in n.outcomes.items():
                consensus.setdefault(d, set()).add(o.kind)
        for n in readable:
            for d, o in (n.host_outcomes or {}).items():
                if d in consensus and o.kind not in consensus[d]:
                    rep.add("outcomes", f"{n.name}'s host store holds deal {d} as {o.kind}, "
                            f"the seats as {sorted(consensus[d])}")

    # -- nobody named -------------------------------------------------------------------------
    void_events: Counter[str] = Counter()
    for n in nodes:
        for e in n.events:
            if e["event"] == "void":
                void_events[e.get("reason", "?")] += 1
                if e.get("culprit"):
                    rep.add("nobody-named", f"{n.name} printed a void naming {e['culprit'][:12]}: "
                            f"{e.get('reason')}")
        for store, outs in (("store", n.outcomes), ("host store", n.host_outcomes)):
            for d, o in sorted((outs or {}).items()):
                if o.culprit:
                    rep.add("nobody-named", f"{n.name}'s {store}: deal {d} void naming "
                            f"{o.culprit[:12]}: {o.reason}")
    void_deals: dict[int, str] = {}
    for n in readable:
        assert n.outcomes is not None
        for d, o in n.outcomes.items():
            if o.kind == "void":
                void_deals.setdefault(d, o.reason)
    rep.figures["void_deals"] = len(void_deals)
    rep.figures["void_reasons"] = dict(Counter(void_deals.values()))
    rep.figures["void_events_by_reason"] = dict(void_events)

    # -- standings ----------------------------------------------------------------------------
    totals = [sum(column) for column in zip(*settlements, strict=True)] if settlements else None
    standings: dict[str, Any] = {}
    for n in nodes:
        over = [e for e in n.final_events if e["event"] == "over"]
        if over and totals is not None and over[-1]["totals"] != totals:
            rep.add("standings", f"{n.name}'s over totals {over[-1]['totals']} are not the records' {totals}")
        last = [e for e in n.final_events if e["event"] == "standings"]
        if last:
            standings[n.name] = last[-1]["standings"]
    if len({json.dumps(s, sort_keys=True) for s in standings.values()}) > 1:
        rep.add("standings", "the nodes' standings differ: " + "; ".join(
            f"{k}: {[(s['name'], s['main']) for s in v]}" for k, v in standings.items()))
    rep.figures["totals"] = totals

    # -- faults, and how long the table took to deal again after a host was lost --------------
    faults = [e for e in history if e["kind"] == "fault"]
    rep.figures["faults"] = dict(Counter(e["fault"] for e in faults))
    # Events carry the wall time; the history's entries both the wall time and ``t``.
    start = next((e for e in history if e["kind"] == "start"), None)
    offset = start["wall"] - start["t"] if start is not None else 0.0
    begins = sorted(e["time"] - offset for n in nodes for e in n.events if e["event"] == "begin")
    recovery = []
    for fault in faults:
        host_lost = fault["fault"] in ("kill", "kill-host", "kill-seat") and fault.get("was_host")
        if fault["fault"] == "restart-all" or host_lost:
            after = [t for t in begins if t > fault["t"]]
            recovery.append({"t": fault["t"], "fault": fault["fault"], "node": fault.get("node"),
                             "next_begin_s": round(after[0] - fault["t"], 1) if after else None})
    rep.figures["host_loss_recovery"] = recovery
    rep.figures["nodes"] = names
    return rep


def summary_lines(rep: Report) -> list[str]:
    f = rep.figures
    lines = [
        f"deals recorded: {f.get('deals_recorded')} (rounds counted {f.get('rounds_counted')}, "
        f"passed out {f.get('passed_out')}); table ended: {f.get('table_ended')}",
        f"void deals: {f.get('void_deals')} {f.get('void_reasons')}",
        f"void events (all nodes): {f.get('void_events_by_reason')}",
        f"faults: {f.get('faults')}",
        f"hosts: {', '.join(f.get('hosts', []))}",
    ]
    if f.get("epochs_with_two_hosts"):
        lines.append(f"  note: more than one host at one epoch (split brain?): {f['epochs_with_two_hosts']}")
    for r in f.get("host_loss_recovery", []):
        took = ("no deal began afterwards" if r["next_begin_s"] is None
                else f"next deal began {r['next_begin_s']} s later")
        lines.append(f"  host loss at {r['t']:.1f} s ({r['fault']} {r['node'] or 'all'}): {took}")
    lines.append(f"violations: {len(rep.violations)}")
    lines += [f"  {v}" for v in rep.violations]
    return lines
