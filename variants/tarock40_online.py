"""``tarock40-online``: the house rules of docs/rules.md §14 over ``tarock40``.

The source is the help page of an online platform; its lists were lost, and
docs/rules.md §14 reads it as ``tarock40`` with these differences, which
are all this plugin implements (everything else is asked from ``tarock40``,
registered below it):

- games Rufer (``rufspiel``) < Farbensolo (``faberl``) < Solo (``solo``); the
  additions Absolut, Pagat, Trull and Valat are announced with a bid or later
  in the auction, by either party;
- the round's Rufer is the forehand (the dealer moves on each round, so the
  Rufer rotates; a bad deal is dealt again by the same dealer): "nur der
  Rufer muss zumindest einmal etwas ansagen", so there is no pass-out;
- the auction runs "bis drei Spieler nacheinander 'weiter' gesagt haben":
  higher games, additions and Kontras (on the game and on each addition,
  each with its own chain) in any order; a higher game wipes the additions
  and Kontras of the one before; whoever agreed to the game in play (by
  "weiter" or an addition or Kontra) may not bid a higher one over it;
- "Gegen das Spiel": an addition by an opponent of the declarer carries the
  flag ``against`` so it is clear which party it is for; a partner who
  announces or raises a Kontra for his side makes the partnership public;
- a Valat, silent or announced, replaces the game and every other premium;
  after a Valat is announced only Kontras on it may follow;
- Farbensolo: Pagat, Trull and Mond fangen neither count nor may be announced;
  the four Kings (Königstrull) count;
- Absolut counts silently for either party (56 points);
- an announced Pagat is held to the last possible moment;
- play goes clockwise (the variant's fact ``direction``, for the client;
  seats still follow seat + 1 in the engine).

The tournament rules of docs/rules.md §8.3 hold here too, since §14 names
every way this game differs from ``tarock40`` and they are not among them
(an earlier version dropped them; the review restored them):

- Pflichtkontra: while the game in play is a Rufer without additions for
  the declarer's party and nobody has said Kontra on it, an opponent holding
  Pagat, Mond and Sküs may outbid it or say Kontra on it, but not agree to it
  otherwise ("weiter", an addition);
- Kontra on a Valat: the first Kontra on a Valat announced for the
  declarer's party needs the strong hand docs/rules.md §13.7 describes;
- a Valat of the Solo or Farbensolo declarer needs a hand that makes it on
  its own (docs/rules.md §14.4 too: "erlaubt es das Programm nicht 'Valat' anzusagen,
  wenn der Spieler ein viel zu schwaches Blatt hat").

The called card of a Rufer is set, and shown to all, when the Rufer is bid
(not when the auction ends as in ``tarock40``): the partner may add to the
game and say Kontra during the auction, so he must know he is the partner.

Settlement: every item carries its own Kontra level (the game its chain,
each announced addition its own, silent premiums none): the variant's Kontra
scope is ``each``.

Everything here is data and hooks over ``tarock40``: the contracts are
tarock40's, narrowed and renamed (a wrapper of ``tarock_contracts``); the
auction is core's open auction; additions and Kontras say their verdicts
explicitly for every name, so tarock40's own verdicts are not asked.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from tarock.core.actions import KontraTarget
from tarock.core.cards import PAGAT, TAROCK, Card
from tarock.core.contracts import CallRule, ContractSpec, Outcome
from tarock.core.defaults import trump_suit
from tarock.core.facts import VariantFacts
from tarock.core.hookcall import after_answer
from tarock.core.hookspecs import hookimpl
from tarock.core.open_auction import OpenAuction
from tarock.core.phases import BIDDING, contract_phases
from tarock.core.registry import Variant
from tarock.core.rules import Rules
from tarock.core.state import ALLOW, Announcement, HandState, PhaseId, Reason, Score, Verdict
from tarock.core.tricks import legal
from tarock.variants.cards40 import VALUE40, count40
from tarock.variants.tarock40 import (
    ABSOLUT,
    ABSOLUT_ANN,
    FABERL,
    MONDFANG,
    PAGAT_ANN,
    PLAYABLE,
    RUFSPIEL,
    SOLO,
    TRULL_ANN,
    VALAT_ANN,
    Tarock40,
    game_score,
    party_cards,
    passed_out_score,
    valat_kontra_verdict,
)
from tarock.variants.tarock40_valat import own_valat

VERSION: Final = "2.0"
ADDITIONS: Final = (ABSOLUT_ANN, PAGAT_ANN, TRULL_ANN, VALAT_ANN)
"""The additions (Zusätze)."""
TITLES: Final = {RUFSPIEL: "Rufer", FABERL: "Farbensolo", SOLO: "Solo"}
NO_TAROCK_PREMIUMS: Final = frozenset({PAGAT_ANN, TRULL_ANN, MONDFANG})
"""docs/rules.md §14.7: "Beim Farbensolo zählen die Prämien Pagat, Trull und Mondfang nicht"."""


def announced(state: HandState, name: str) -> Announcement | None:
    for a in state.announcements:  # a loop, not next() over a generator: asked for every addition
        if a.name == name:
            return a
    return None


def valat_announced(state: HandState) -> bool:
    return announced(state, VALAT_ANN) is not None


def pagat_held(state: HandState, seat: int) -> bool:
    """docs/rules.md §14.6: "Für den Ansager ist es Pflicht, den Pagat erst zum letzt
    möglichen Zeitpunkt zu spielen"."""
    ann = announced(state, PAGAT_ANN)
    return ann is not None and ann.seat == seat


