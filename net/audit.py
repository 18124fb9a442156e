"""The check every node makes at a hand's end, after every secret is opened.

From the openings the dealer rebuilds the card at every position and checks it
against every card read during the hand (:meth:`net.dealing.Dealer.audit`).
Then the hand is replayed through the normal engine from the real deal: every
action must be legal (follow suit, tarock, overtrump, Stichzwang, every bid
and discard against the hand); no hand the rules deal again was kept quiet;
every share came exactly at the step the engine shows that position to
another seat (not later: a refused reveal; not earlier: a card shown before
its time); every fact a seat told is the real one.  The first failure names
its author; a hand stopped by a fault that none of this confirms names the
accuser.  The result is the record every node writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tarock.core.actions import Action
from tarock.core.cards import Card, format_card
from tarock.core.codec import RecordError
from tarock.core.engine import Hand, IllegalAction
from tarock.core.record import record_of
from tarock.core.rules import RuleError
from tarock.net.dealing import HOST, DealingFault
from tarock.net.handlog import Author
from tarock.net.handplay import HandPlay
from tarock.net.protocol.messages import Act, Fault
from tarock.net.virtual import materialize, seen_by_all

NET_KEY = "net"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The audit's outcome: the record, or who cheated and how (``culprit`` None: nobody
    can be named, e.g. a hand stopped before its deal was fixed without a cheat found)."""

    record: dict[str, Any] | None
    culprit: Author | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.record is not None


@dataclass(frozen=True, slots=True)
class _Moment:
    """What the checks after the replay read off the engine before one action (the last:
    at the hand's end), so that the hand is replayed once: the declarer, the called card,
    and what each seat sees (:func:`seen_by_all`, if asked; what it raised, to be raised
    where the shares' check asks for it)."""

    declarer: int | None
    called: Card | None
    visible: list[set[Card]] | Exception | None

    @classmethod
    def of(cls, hand: Hand, seen: bool) -> _Moment:
        visible: list[set[Card]] | Exception | None = None
        if seen:
            try:
                visible = seen_by_all(hand)
            except Exception as exc:  # raised where the shares' check reads it, as before
                visible = exc
        return cls(hand.state.declarer, hand.state.called, visible)

    def seen(self) -> list[set[Card]]:
        if isinstance(self.visible, Exception):
            raise self.visible
        assert self.visible is not None
        return self.visible


class _Found(Exception):
    def __init__(self, culprit: Author | None, reason: str) -> None:
        super().__init__(reason)
        self.culprit = culprit
        self.reason = reason


def audit(play: HandPlay, round_no: int, rules_hash: str, bots: Sequence[int] = ()) -> Verdict:
    """Check the hand ``play`` followed (every opening in) and build its record."""
    if play.fault is not None and not play.dealer.fixed:
        accused = play.fault.msg
        assert isinstance(accused, Fault)
        return Verdict(None, play.fault.author, f"{_who(play.fault.author)} accused "
                       f"{accused.culprit[:8] or 'someone'} ({accused.reason}) before the deal was "
                       "fixed, which the log does not confirm")
    try:
        record = _audit(play, round_no, rules_hash, bots)
    except _Found as found:
        return Verdict(None, found.culprit, found.reason)
    if play.fault is not None:
        accused = play.fault.msg
        assert isinstance(accused, Fault)
        return Verdict(None, play.fault.author,
                       f"{_who(play.fault.author)} accused {accused.culprit[:8] or 'someone'} "
                       f"({accused.reason}), which the audit does not confirm")
    return Verdict(record)


def _who(author: Author | None) -> str:
    return "the host" if author == HOST else "nobody" if author is None else f"seat {author}"


def _audit(play: HandPlay, round_no: int, rules_hash: str, bots: Sequence[int]) -> dict[str, Any]:
    if not play.dealer.fixed:
        raise _Found(None, "the hand stopped before its deal was fixed")
    try:
        cards = play.dealer.audit()
    except DealingFault as exc:
        raise _Found(exc.seat, exc.reason) from None
    layout = play.layout
    hands, talon = layout.deal_of(cards)
    rules = play.rules
    hand = Hand(rules, play.begin.dealer, hands, talon, play.seats, play.begin.active)
    actions = _actions(play, cards)
    stopped = play.fault is not None
    shares = play.dealer.public_shares
    moments: list[_Moment] = []
    for index, action in enumerate(actions):
        moments.append(_Moment.of(hand, shares))
        try:
            hand.apply(action)
        except IllegalAction as exc:
            raise _Found(action.seat, f"seat {action.seat}'s action {index} ({action.describe()}) is not "
                                      f"legal: {exc.reason.message}") from None
        except RuleError as exc:
            raise _Found(None, f"the rules failed on action {index}: {exc}") from None
    if not stopped and not hand.done:
        raise _Found(None, "the hand is not over")
    moments.append(_Moment.of(hand, shares and not hand.done))
    _redeals(play, hands)
    _facts(play, moments)
    if shares:
        _shares(play, cards, moments, hand)
    if stopped:
        return {}
    record = record_of(hand).to_json()
    record[NET_KEY] = {"table": play.ctx.table, "epoch": play.ctx.epoch, "deal": play.ctx.deal,
                       "round": round_no, "rules": rules_hash, "opening": play.dealer.summary(),
                       "bots": [i for i, a in enumerate(actions) if a.seat in bots],
                       "log": play.head}
    return record


