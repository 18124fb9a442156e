"""The table context (core/context.py): what carries from one hand to the next.

docs/rules.md §3.6: "Ein Tisch spielt 12 Runden"; the deal moves on one seat a round;
docs/rules.md §3.4: a deal that all four pass is void: it is dealt again
and does not count as one of the table's rounds.  §17.7, Fahrer: "Die
nächste Spielrunde (4 bzw. 5 Spiele) zählt doppelt".  Issue 7: "What carries
from hand to hand (dealer, round, the doubled rounds after a Fahrer, a house
rule's memory) is an explicit immutable value, updated by a hook after each
hand, written into every record, covered by the rules hash and honoured by
replay."
"""

from __future__ import annotations

import json
import random
from dataclasses import FrozenInstanceError
from itertools import pairwise
from typing import Any

import pytest
from engine_players import random_players

from tarock.core.actions import Call, Pass
from tarock.core.codec import RecordError
from tarock.core.context import TableContext, following
from tarock.core.contracts import ContractSpec
from tarock.core.deal import deal
from tarock.core.engine import DealError, Hand
from tarock.core.hookspecs import hookimpl
from tarock.core.househooks import remembering
from tarock.core.observation import observe
from tarock.core.plugins import rules_hash
from tarock.core.record import record_of, replay
from tarock.core.registry import find_variant
from tarock.core.rules import Rules
from tarock.core.state import HandResult, HandState, Verdict
from tarock.core.table import Table
from tarock.variants.tarock54 import Tarock54


def finish(hand: Hand, rng: random.Random) -> HandResult:
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(rng.choice(hand.legal(seat)))
    assert hand.state.result is not None
    return hand.state.result


def passed_out(rules: Rules, dealer: int, context: TableContext) -> Hand:
    hand = Hand(rules, dealer, *deal(rules, random.Random(dealer)), context=context)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(Pass(seat))
    assert hand.state.passed_out
    return hand


# -- following: the core's part -------------------------------------------------------------------

def test_the_deal_moves_on_and_the_round_counts() -> None:
    context = TableContext(dealer=2)
    nxt = following(context, 4, passed_out=False, next_round_factor=1)
    assert (nxt.round, nxt.deal, nxt.dealer, nxt.multiplier) == (2, 1, 3, 1)
    assert following(nxt, 4, False, 1).dealer == 0
    assert following(TableContext(dealer=4), 5, False, 1).dealer == 0  # five at the table


def test_a_passed_out_deal_keeps_the_dealer_and_the_round() -> None:
    context = TableContext(round=3, dealer=1)
    again = following(context, 4, passed_out=True, next_round_factor=1)
    assert (again.round, again.deal, again.dealer) == (3, 2, 1)
    assert following(again, 4, False, 1) == TableContext(round=4, deal=1, dealer=2)


def test_the_round_after_a_fahrer_counts_double() -> None:
    """docs/rules.md §17.7: "Die nächste Spielrunde (4 bzw. 5 Spiele) zählt doppelt" -- the hand itself
    counts once; a passed-out deal inside the doubled round is no game of it."""
    context = TableContext(dealer=0)
    assert context.multiplier == 1
    context = following(context, 4, False, next_round_factor=2)
    multipliers = []
    for n in range(6):
        multipliers.append(context.multiplier)
        context = following(context, 4, passed_out=n == 1, next_round_factor=1)
        if n == 1:
            assert context.multiplier == 2 and context.deal == 2  # the void deal: again, still doubled
    assert multipliers == [2, 2, 2, 2, 2, 1]  # four games and the void deal between them
    # five at the table: five games
    five = following(TableContext(), 5, False, 2)
    counted = 0
    while five.multiplier == 2:
        counted += 1
        five = following(five, 5, False, 1)
    assert counted == 5


def test_a_context_is_an_immutable_checked_value() -> None:
    context = TableContext(memory={"club": {"seen": [1, 2]}})
    with pytest.raises(FrozenInstanceError):
        context.dealer = 2  # type: ignore[misc]
    assert context.recalled("club") == {"seen": [1, 2]} and context.recalled("other", 0) == 0
    later = context.remember("other", [True])
    assert later.recalled("other") == [True] and context.recalled("other") is None
    for bad in ({"round": 0}, {"deal": 0}, {"dealer": -1}, {"factor": 0}, {"raised": -1}):
        with pytest.raises(ValueError, match="not a table context"):
            TableContext(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"memory\.club is not plain data"):
        TableContext(memory={"club": object()})