class Tarock40Online:
    """The hooks in which the online platform (docs/rules.md §14) differs from ``tarock40``."""

    name = "tarock40-online"
    version = VERSION
    applies_to = ("tarock40",)

    def __init__(self) -> None:
        self.auction = OpenAuction(passes=3)

    @hookimpl(wrapper=True)
    def tarock_contracts(self, options: Mapping[str, Any]) -> Generator[None, Any, list[ContractSpec]]:
        base: Sequence[ContractSpec] = yield
        out = []
        for spec in base:
            if spec.name not in TITLES:
                continue
            spec = replace(spec, title=TITLES[spec.name])
            if spec.call is not None:
                # set, and shown to all, with the bid: the partner may add and Kontra in the auction
                spec = replace(spec, call=CallRule(spec.call.cards, spec.call.highest, when="bid-auto"))
            if spec.tricks.trump == "suit":
                spec = replace(spec, premiums=spec.premiums - NO_TAROCK_PREMIUMS)
            out.append(spec)
        return out

    @hookimpl
    def tarock_variant_facts(self, options: Mapping[str, Any]) -> VariantFacts:
        # every call is set with the bid (the wrapper above): the partner speaks in the auction
        playable = replace(PLAYABLE, calls=frozenset({"bid-auto"}))
        return VariantFacts(unit=1, card_values=VALUE40, kontra_scope="each", direction="clockwise",
                            playable=playable)

    @hookimpl
    def tarock_phases(self, state: HandState) -> Sequence[PhaseId]:
        # the Kontras are said in the open auction
        return contract_phases(state.contract.spec if state.contract is not None else None, kontra=None)

    @hookimpl
    def tarock_phase(self, name: PhaseId) -> OpenAuction | None:
        return self.auction if name == BIDDING else None

    @hookimpl
    def tarock_announce_verdict(self, state: HandState, seat: int, name: str,
                                contract: ContractSpec) -> Verdict:
        if name not in ADDITIONS:
            return Verdict.deny("unknown-addition", f"{name!r} is no addition (only {', '.join(ADDITIONS)})")
        bidding = state.contract is None or state.contract.spec is not contract
        if not bidding and valat_announced(state):
            return Verdict.deny("after-valat", "after a Valat no further additions can be announced")
        if contract.tricks.trump == "suit" and name in (PAGAT_ANN, TRULL_ANN):
            return Verdict.deny("not-in-farbensolo", f"{name} does not count in a Farbensolo")
        if name == PAGAT_ANN and PAGAT not in state.hands[seat]:
            return Verdict.deny("pagat-not-held", "only the holder of the Pagat can announce it")
        checked = name == VALAT_ANN and (bidding or seat == state.declarer)
        if checked and not (verdict := own_valat(state, seat, contract, "valat-too-weak")).allowed:
            return verdict
        return ALLOW

    @hookimpl
    def tarock_kontra_verdict(self, state: HandState, seat: int, target: KontraTarget) -> Verdict:
        if not state.options["kontra"]:
            return Verdict.deny("kontra-off", "this table plays without Kontra")
        if valat_announced(state) and target.name != VALAT_ANN:
            return Verdict.deny("after-valat", "after a Valat only the Kontras on the Valat count")
        if target.name == VALAT_ANN:
            ann = announced(state, VALAT_ANN)
            if ann is not None and ann.kontra == 0 and ann.seat in state.declarer_party() \
                    and seat not in state.declarer_party():
                return valat_kontra_verdict(state, seat) or ALLOW
        return ALLOW

    @hookimpl(wrapper=True)
    @after_answer  # asked for every card played: no generator on the way
    def tarock_legal_plays(self, state: HandState, seat: int, *, answer: Sequence[Card]) -> Sequence[Card]:
        cards = answer
        if PAGAT in cards and len(cards) > 1 and pagat_held(state, seat):
            return [c for c in cards if c != PAGAT]
        return cards

    @hookimpl
    def tarock_play_reason(self, state: HandState, seat: int, card: Card) -> Reason | None:
        # Only a Pagat the base rules would allow is refused for being announced;
        # otherwise the base rules say why (Farbzwang, Tarockzwang, Stichzwang).
        if (card == PAGAT and pagat_held(state, seat) and state.trick is not None
                and state.contract is not None and trump_suit(state) == TAROCK
                and PAGAT in legal(state.hands[seat], state.trick.cards, state.contract.spec.tricks)):
            return Reason("pagat-held", "you announced the Pagat: hold it to the last possible moment")
        return None

    @hookimpl(wrapper=True)
    def tarock_premium_outcomes(self, state: HandState) -> Generator[None, Any, dict[str, Outcome]]:
        made = dict((yield) or {})
        if ABSOLUT_ANN not in made and count40(party_cards(state)[1]) >= ABSOLUT:
            made[ABSOLUT_ANN] = Outcome(False)  # silent Absolut counts for either party
        return made

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> Score:
        if state.declarer is None or state.contract is None:
            return passed_out_score()
        score = game_score(state, rules, rules.premium_items(state))
        party = state.declarer_party()
        valat = valat_announced(state) or len({t.winner in party for t in state.tricks}) == 1
        if valat and VALAT_ANN in state.contract.spec.premiums:  # not in a game of tricks without it
            # "Valat ... ersetzt das Spiel und alle anderen Prämien"
            items = tuple(item for item in score.items[1:] if item.name == VALAT_ANN)
            return replace(score, items=items, note="the Valat replaces the game")
        return score


VARIANT = Variant(
    name="tarock40-online",
    title="40 Blatt online (Rufer, Farbensolo, Solo)",
    plugins=lambda: [Tarock40(), Tarock40Online()],
    description="tarock40 with the house rules of an online platform (docs/rules.md §14): rotating "
                "Rufer, additions and Kontras in the auction, Valat replaces all, clockwise.",
    lineage=("tarock40",),
    lobby_order=1,
)