def _actions(play: HandPlay, cards: Sequence[Card]) -> list[Action]:
    out: list[Action] = []
    for entry in play.acts:
        msg = entry.msg
        assert isinstance(msg, Act)
        try:
            action: Action = play.rules.codec.decode_action(materialize(msg.action, cards), play.seats)
        except (RecordError, ValueError) as exc:
            why = f"{_who(entry.author)}'s action {msg.index} is malformed: {exc}"
            raise _Found(entry.author, why) from None
        out.append(action)
    return out


def _redeals(play: HandPlay, hands: Sequence[Sequence[Card]]) -> None:
    if play.layout.redeal is None or not play.dealer.public_shares:
        return  # the dealer itself dealt again where the rules say so (commit-reveal)
    for seat, hand in enumerate(hands):
        if hand and play.att.redeal_reason(seat, hand) is not None:
            raise _Found(seat, f"seat {seat} kept a hand the rules deal again")


def _facts(play: HandPlay, moments: Sequence[_Moment]) -> None:
    told = sorted(play.att.facts, key=lambda f: f[1])
    last = len(moments) - 1
    for k, state in enumerate(moments):
        for author, step, facts in told:
            if step != k:
                continue
            called = facts.get("called")
            if state.declarer != author or state.called is None or format_card(state.called) != called:
                raise _Found(author, f"{_who(author)} told the called card {called}, the rules call "
                                     f"{format_card(state.called) if state.called is not None else 'none'}")
        if k < last and state.called is not None and state.declarer is not None \
                and not any(author == state.declarer and step <= k for author, step, _ in told):
            # The card is called and the hand went on: its declarer owed it at this step at the
            # latest (docs/protocol.md, "Facts"); the others acted on a card they could not know.
            raise _Found(state.declarer, f"{_who(state.declarer)} kept back its called card "
                                         f"{format_card(state.called)} at step {k}")


def _shares(play: HandPlay, cards: Sequence[Card], moments: Sequence[_Moment], hand: Hand) -> None:
    """Every share at the step the engine shows its position to another seat (``hand``: the
    engine at the hand's end)."""
    at = {c: p for p, c in enumerate(cards)}
    contributors = set(play.att.contributors)
    first: dict[tuple[Author, int], tuple[int, str]] = {}
    for author, p, k, kind in play.att.share_log:
        first.setdefault((author, p), (k, kind))
    shown: dict[tuple[Author, int], list[tuple[int, str]]] = {}
    """(author, step) -> (position, kind) of its first share of each position, by position."""
    for (author, p), (at_step, kind) in sorted(first.items()):
        shown.setdefault((author, at_step), []).append((p, kind))
    seen: dict[int, set[int]] = {s: set() for s in range(play.seats)}
    checked: dict[Author, set[int]] = {j: set() for j in contributors}
    """Positions whose share was found in time at a complete step: the wanted positions
    only grow and a share in time at one step is in time at every later one."""
    last = len(moments) - 1
    for k, moment in enumerate(moments):
        if k == last and hand.done:
            for t in hand.state.tricks:
                for s in seen:
                    seen[s].update(at[c] for c in t.cards)
        else:
            for s, visible in enumerate(moment.seen()):
                seen[s].update(at[c] for c in visible)
        complete = play.step_complete(k) or (k == last and hand.done)
        for j in sorted(contributors):
            want = {p for s, ps in seen.items() if s != j for p in ps}
            for p in sorted(want - checked[j]) if complete else ():
                step, _ = first.get((j, p), (None, ""))
                if step is None or step > k:
                    raise _Found(j, f"{_who(j)} did not show position {p} ({format_card(cards[p])}) "
                                    f"at step {k}, when the rules show it")
                checked[j].add(p)
            for p, kind in shown.get((j, k), ()):
                if p not in want and kind != "redeal":
                    raise _Found(j, f"{_who(j)} showed position {p} ({format_card(cards[p])}) at step {k}, "
                                    "before the rules show it")

