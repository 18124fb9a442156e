"""Hand records (``tarock-record/2``): the rules, the table context, the deal and the actions.

Replaying a record through the engine gives the identical state and result.
A record names its variant and options, the plugins of its ruleset with
their versions and the rules hash (which covers the options and the table
context), so replaying it with a missing or different plugin is refused with
a message saying what differs.  Records of the first format
(``tarock-record/1``, without rules or context) are still read.  The format
is documented in docs/records.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarock.core.actions import Action
from tarock.core.cards import Card, CardError, format_cards, parse_card
from tarock.core.codec import Codec, RecordError
from tarock.core.context import TableContext
from tarock.core.engine import DealError, Hand, IllegalAction
from tarock.core.registry import Variant, find_variant
from tarock.core.rules import RuleError, Rules
from tarock.core.state import Reason

FORMAT = "tarock-record/2"
FORMAT_V1 = "tarock-record/1"
RETIRED_OPTIONS = frozenset({"direction", "money_unit", "kontra_words"})
"""Options of first-format records that are facts of a variant now (how a
client draws the table and writes amounts); they are ignored when read."""

_CODEC = Codec()


@dataclass
class Record:
    """A hand: variant, options, dealer, deal, actions, and the table context and rules."""

    variant: str
    options: dict[str, Any]
    dealer: int
    hands: list[list[Card]]
    talon: list[list[Card]]
    actions: list[Action] = field(default_factory=list)
    seats: int = 4
    active: tuple[int, ...] = ()
    context: TableContext | None = None
    rules_hash: str = ""
    plugins: tuple[tuple[str, str], ...] = ()
    sources: dict[str, str] = field(default_factory=dict)
    """The sha256 of each plugin file loaded by path, by plugin name (the hash covers them)."""

    def to_json(self) -> dict[str, Any]:
        rules: dict[str, Any] = {"hash": self.rules_hash, "plugins": [list(p) for p in self.plugins]}
        if self.sources:
            rules["sources"] = dict(self.sources)
        out: dict[str, Any] = {
            "format": FORMAT,
            "variant": self.variant,
            "rules": rules,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()},
            "context": _CODEC.encode(self.context or TableContext(dealer=self.dealer), TableContext),
            "dealer": self.dealer,
            "hands": [format_cards(h) for h in self.hands],
            "talon": [format_cards(p) for p in self.talon],
            "actions": [_CODEC.encode_action(a) for a in self.actions],
        }
        if self.active:
            out["active"] = list(self.active)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


def record_of(hand: Hand) -> Record:
    """The record of a hand played so far."""
    from tarock.core.plugins import rules_hash

    s = hand.state
    hands, talon = hand.deal
    return Record(s.variant, dict(hand.rules.options), s.dealer, [list(h) for h in hands],
                  [list(p) for p in talon], list(s.actions), s.seats, s.active, hand.context,
                  rules_hash(hand.rules, hand.context), hand.rules.facts.plugins,
                  {name: digest for name, (digest, _file) in hand.rules.sources.items()})


def _cards(where: str, raw: object) -> list[Card]:
    if not isinstance(raw, list):
        raise RecordError(f"{where} must be a list of card names, not {raw!r}")
    try:
        return [parse_card(c) if isinstance(c, str) else _bad_card(where, c) for c in raw]
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _bad_card(where: str, raw: object) -> Card:
    raise RecordError(f"{where}: {raw!r} is not a card name")


@dataclass
class ParsedRecord:
    """A record whose actions are still raw: decoding them needs the rules."""

    record: Record
    raw_actions: list[object]
    version: int = 2


def _rules_part(data: Mapping[str, Any]) -> tuple[str, tuple[tuple[str, str], ...], dict[str, str]]:
    raw = data.get("rules")
    if not isinstance(raw, Mapping):
        raise RecordError("rules must be an object with the rules hash and the plugins")
    digest = raw.get("hash")
    plugins = raw.get("plugins")
    if not isinstance(digest, str) or not isinstance(plugins, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in plugins):
        raise RecordError("rules must hold a hash (a string) and plugins (a list of [name, version])")
    sources = raw.get("sources", {})
    if not isinstance(sources, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in sources.items()):
        raise RecordError("rules: sources must map plugin names to the sha256 of their files")
    return digest, tuple((p[0], p[1]) for p in plugins), dict(sources)


def parse_record(data: object) -> ParsedRecord:
    """Check the envelope of a record object; raise RecordError on anything off."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    fmt = data.get("format")
    if fmt not in (FORMAT, FORMAT_V1):
        raise RecordError(f"not a {FORMAT} record (format is {fmt!r})")
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise RecordError("the record names no variant")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("options must be an object")
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list):
        raise RecordError("hands must be a list with one list of cards per seat")
    seats = len(hands_raw)
    dealer = data.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < max(seats, 1):
        raise RecordError(f"dealer must be a seat 0..{seats - 1}, not {dealer!r}")
    hands = [_cards(f"hands[{i}]", h) for i, h in enumerate(hands_raw)]
    talon_raw = data.get("talon", [])
    if not isinstance(talon_raw, list):
        raise RecordError("talon must be a list of piles")
    talon = [_cards(f"talon[{i}]", p) for i, p in enumerate(talon_raw)]
    active_raw = data.get("active", [])
    if not isinstance(active_raw, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats for s in active_raw):
        raise RecordError(f"active must be a list of seats 0..{seats - 1}")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    record = Record(variant, dict(options), dealer, hands, talon, [], seats, tuple(active_raw))
    if fmt == FORMAT_V1:
        return ParsedRecord(record, list(actions), 1)
    record.rules_hash, record.plugins, record.sources = _rules_part(data)
    record.context = _CODEC.decode(data.get("context"), TableContext, "context")
    if record.context.dealer != dealer:
        raise RecordError(f"the context names seat {record.context.dealer} as dealer, "
                          f"the record seat {dealer}")
    return ParsedRecord(record, list(actions), 2)


