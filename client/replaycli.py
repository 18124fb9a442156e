"""``tarock replay``: replay hand records and show or check them.

Exit status 0 when every file replays to a finished hand; 2 when one does not
(it is named, with the action that failed and why; ``--json``: one object per
file and line, untranslated).
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from tarock.client import command
from tarock.client.command import err, out
from tarock.client.errors import store_text
from tarock.client.human import action_text, result_lines, trick_text
from tarock.client.i18n import _, n_
from tarock.client.text.rule_words import Terms, reason_text
from tarock.core.actions import Play
from tarock.core.cards import format_card
from tarock.core.codec import RecordError
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.plugins import Catalogue
from tarock.core.record import load, replay
from tarock.core.rules import RuleError
from tarock.core.state import Reason


def _number(units: int, unit: int) -> int | float:
    value = Fraction(units, unit)
    return int(value) if value.denominator == 1 else float(value)


def _summary(hand: Hand) -> dict[str, Any]:
    state = hand.state
    result = state.result
    assert result is not None
    return {
        "variant": state.variant,
        "dealer": state.dealer,
        "contract": state.contract.name if state.contract else None,
        "called": format_card(state.called) if state.called is not None else None,
        "declarers": list(result.declarers),
        "points": [_number(p, result.unit) for p in result.points],
        "units": list(result.points),
        "unit": result.unit,
        "won": result.won,
        "items": [{"name": i.name, "side": list(i.side), "opposite": list(i.opposite), "base": i.base,
                   "for_side": i.for_side, "made": i.made, "announced": i.announced, "kontra": i.kontra,
                   "scale": i.scale, "amount": i.amount, "label": i.label} for i in result.items],
        "kontra": state.kontra_level,
        "settlement": list(result.settlement),
        # the table context: a raised round (after a Fahrer) counts its amounts factor times
        "round": hand.context.round,
        "deal": hand.context.deal,
        "factor": hand.context.multiplier,
        "as_played": [a * hand.context.multiplier for a in result.settlement],
        "note": result.note,
        "tricks": [{"leader": t.leader, "seats": list(t.seats), "cards": [format_card(c) for c in t.cards],
                    "winner": t.winner} for t in state.tricks],
    }


def _replay_file(path: Path, catalogue: Catalogue) -> tuple[dict[str, Any], Hand | None]:
    """The JSON answer for one file and the finished hand (None on error)."""
    out: dict[str, Any] = {"file": str(path)}
    try:
        data = load(path)
        rep = replay(data, variants=catalogue.variants)
    except (RecordError, RuleError) as exc:
        out["error"] = {"message": str(exc)}
        return out, None
    hand = rep.hand
    assert hand is not None
    if rep.error_index is not None:
        assert rep.reason is not None
        raw = data["actions"][rep.error_index] if isinstance(data, dict) else None
        out["error"] = {"index": rep.error_index, "code": rep.reason.code, "reason": rep.reason.message,
                        "action": raw}
        return out, None
    if not hand.done:
        n = len(hand.state.actions)
        out["error"] = {"index": n, "code": "incomplete",
                        "reason": f"the record ends after {n} actions, before the hand is over "
                                  f"(phase {hand.state.phase}, seat {hand.state.to_move} to move)"}  # JSON
        return out, None
    out.update(_summary(hand))
    return out, hand


def _error_text(answer: dict[str, Any]) -> str:
    error = answer["error"]
    if "message" in error:  # the record's error names the file already where it read it
        message = store_text(error["message"])
        return message if answer["file"] in message else f"{answer['file']}: {message}"
    action = f" {json.dumps(error['action'], ensure_ascii=False)}" if error.get("action") is not None else ""
    if error["code"] == "incomplete":
        reason = n_("the record ends after {n} action, before the hand is over",
                    "the record ends after {n} actions, before the hand is over", error["index"]).format(
                        n=error["index"])
    else:
        reason = reason_text(Reason(error["code"], error["reason"]))
    return _("{file}: action {index}{action}: {reason} ({code})").format(
        file=answer["file"], index=error["index"], action=action, reason=reason, code=error["code"])


def _phases(hand: Hand) -> list[str]:
    """The phase each action of a finished hand was taken in (replayed from its deal)."""
    state = hand.state
    again = Hand(hand.rules, state.dealer, *hand.deal, state.seats, state.active, hand.context)
    out: list[str] = []
    for action in state.actions:
        out.append(again.state.phase)
        again.apply(action)
    return out


def _show_hand(answer: dict[str, Any], hand: Hand) -> None:
    names = [_("Seat {n}").format(n=s + 1) for s in range(hand.state.seats)]  # a player counts from 1
    obs = observe(hand, 0)
    terms = Terms.of(hand.rules.variant_facts)
    out(_("{file}: {variant}, dealer {dealer}").format(
        file=answer["file"], variant=hand.state.variant, dealer=names[hand.state.dealer]))
    context, factor = hand.context, hand.context.multiplier
    raised = " " + _("(this round counts x{n})").format(n=factor) if factor != 1 else ""
    out("  " + _("Round {round}, deal {deal}").format(round=context.round, deal=context.deal) + raised)
    for action, phase in zip(obs.history, _phases(hand), strict=True):
        if not isinstance(action, Play):
            out(f"  {action_text(action, names, None, terms, phase, hand.rules.facts)}")
    for i, trick in enumerate(obs.tricks, start=1):
        out("  " + _("Trick {n}: {cards}").format(n=f"{i:>2}", cards=trick_text(trick, names)))
    for line in result_lines(obs, names, terms):
        out(f"  {line}")
    result = hand.state.result
    if factor != 1 and result is not None and not result.passed_out:
        players = sorted({s for t in obs.tricks for s in t.seats} | {a.seat for a in obs.history})
        amounts = ", ".join(f"{names[s]} {terms.amount(result.settlement[s] * factor)}" for s in players)
        out("  " + _("As played, the round counting x{n}: {amounts}").format(n=factor, amounts=amounts))


def cmd_replay(args: argparse.Namespace) -> int:
    status = 0
    catalogue = command.catalogue(args)
    for name in args.files:
        answer, hand = _replay_file(Path(name), catalogue)
        if hand is None:
            status = 2
            if args.json:
                out(json.dumps(answer, ensure_ascii=False))
            else:
                err(f"tarock replay: {_error_text(answer)}")
            continue
        if args.json:
            out(json.dumps(answer, ensure_ascii=False))
        else:
            _show_hand(answer, hand)
    return status


def main(args: argparse.Namespace) -> int:
    """Run ``tarock replay`` as :mod:`client.cli` parsed it."""
    return command.guarded(cmd_replay, args)
