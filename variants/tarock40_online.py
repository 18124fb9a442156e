"""``tarock40-online``: the house rules of seed 004 over ``tarock40``.

Seed 004 is the help page of an online platform; its lists were lost, and
RULES.md decision 5 reads it as ``tarock40`` with these differences, which
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
- play goes clockwise (option ``direction``, for the client; seats still
  follow seat + 1 in the engine).

Seed 000's tournament rules hold here too, since RULES.md decision 5 names
every way this game differs from ``tarock40`` and they are not among them
(an earlier version dropped them; the review restored them):

- Pflichtkontra: while the game in play is a Rufer without additions for
  the declarer's party and nobody has said Kontra on it, an opponent holding
  Pagat, Mond and Sküs may outbid it or say Kontra on it, but not agree to it
  otherwise ("weiter", an addition);
- Kontra on a Valat: the first Kontra on a Valat announced for the
  declarer's party needs the strong hand seed 000 describes;
- a Valat of the Solo or Farbensolo declarer needs a hand that makes it on
  its own (seed 004 too: "erlaubt es das Programm nicht 'Valat' anzusagen,
  wenn der Spieler ein viel zu schwaches Blatt hat").

The called card of a Rufer is set, and shown to all, when the Rufer is bid
(not when the auction ends as in ``tarock40``): the partner may add to the
game and say Kontra during the auction, so he must know he is the partner.

Settlement: the game value times ``2 **`` its Kontra level plus every
premium times ``2 **`` its own Kontra level (already in ``Premium.value``);
``HandResult.game`` includes the game's factor and ``HandResult.factor`` is 1.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from itertools import combinations
from typing import Any, Final

from core.actions import Action, Announce, Bid, Kontra, Pass
from core.cards import PAGAT, TAROCK, Card
from core.hookspecs import hookimpl
from core.phases import Phase
from core.registry import Variant
from core.rules import Rules
from core.state import Announcement, HandResult, HandState, Premium, Reason
from variants.cards40 import count40
from variants.common import follow_with_overtrump, settle
from variants.tarock40 import (
    ABSOLUT,
    ABSOLUT_ANN,
    FABERL,
    GAMES,
    PAGAT_ANN,
    PFLICHTKONTRA,
    RUFSPIEL,
    SOLO,
    TRULL_ANN,
    VALAT_ANN,
    Game,
    Tarock40,
    decide,
    game_of,
    game_reason,
    kontra_duty,
    made_premiums,
    own_valat,
    party_cards,
    passed_out_result,
    position,
    premium_list,
    trump_suit,
    valat_kontra_reason,
)

ONLINE_GAMES: Final = {name: GAMES[name] for name in (RUFSPIEL, FABERL, SOLO)}
ADDITIONS: Final = (ABSOLUT_ANN, PAGAT_ANN, TRULL_ANN, VALAT_ANN)
"""The additions (Zusätze), in canonical order."""
PASSES_TO_END: Final = 3
GAME: Final = ""
"""The Kontra target of the game itself."""
NO_TAROCK_PREMIUMS: Final = frozenset({"pagat", "trull", "mondfang"})
"""Seed 004: "Beim Farbensolo zählen die Prämien Pagat, Trull und Mondfang nicht"."""


def announced(state: HandState, name: str) -> Announcement | None:
    return next((a for a in state.announcements if a.name == name), None)


def valat_announced(state: HandState) -> bool:
    return announced(state, VALAT_ANN) is not None


def addition_reason(state: HandState, seat: int, game: Game, name: str,
                    declarer_side: bool) -> Reason | None:
    """Why ``seat`` may not add ``name`` to ``game`` (for its party)."""
    if name not in ADDITIONS:
        return Reason("unknown-addition", f"{name!r} is no addition (only {', '.join(ADDITIONS)})")
    if game.faberl and name in (PAGAT_ANN, TRULL_ANN):
        return Reason("not-in-farbensolo", f"{name} does not count in a Farbensolo")
    if name == PAGAT_ANN and PAGAT not in state.hands[seat]:
        return Reason("pagat-not-held", "only the holder of the Pagat can announce it")
    if name == VALAT_ANN and declarer_side and seat == state.declarer and not own_valat(state, seat, game):
        return Reason("valat-too-weak", "this hand is far too weak to announce a Valat")
    return None


class OnlineAuction(Phase):
    """Seed 004: "beginnend bei der Vorhand, reihum höhere Spiele an und/oder
    Zusätze zum angesagten Spiel. Sobald drei Spieler nacheinander 'weiter'
    gesagt haben (nur der Rufer muss zumindest einmal etwas ansagen), ist die
    Lizitation beendet."

    The game in play is kept in the state as it stands (contract, declarer,
    called card and partner, announcements, the game's Kontra level), so
    observations show it while the auction runs.
    """

    name = "bidding"

    def start(self, state: HandState, rules: Rules) -> None:
        state.data["auction"] = {"passes": 0, "agreed": []}
        state.to_move = state.forehand

    # -- what may be said --------------------------------------------------
    @staticmethod
    def _game(state: HandState) -> Game | None:
        return ONLINE_GAMES[state.contract.name] if state.contract is not None else None

    def _bids(self, state: HandState, seat: int) -> list[Action]:
        current = self._game(state)
        if seat in state.data["auction"]["agreed"]:
            return []
        out: list[Action] = []
        for game in ONLINE_GAMES.values():
            if game_reason(state, seat, game, current) is not None:
                continue
            names = [n for n in ADDITIONS if self._bid_addition_reason(state, seat, game, n) is None]
            for k in range(len(names) + 1):
                out.extend(Bid(seat, game.name, combo) for combo in combinations(names, k))
        return out

    @staticmethod
    def _bid_addition_reason(state: HandState, seat: int, game: Game, name: str) -> Reason | None:
        if name not in ADDITIONS:
            return Reason("unknown-addition", f"{name!r} is no addition (only {', '.join(ADDITIONS)})")
        if game.faberl and name in (PAGAT_ANN, TRULL_ANN):
            return Reason("not-in-farbensolo", f"{name} does not count in a Farbensolo")
        if name == PAGAT_ANN and PAGAT not in state.hands[seat]:
            return Reason("pagat-not-held", "only the holder of the Pagat can announce it")
        if name == VALAT_ANN and not own_valat(state, seat, game):
            return Reason("valat-too-weak", "this hand is far too weak to announce a Valat")
        return None

    @staticmethod
    def _additions(state: HandState, seat: int) -> list[str]:
        game = ONLINE_GAMES[state.contract.name] if state.contract is not None else None
        if game is None or valat_announced(state):
            return []
        side = seat in state.declarer_party()
        taken = {a.name for a in state.announcements}
        return [n for n in ADDITIONS
                if n not in taken and addition_reason(state, seat, game, n, side) is None]

    @staticmethod
    def _kontra_reason(state: HandState, rules: Rules, seat: int, target: str) -> Reason | None:
        """Why ``seat`` may not raise the chain ``target`` (GAME: the game's) now."""
        if not state.options.get("kontra"):
            return Reason("kontra-off", "this table plays without Kontra")
        party = state.declarer_party()
        valat = valat_announced(state)
        if target == GAME:
            what, level, own = "the game", state.kontra_level, True
        else:
            ann = announced(state, target)
            if ann is None:
                return Reason("no-such-announcement", f"{target!r} is not announced: nothing to Kontra")
            what, level, own = repr(target), ann.kontra, ann.seat in party
        if valat and target != VALAT_ANN:
            return Reason("after-valat", "after a Valat only the Kontras on the Valat count")
        if level >= rules.kontra_max_level(state):
            return Reason("kontra-max", f"the Kontra on {what} is at its highest level")
        if ((seat in party) == own) != (level % 2 == 1):
            who = "the other party" if level % 2 == 0 else "the party it is for"
            return Reason("kontra-wrong-party", f"the next Kontra on {what} is said by {who}")
        if target == VALAT_ANN and level == 0 and own:
            return valat_kontra_reason(state, seat, position(state, seat) == 0)
        return None

    def _kontra_targets(self, state: HandState, rules: Rules, seat: int) -> list[str]:
        if state.contract is None:
            return []
        targets = [GAME, *(a.name for a in state.announcements)]
        return [t for t in targets if self._kontra_reason(state, rules, seat, t) is None]

    def _bound(self, state: HandState, rules: Rules, seat: int) -> bool:
        """Pflichtkontra (seed 000): ``seat`` must Kontra the game (or outbid it)."""
        return kontra_duty(state, seat) and self._kontra_reason(state, rules, seat, GAME) is None

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        bids = self._bids(state, seat)
        if state.contract is None:
            return bids
        if self._bound(state, rules, seat):
            return [*bids, Kontra(seat, GAME)]
        out: list[Action] = [Pass(seat), *bids]
        names = self._additions(state, seat)
        against = seat not in state.declarer_party()
        for k in range(1, len(names) + 1):
            out.extend(Announce(seat, combo, against) for combo in combinations(names, k))
        out.extend(Kontra(seat, target) for target in self._kontra_targets(state, rules, seat))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        seat = action.seat
        if isinstance(action, Pass):
            if state.contract is None:
                return Reason("rufer-must-bid", "the Rufer must announce a game first")
            return PFLICHTKONTRA if self._bound(state, rules, seat) else None
        if isinstance(action, Bid):
            game = ONLINE_GAMES.get(action.contract)
            if game is None:
                return Reason("unknown-contract", f"there is no game {action.contract!r} "
                              f"(games: {', '.join(ONLINE_GAMES)})")
            if seat in state.data["auction"]["agreed"]:
                return Reason("already-agreed", "you agreed to the game in play: "
                              "only additions and Kontras are left to you")
            reason = game_reason(state, seat, game, self._game(state))
            if reason is not None:
                return reason
            if len(set(action.announce)) != len(action.announce):
                return Reason("announced-twice", "each addition can be announced once")
            for name in action.announce:
                reason = self._bid_addition_reason(state, seat, game, name)
                if reason is not None:
                    return reason
            return None
        if state.contract is None:
            return Reason("rufer-must-bid", "the Rufer must announce a game first")
        if not isinstance(action, (Announce, Kontra)):
            return Reason("wrong-phase", f"bid, add, kontra or pass now, not {action.describe()}")
        if self._bound(state, rules, seat) and not (isinstance(action, Kontra) and action.target == GAME):
            return PFLICHTKONTRA
        if isinstance(action, Announce):
            return self._check_announce(state, action)
        return self._kontra_reason(state, rules, seat, action.target)

    def _check_announce(self, state: HandState, action: Announce) -> Reason | None:
        seat = action.seat
        if not action.announce:
            return Reason("nothing-announced", "name at least one addition")
        if len(set(action.announce)) != len(action.announce):
            return Reason("announced-twice", "each addition can be announced once")
        if valat_announced(state):
            return Reason("after-valat", "after a Valat no further additions can be announced")
        side = seat in state.declarer_party()
        if action.against == side:
            return Reason("wrong-side", "say 'gegen das Spiel' exactly when you play against the game")
        game = ONLINE_GAMES[state.contract.name] if state.contract is not None else None
        assert game is not None
        for name in action.announce:
            if announced(state, name) is not None:
                return Reason("already-announced", f"{name} is already announced")
            reason = addition_reason(state, seat, game, name, side)
            if reason is not None:
                return reason
        return None

    # -- what it does ------------------------------------------------------
    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = state.data["auction"]
        seat = action.seat
        if isinstance(action, Pass):
            info["passes"] += 1
            if seat not in info["agreed"]:
                info["agreed"].append(seat)
            if info["passes"] >= PASSES_TO_END:
                state.to_move = None
                return
        else:
            info["passes"] = 0
            if isinstance(action, Bid):
                decide(state, seat, ONLINE_GAMES[action.contract], action.announce)
                state.kontra_level = 0
                info["agreed"] = [seat]
            else:
                if isinstance(action, Announce):
                    state.announcements.extend(
                        Announcement(n, seat, action.against) for n in action.announce)
                elif isinstance(action, Kontra):
                    self._raise(state, action.target)
                if seat not in info["agreed"]:
                    info["agreed"].append(seat)
                if seat == state.partner:
                    state.partner_known = True
        state.to_move = state.next_seat(seat)

    @staticmethod
    def _raise(state: HandState, target: str) -> None:
        if target == GAME:
            state.kontra_level += 1
            return
        state.announcements = [
            Announcement(a.name, a.seat, a.against, a.kontra + 1) if a.name == target else a
            for a in state.announcements
        ]


def pagat_held(state: HandState, seat: int) -> bool:
    """Seed 004: "Für den Ansager ist es Pflicht, den Pagat erst zum letzt
    möglichen Zeitpunkt zu spielen"."""
    ann = announced(state, PAGAT_ANN)
    return ann is not None and ann.seat == seat


class Tarock40Online:
    """The hooks in which seed 004 differs from ``tarock40``."""

    name = "tarock40-online"
    version = "1.0"
    applies_to = ("tarock40",)

    def __init__(self) -> None:
        self.auction = OnlineAuction()

    @hookimpl
    def tarock_options(self) -> dict[str, Any]:
        return {"direction": "clockwise"}

    @hookimpl
    def tarock_phases(self, state: HandState) -> Sequence[str]:
        if state.contract is not None and game_of(state).faberl:
            return ("bidding", "trump", "play")
        return ("bidding", "play")

    @hookimpl
    def tarock_phase(self, name: str) -> Phase | None:
        return self.auction if name == "bidding" else None

    @hookimpl(wrapper=True)
    def tarock_legal_plays(self, state: HandState, seat: int) -> Generator[None, Any, Sequence[Card]]:
        cards: Sequence[Card] = yield
        if PAGAT in cards and len(cards) > 1 and pagat_held(state, seat):
            return [c for c in cards if c != PAGAT]
        return cards

    @hookimpl
    def tarock_play_reason(self, state: HandState, seat: int, card: Card) -> Reason | None:
        # Only a Pagat the base rules would allow is refused for being announced;
        # otherwise the base rules say why (Farbzwang, Tarockzwang, Stichzwang).
        if (card == PAGAT and pagat_held(state, seat) and state.trick is not None
                and trump_suit(state) == TAROCK
                and PAGAT in follow_with_overtrump(state.hands[seat], state.trick.cards)):
            return Reason("pagat-held", "you announced the Pagat: hold it to the last possible moment")
        return None

    @hookimpl
    def tarock_premiums(self, state: HandState) -> Sequence[Premium]:
        ours, theirs = party_cards(state)
        points = (count40(ours), count40(theirs))
        made = made_premiums(state, ours, theirs, points)
        if made["absolut"] is None and points[1] >= ABSOLUT:
            made["absolut"] = False  # silent Absolut counts for either party
        if valat_announced(state) or made["valat"] is not None:
            return premium_list(state, made, frozenset(n for n in made if n != "valat"))
        return premium_list(state, made, NO_TAROCK_PREMIUMS if game_of(state).faberl else frozenset())

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> HandResult:
        if state.declarer is None:
            return passed_out_result(state)
        game = game_of(state)
        ours, theirs = party_cards(state)
        points = (rules.count(state, ours), rules.count(state, theirs))
        won = points[0] >= game.goal
        premiums = tuple(rules.premiums(state))
        valat = valat_announced(state) or len({t.winner in state.declarer_party() for t in state.tricks}) == 1
        value = 0 if valat else (game.value if won else -game.value) * 2 ** state.kontra_level
        amount = value + sum(p.value for p in premiums)
        declarers = tuple(sorted(state.declarer_party()))
        note = "the Valat replaces the game" if valat else ""
        return HandResult(declarers, points, 1, won, value, premiums, 1,
                          settle(state.seats, state.players, declarers, amount), note)


VARIANT = Variant(
    name="tarock40-online",
    title="40 Blatt online (Rufer, Farbensolo, Solo)",
    plugins=lambda: [Tarock40(), Tarock40Online()],
    description="tarock40 with the house rules of an online platform (seed 004): rotating "
                "Rufer, additions and Kontras in the auction, Valat replaces all, clockwise.",
    lineage=("tarock40",),
    lobby_order=1,
)