@dataclass
class Replay:
    """The outcome of replaying a record: the hand, or where it went wrong."""

    hand: Hand | None
    error_index: int | None = None
    reason: Reason | None = None


def _rules_for(parsed: ParsedRecord, variants: Mapping[str, Variant] | None) -> Rules:
    rec = parsed.record
    options = dict(rec.options)
    try:
        if variants is None:
            variant = find_variant(rec.variant)
        elif rec.variant in variants:
            variant = variants[rec.variant]
        else:
            known = ", ".join(sorted(variants)) or "none"
            raise RecordError(f"unknown variant {rec.variant!r} (known: {known})")
        if parsed.version == 1:
            declared = variant.rules().option_specs
            options = {k: v for k, v in options.items() if k in declared or k not in RETIRED_OPTIONS}
        return variant.rules(options)
    except RuleError as exc:
        raise RecordError(f"the record's rules cannot be used: {exc}") from None


def check_rules(rec: Record, rules: Rules) -> None:
    """RecordError when ``rules`` are not the rules the record was played with.

    A plugin file changed since the record was written is named, whether or
    not its version says so: a record of the old rule must not replay to a
    new result.  A record made before plugin files were hashed (no
    ``sources``) is checked by names, versions, options and context only.
    """
    from tarock.core.plugins import rules_hash

    if not rec.rules_hash:
        return
    if rules_hash(rules, rec.context) == rec.rules_hash:
        return
    if not rec.sources and rules_hash(rules, rec.context, sources=False) == rec.rules_hash:
        return
    here = dict(rules.facts.plugins)
    then = dict(rec.plugins)
    diffs = []
    for name, ver in rec.plugins:
        if name not in here:
            diffs.append(f"plugin {name!r} {ver} is missing here")
        elif here[name] != ver:
            diffs.append(f"plugin {name!r} is version {here[name]} here, {ver} in the record")
        elif name in rec.sources and rec.sources[name] != rules.sources.get(name, ("", ""))[0]:
            file = rules.sources[name][1] if name in rules.sources else "its file"
            diffs.append(f"plugin {name!r} ({file}) changed since the record was written, though its "
                         f"version is still {ver} (give a changed rule a new version; the record "
                         "replays only with the file as it was)")
    diffs.extend(f"plugin {name!r} {ver} is here but not in the record"
                 for name, ver in rules.facts.plugins if name not in then)
    detail = "; ".join(diffs) or "the options or the table context differ from what the hash covers"
    raise RecordError(f"the record was played with other rules than {rec.variant} here: {detail}")


def replay(data: object, rules: Rules | None = None,
           variants: Mapping[str, Variant] | None = None) -> Replay:
    """Replay a record object.

    ``rules`` overrides the record's variant; ``variants`` (e.g. a plugins.toml
    catalogue's) is where its variant is looked up instead of the installed
    ones.  A malformed record, or one whose rules hash does not match the
    rules it is replayed with, raises :class:`RecordError`.  An action that
    is malformed or illegal stops the replay: the result names its index and
    reason and holds the hand as it stood before that action.
    """
    parsed = parse_record(data)
    rec = parsed.record
    if rules is None:
        rules = _rules_for(parsed, variants)
    check_rules(rec, rules)
    try:
        hand = Hand(rules, rec.dealer, rec.hands, rec.talon, rec.seats, rec.active, rec.context)
    except DealError as exc:
        raise RecordError(str(exc)) from None
    for index, raw in enumerate(parsed.raw_actions):
        try:
            action = rules.codec.decode_action(raw, rec.seats)
        except RecordError as exc:
            return Replay(hand, index, Reason("malformed-action", str(exc)))
        try:
            hand.apply(action)
        except IllegalAction as exc:
            return Replay(hand, index, exc.reason)
    return Replay(hand)


def load(path: Path) -> object:
    """Read a record file; RecordError if it is not JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