# -- the rules' part: tarock_next_context and a house rule's memory --------------------------------

class NoTwiceInARow:
    """A house rule over tarock54: who called in the last hand may not call in this one.
    It remembers the last declarer in the table context."""

    name = "no-twice"
    version = "1.0"

    @hookimpl
    def tarock_bid_verdict(self, state: HandState, seat: int, contract: ContractSpec) -> Verdict | None:
        if state.context.recalled(self.name, {}).get("last") == seat:
            return Verdict.deny("called-last-hand", "you called in the last hand: let another call now")
        return None

    # after every hand played (a void deal changes nothing)
    tarock_next_context = remembering("no-twice", lambda context, state: {"last": state.declarer})


def house() -> Rules:
    return Rules("tarock54-no-twice", [Tarock54(), NoTwiceInARow()])


def test_a_table_carries_dealer_round_and_memory_through_its_hands() -> None:
    rules = house()
    rng = random.Random(11)
    table = Table(rounds=6)
    declarers: list[int | None] = []
    while not table.over:
        context = table.context
        hand = Hand(rules, table.dealer, *deal(rules, rng), context=context)
        last = context.recalled("no-twice", {}).get("last")
        while hand.state.phase == "bidding":
            seat = hand.state.to_move
            assert seat is not None
            legal = hand.legal(seat)
            if seat == last:  # the memory of the last hand holds: no call for him
                assert legal == [Pass(seat)]
            hand.apply(rng.choice(legal))
        result = finish(hand, rng)
        declarers.append(hand.state.declarer)
        assert observe(hand, 0).context == context  # every seat sees what the table carried in
        nxt = rules.next_context(hand.state, result)
        table.add(result, hand.state.contract.name if hand.state.contract else "", nxt)
        assert table.context == nxt
        if result.passed_out:
            assert (nxt.dealer, nxt.round, nxt.deal) == (context.dealer, context.round, context.deal + 1)
            assert nxt.memory == context.memory
        else:
            assert (nxt.dealer, nxt.round, nxt.deal) == ((context.dealer + 1) % 4, context.round + 1, 1)
            assert nxt.recalled("no-twice") == {"last": hand.state.declarer}
    assert [row.dealer for row in table.rows] == [0, 1, 2, 3, 0, 1]
    played = [d for d in declarers if d is not None]
    assert all(a != b for a, b in pairwise(played))


def test_the_memory_decides_in_the_auction() -> None:
    rules = house()
    context = TableContext(dealer=3, memory={"no-twice": {"last": 0}})
    hand = Hand(rules, 3, *deal(rules, random.Random(4)), context=context)
    assert hand.state.to_move == 0 and hand.legal(0) == [Pass(0)]
    call = next(a for a in house().codec.actions.values() if a.type == "call")
    reason = hand.why_not(call(0, 19))
    assert reason is not None and reason.code == "called-last-hand"
    free = Hand(rules, 3, *deal(rules, random.Random(4)), context=TableContext(dealer=3))
    assert any(isinstance(a, Call) for a in free.legal(0))


def test_a_hand_and_its_context_must_agree_on_the_dealer() -> None:
    rules = find_variant("tarock54").rules()
    with pytest.raises(DealError, match="the table context names seat 2 as dealer, the hand seat 1"):
        Hand(rules, 1, *deal(rules, random.Random(1)), context=TableContext(dealer=2))


def test_a_passed_out_deal_keeps_the_dealer_at_a_real_table() -> None:
    rules = find_variant("tarock54").rules()
    table = Table()
    hand = passed_out(rules, 0, table.context)
    result = hand.state.result
    assert result is not None and result.passed_out
    assert table.add(result, "", rules.next_context(hand.state, result)) is None
    assert (table.dealer, table.round, table.passed_out, table.context.deal) == (0, 1, 1, 2)


def test_the_doubled_round_after_a_real_fahrer() -> None:
    """A Fahrer of ``koenigrufen-course`` raises the next round through its result; the
    rules' next context carries it and the table doubles the next four hands."""
    rules = find_variant("koenigrufen-course").rules()
    rng = random.Random(2)
    for _ in range(300):
        dealer = rng.randrange(4)
        hand = Hand(rules, dealer, *deal(rules, rng), context=TableContext(dealer=dealer))
        first = hand.state.to_move
        assert first is not None
        fahrer = [a for a in hand.legal(first) if getattr(a, "contract", "") == "fahrer"]
        if not fahrer:
            continue
        hand.apply(fahrer[0])
        while hand.state.phase == "bidding":  # the others say "Weiter"
            seat = hand.state.to_move
            assert seat is not None
            hand.apply(Pass(seat))
        assert hand.state.contract is not None and hand.state.contract.name == "fahrer"
        result = finish(hand, rng)
        assert result.next_round_factor == 2
        nxt = rules.next_context(hand.state, result)
        assert (nxt.factor, nxt.raised, nxt.multiplier, nxt.dealer) == (2, 4, 2, (dealer + 1) % 4)
        return
    raise AssertionError("no Fahrer in 300 deals")


