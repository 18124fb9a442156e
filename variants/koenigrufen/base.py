"""The Königrufen base: the hook implementations both dialects share.

One plugin class, :class:`Koenigrufen`, interprets a :class:`Dialect` (the
games as data and the points where the texts differ); the club and course
modules only build their dialects.  Phases of a hand::

    bidding -> [birds] -> [call] -> [talon -> discard] -> announce | kontra -> play

``birds``: several Besserrufer name their birds (seed 002); ``call``: calling
games; ``talon``/``discard``: games with the talon; ``announce``: premiums and
Kontra until three "Gut!" (not in Trischaken); ``kontra``: the Fahrer's round
of Kontras (seed 003).  A game given up ends after ``talon``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.actions import Action
from core.cards import DECK54, KAKADU, MARABU, PAGAT, UHU, Card
from core.hookspecs import hookimpl
from core.phases import DiscardPhase, Phase, TrickPlay
from core.rules import Rules
from core.state import HandResult, HandState, Premium, Reason, Trick
from variants.koenigrufen import cardplay, scoring
from variants.koenigrufen.actions import KOENIGRUFEN_ACTIONS
from variants.koenigrufen.announce import Announcing, FahrerKontra
from variants.koenigrufen.bidding import Auction, BirdContest
from variants.koenigrufen.context import declarers, game_of, kr
from variants.koenigrufen.games import BIRDS, KING_ULTIMO, VORHAND, Dialect, Game
from variants.koenigrufen.talon import (
    CallPhase,
    TalonPhase,
    discard_reason,
    keep_duties,
    legal_discards,
    needs_talon_phase,
)

BIRD_ORDER = (MARABU, KAKADU, UHU, PAGAT)
"""Seed 002: "Wenn ein Vogel geopfert werden muss, sind die höheren zuerst aufzugeben"."""


def obligations(state: HandState, seat: int) -> dict[Card, int]:
    """Cards ``seat`` announced for a trick: card -> index of that trick.

    Seed 002: "Hat man einen Vogel (oder König ultimo) angesagt, muss man
    immer versuchen, die entsprechende Karte zum vorgeschriebenen Stich zu
    spielen; wurden sie in ebendiesem blockiert, können sie danach nach
    Belieben gespielt werden."  003 asks the same of the Besserrufer's bird
    ("muss der Spieler mit ihm den drittletzten Stich machen").
    """
    out: dict[Card, int] = {}
    n = len(state.hands[seat]) + len(state.tricks) + (1 if state.trick and seat in state.trick.seats else 0)
    for a in state.announcements:
        if a.seat != seat:
            continue
        if a.name in BIRDS:
            card, from_end = BIRDS[a.name]
            out[card] = n - from_end
        elif a.name == KING_ULTIMO and state.called is not None:
            out[state.called] = n - 1
    return out


def restrict(cands: list[Card], due: dict[Card, int], trick_no: int) -> list[Card]:
    """Apply the duties of announced cards to the legal ``cands``."""
    if not due:
        return cands
    for card, index in due.items():
        if index == trick_no and card in cands:
            return [card]
    free = [c for c in cands if not (c in due and due[c] > trick_no)]
    if free:
        return free
    for bird in BIRD_ORDER:  # a bird must be sacrificed: the higher ones first
        if bird in cands:
            return [bird]
    return cands


class Koenigrufen:
    """Hook implementations of one Königrufen dialect."""

    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect
        self.name = dialect.name
        self.handlers: dict[str, Phase] = {
            "bidding": Auction(dialect),
            "birds": BirdContest(dialect),
            "call": CallPhase(),
            "talon": TalonPhase(dialect),
            "discard": DiscardPhase(),
            "announce": Announcing(dialect),
            "kontra": FahrerKontra(),
            "play": TrickPlay(),
        }

    def game(self, state: HandState) -> Game:
        game = game_of(state, self.d)
        assert game is not None, "no game decided yet"
        return game

    # -- setup ---------------------------------------------------------------
    @hookimpl
    def tarock_options(self) -> dict[str, Any]:
        # for the client: amounts are cents (both texts: "Werte in Cent", "Tarif (in Cent)"),
        # and the second Kontra level is called Re ("Kontra ist bis Re (4fach) möglich")
        return {"money_unit": "ct", "kontra_words": ["Kontra", "Re"], **self.d.options}

    @hookimpl
    def tarock_action_types(self) -> Sequence[type[Action]]:
        return KOENIGRUFEN_ACTIONS

    @hookimpl
    def tarock_deck(self, options: dict[str, Any]) -> Sequence[Card]:
        return DECK54

    @hookimpl
    def tarock_deal_layout(self, options: dict[str, Any]) -> tuple[int, tuple[int, ...]]:
        return 12, (3, 3)

    # -- flow ----------------------------------------------------------------
    @hookimpl
    def tarock_phases(self, state: HandState) -> Sequence[str]:
        seq = ["bidding"]
        if "contest" in kr(state):
            seq.append("birds")
        game = game_of(state, self.d)
        if game is None:
            return seq
        if game.call:
            seq.append("call")
            if state.called is None:
                return seq
        if needs_talon_phase(state, game):
            seq.append("talon")
            if kr(state).get("gave_up"):
                return seq
            seq.append("discard")
        if game.kind == "fahrer":
            seq.append("kontra")
        elif game.kind != "trischaken":
            seq.append("announce")
        seq.append("play")
        return seq

    @hookimpl
    def tarock_phase(self, name: str) -> Phase | None:
        return self.handlers.get(name)

    # -- talon ---------------------------------------------------------------
    @hookimpl
    def tarock_legal_discards(self, state: HandState, seat: int, count: int) -> Sequence[tuple[Card, ...]]:
        game = self.game(state)
        return keep_duties(state, self.d, game, seat, legal_discards(self.d, game, state.hands[seat], count))

    @hookimpl
    def tarock_discard_reason(self, state: HandState, seat: int, cards: tuple[Card, ...]) -> Reason:
        game = self.game(state)
        if cards in legal_discards(self.d, game, state.hands[seat], len(cards)):
            return Reason("discard-bird", "keep your announced bird, or as Besserrufer a bird to name")
        return discard_reason(self.d, game, state.hands[seat], cards)

    # -- play ----------------------------------------------------------------
    def _rules(self, state: HandState) -> dict[str, bool]:
        game = self.game(state)
        return {"colour": game.colour, "stichzwang": game.stichzwang, "maerchen": self.d.maerchenstich,
                "pagat_last": game.pagat_last}

    @hookimpl
    def tarock_first_leader(self, state: HandState) -> int:
        game = self.game(state)
        if game.leader == "forehand":
            return state.forehand
        decl = declarers(state)
        if len(decl) > 1 and state.options.get("bei_leader") == "first-negative-bidder":
            # the remark at the end of seed 002: "derjenige, der als erster ein Negativspiel angesagt hat"
            for seat, name in kr(state)["auction"]["log"]:
                if seat in decl and name != VORHAND and self.d.game(name).kind == "tricks":
                    return int(seat)
        return decl[0]  # "Der erste Spielersteher spielt aus."

    @hookimpl
    def tarock_legal_plays(self, state: HandState, seat: int) -> Sequence[Card]:
        trick = state.trick.cards if state.trick else []
        cands = cardplay.legal_cards(state.hands[seat], trick, **self._rules(state))
        return restrict(cands, obligations(state, seat), len(state.tricks))

    @hookimpl
    def tarock_play_reason(self, state: HandState, seat: int, card: Card) -> Reason:
        trick = state.trick.cards if state.trick else []
        flags = self._rules(state)
        cands = cardplay.legal_cards(state.hands[seat], trick, **flags)
        if card in cands:
            due = obligations(state, seat)
            now = len(state.tricks)
            if any(index == now and c in cands for c, index in due.items()):
                return Reason("announced-card-due", "this trick is the one of your announced card: play it")
            if any(c not in due or due[c] <= now for c in cands):
                return Reason("announced-card", "an announced card must be kept for its trick")
            return Reason("bird-sacrifice", "an announced bird must be given up: the higher ones first")
        return cardplay.play_reason(state.hands[seat], trick, card, **flags)

    @hookimpl
    def tarock_trick_winner(self, state: HandState, trick: Trick) -> int:
        game = self.game(state)
        return cardplay.trick_winner(trick.cards, game.colour, self.d.maerchenstich)

    @hookimpl
    def tarock_partner_revealed(self, state: HandState, seat: int, card: Card) -> bool:
        return card == state.called

    # -- what everyone sees --------------------------------------------------
    @hookimpl
    def tarock_talon_shown(self, state: HandState) -> Sequence[Sequence[Card]] | None:
        game = game_of(state, self.d)
        if game is None:
            return None
        if game.talon == "trick":  # thrown into the first six tricks, one by one
            shown = len(state.tricks)
            out: list[list[Card]] = []
            for pile in state.talon:
                out.append(list(pile[:max(0, shown)]))
                shown -= len(pile)
            return out
        if kr(state).get("talon_open"):
            talon: list[list[Card]] = kr(state)["talon_dealt"]
            return talon
        return None

    @hookimpl
    def tarock_discards_shown(self, state: HandState) -> Sequence[Card] | None:
        if not self.d.open_discards or game_of(state, self.d) is None:
            return None
        # seed 002: "andere Tarock nur offen (außer bei Farbenspielen)", "Farbkarten aber offen"
        colour = self.game(state).colour
        return [c for c in state.discards if (c >= 22) == colour]

    @hookimpl
    def tarock_open_hands(self, state: HandState) -> Sequence[int] | None:
        game = game_of(state, self.d)
        if game is None or not game.ouvert or not state.tricks:
            return None
        return list(state.players) if self.d.ouvert_all else list(declarers(state))

    # -- counting and settlement ---------------------------------------------
    @hookimpl
    def tarock_count(self, state: HandState, cards: Sequence[Card]) -> int:
        return cardplay.thirds(cards)

    @hookimpl
    def tarock_premiums(self, state: HandState) -> Sequence[Premium]:
        game = self.game(state)
        if game.kind != "points" or kr(state).get("gave_up"):
            return []
        return scoring.premiums(state, self.d, game)

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> HandResult:
        game = self.game(state)
        if kr(state).get("gave_up"):
            return scoring.score_given_up(state, self.d, game)
        every = [c for t in state.tricks for c in t.cards] + list(state.discards) + scoring.talon_rest(state)
        total = rules.count(state, every)
        if game.kind == "trischaken":
            return scoring.score_trischaken(state, game)
        if game.kind == "fahrer":
            return scoring.score_fahrer(state, game)
        if game.kind == "tricks":
            return scoring.score_tricks_game(state, game, total)
        ours, _ = scoring.party_piles(state, game)
        return scoring.score_points_game(state, self.d, game, total, rules.count(state, ours),
                                         rules.premiums(state))
