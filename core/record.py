"""Hand records (``tarock-record/1``): the deal plus the actions.

Replaying a record through the engine gives the identical state and result.
The format is documented in docs/records.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.actions import Action
from core.cards import Card, CardError, format_cards, parse_card
from core.codec import RecordError
from core.engine import DealError, Hand, IllegalAction
from core.registry import Variant, find_variant
from core.rules import RuleError, Rules
from core.state import Reason

FORMAT = "tarock-record/1"


@dataclass
class Record:
    """A hand: variant, options, dealer, deal and actions."""

    variant: str
    options: dict[str, Any]
    dealer: int
    hands: list[list[Card]]
    talon: list[list[Card]]
    actions: list[Action] = field(default_factory=list)
    seats: int = 4
    active: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "dealer": self.dealer,
            "hands": [format_cards(h) for h in self.hands],
            "talon": [format_cards(p) for p in self.talon],
            "actions": [a.to_record() for a in self.actions],
        }
        if self.active:
            out["active"] = list(self.active)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


def record_of(hand: Hand) -> Record:
    """The record of a hand played so far."""
    s = hand.state
    hands, talon = hand.deal
    return Record(s.variant, dict(hand.rules.options), s.dealer, [list(h) for h in hands],
                  [list(p) for p in talon], list(s.actions), s.seats, s.active)


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


def parse_record(data: object) -> ParsedRecord:
    """Check the envelope of a record object; raise RecordError on anything off."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (format is {data.get('format')!r})")
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
    if not isinstance(active_raw, list) or not all(isinstance(s, int) for s in active_raw):
        raise RecordError("active must be a list of seats")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    record = Record(variant, dict(options), dealer, hands, talon, [], seats, tuple(active_raw))
    return ParsedRecord(record, list(actions))


@dataclass
class Replay:
    """The outcome of replaying a record: the hand, or where it went wrong."""

    hand: Hand | None
    error_index: int | None = None
    reason: Reason | None = None


def replay(data: object, rules: Rules | None = None,
           variants: Mapping[str, Variant] | None = None) -> Replay:
    """Replay a record object.

    ``rules`` overrides the record's variant; ``variants`` (e.g. a plugins.toml
    catalogue's) is where its variant is looked up instead of the installed
    ones.  A malformed record raises :class:`RecordError`.  An action that is
    malformed or illegal stops the replay: the result names its index and
    reason and holds the hand as it stood before that action.
    """
    parsed = parse_record(data)
    rec = parsed.record
    if rules is None:
        try:
            if variants is None:
                rules = find_variant(rec.variant).rules(rec.options)
            elif rec.variant in variants:
                rules = variants[rec.variant].rules(rec.options)
            else:
                known = ", ".join(sorted(variants)) or "none"
                raise RecordError(f"unknown variant {rec.variant!r} (known: {known})")
        except RuleError as exc:
            raise RecordError(str(exc)) from None
    try:
        hand = Hand(rules, rec.dealer, rec.hands, rec.talon, rec.seats, rec.active)
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