# -- records carry their context ------------------------------------------------------------------------

def recorded(rules: Rules, context: TableContext, seed: int) -> tuple[Hand, dict[str, Any]]:
    hand = Hand(rules, context.dealer, *deal(rules, random.Random(seed)), context=context)
    finish(hand, random.Random(seed))
    return hand, json.loads(record_of(hand).dumps())


def test_a_record_carries_and_replays_under_its_context() -> None:
    rules = house()
    context = TableContext(round=5, deal=2, dealer=1, factor=2, raised=3, memory={"no-twice": {"last": 2}})
    hand, data = recorded(rules, context, 7)
    assert data["format"] == "tarock-record/2"
    assert rules.codec.decode(data["context"], TableContext) == context
    assert data["rules"]["hash"] == rules_hash(rules, context) != rules_hash(rules)
    assert [p[0] for p in data["rules"]["plugins"]] == ["core", "tarock54", "no-twice"]
    again = replay(data, house())
    assert again.error_index is None and again.hand is not None
    assert again.hand.state.context == context and again.hand.state.result == hand.state.result


def test_a_record_whose_context_was_changed_is_refused() -> None:
    rules = house()
    _, data = recorded(rules, TableContext(dealer=0, memory={"no-twice": {"last": 3}}), 3)
    changed = {**data, "context": {**data["context"], "memory": {}}}
    with pytest.raises(RecordError, match="other rules than tarock54-no-twice"):
        replay(changed, house())
    moved = {**data, "context": {**data["context"], "dealer": 2}}
    with pytest.raises(RecordError, match="the context names seat 2 as dealer, the record seat 0"):
        replay(moved, house())
    broken = {**data, "context": {**data["context"], "round": "one"}}
    with pytest.raises(RecordError, match=r"^context\.round must be an integer"):
        replay(broken, house())


def test_replay_honours_the_memory_at_the_action_that_breaks_it() -> None:
    """The same deal and actions under a context that forbids the call: the replay stops at
    the call (the hash is made for that context, so only the rule can refuse it)."""
    rules = house()
    for seed in range(40):
        hand, data = recorded(rules, TableContext(dealer=0), seed)
        if hand.state.declarer is None:
            continue
        forbidding = TableContext(dealer=0, memory={"no-twice": {"last": hand.state.declarer}})
        data = {**data, "context": rules.codec.encode(forbidding, TableContext),
                "rules": {**data["rules"], "hash": rules_hash(rules, forbidding)}}
        rep = replay(data, house())
        call = next(i for i, a in enumerate(hand.state.actions) if isinstance(a, Call))
        assert rep.error_index == call and rep.reason is not None and rep.reason.code == "called-last-hand"
        assert rep.hand is not None and len(rep.hand.state.actions) == call  # stood as before it
        return
    raise AssertionError("no hand was called")


def test_a_first_format_record_replays_under_a_fresh_context() -> None:
    rules = find_variant("tarock54").rules()
    hand, data = recorded(rules, TableContext(dealer=2), 5)
    old = {k: v for k, v in data.items() if k not in ("rules", "context")}
    old["format"] = "tarock-record/1"
    rep = replay(old)
    assert rep.error_index is None and rep.hand is not None
    assert rep.hand.state.context == TableContext(dealer=2) and rep.hand.state.result == hand.state.result


async def test_a_session_hands_the_context_on() -> None:
    """The client's session plays a table: each hand under the context the last one left."""
    from tarock.client.session import Session

    session = Session(find_variant("tarock54"), random_players(4, seed=3), seed=3, rounds=4)
    outcomes = []
    while not session.table.over:
        outcomes.append(await session.play_hand())
    assert outcomes[0].hand.state.context == TableContext(dealer=0)
    for before, after in pairwise(outcomes):
        assert after.hand.state.context == session.rules.next_context(before.hand.state, before.result)
