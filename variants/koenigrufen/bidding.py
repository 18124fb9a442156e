"""The auction (Lizit) and the Besserrufer birds.

Both texts: the forehand speaks first and cannot pass then ("Abgeben der
Vorhand ist unzulässig", 002; "Er muss als erster ein Spiel melden", 003);
the others, in turn, bid a higher game or pass, and passing is final
("Wer ... einmal Weiter! gesagt hat, kann kein Spiel mehr lizitieren"); a
player whose bid was overbid may bid again, nobody overbids himself (his
turn is skipped while he holds the highest bid).  The auction ends when all
players still in hold the highest bid (one player, or a Bei / Besserrufer
group of seed 002).

Seed 002 adds: "Vorhand!" (a bid below every Lizitspiel; if all others pass,
the forehand chooses any game, the forehand games included), Bei-games whose
values add up in the auction, and several Besserrufer who then name their
birds (:class:`BirdContest`).  Seed 003: forehand-only games may be bid by
the forehand at any of his turns.
"""

from __future__ import annotations

from typing import Any

from core.actions import Action, Announce, Bid, Pass
from core.cards import format_card
from core.phases import Phase
from core.rules import Rules
from core.state import Announcement, HandState, Reason
from variants.koenigrufen.actions import Bei
from variants.koenigrufen.context import callable_cards, holds_bird, kr, set_contract, tarock_count
from variants.koenigrufen.games import BIRD_NAME, BIRDS, VORHAND, Dialect, Game

Key = tuple[int, int]


def may_play(game: Game, hand: list[int], options: dict[str, Any]) -> bool:
    """Whether a player holding ``hand`` may bid ``game`` at all.

    Besserrufer needs a bird, a colour game of seed 002 at most six tarocks,
    a calling game a card to call (decision 7 of RULES.md: what would be a
    Renonce is not offered).
    """
    if game.bird and not holds_bird(hand):
        return False
    if game.max_tarocks is not None and tarock_count(hand) > game.max_tarocks:
        return False
    return not (game.call and not callable_cards(hand, options["four_kings"]))


def cannot_play(game: Game, hand: list[int]) -> Reason:
    """Why a player holding ``hand`` may not bid ``game`` (see :func:`may_play`)."""
    if game.bird and not holds_bird(hand):
        return Reason("no-bird", f"{game.title} needs a bird (I, II, III or IIII) in your hand")
    if game.max_tarocks is not None and tarock_count(hand) > game.max_tarocks:
        return Reason("too-many-tarocks", f"{game.title}: at most {game.max_tarocks} tarocks in your hand")
    return Reason("nothing-to-call", f"{game.title}: there is no card you may call")


class Auction(Phase):
    """The Lizit of one dialect."""

    name = "bidding"

    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect

    # -- helpers -----------------------------------------------------------
    def key(self, name: str, n: int = 1) -> Key:
        if name == VORHAND:
            return (0, -1)
        game = self.d.game(name)
        index = self.d.index(name)
        if self.d.vorhand_call:
            return (game.auction * (n if game.bei else 1), index)
        return (index, 0)

    @staticmethod
    def groups(info: dict[str, Any]) -> dict[str, list[int]]:
        """Current bids: game -> the seats still in that bid it, in bidding order."""
        out: dict[str, list[int]] = {}
        for seat, name in info["log"]:
            if info["bids"].get(seat) == name and seat not in out.get(name, []):
                out.setdefault(name, []).append(seat)
        return out

    def top(self, info: dict[str, Any]) -> tuple[str, list[int]] | None:
        best: tuple[Key, str, list[int]] | None = None
        for name, seats in self.groups(info).items():
            k = self.key(name, len(seats))
            if best is None or k > best[0]:
                best = (k, name, seats)
        return (best[1], best[2]) if best else None

    # -- phase -------------------------------------------------------------
    def start(self, state: HandState, rules: Rules) -> None:
        kr(state)["auction"] = {"bids": {}, "passed": [], "log": [], "choosing": False}
        state.to_move = state.forehand

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        info = kr(state)["auction"]
        hand = state.hands[seat]
        d = self.d
        if info["choosing"]:
            return [Bid(seat, g.name) for g in d.games if may_play(g, hand, state.options)]
        out: list[Action] = []
        if info["log"]:
            out.append(Pass(seat))
        elif d.vorhand_call:
            out.append(Bid(seat, VORHAND))
        top = self.top(info)
        top_key = self.key(top[0], len(top[1])) if top else None
        for g in d.games:
            if g.forehand_only and (d.vorhand_call or seat != state.forehand):
                continue
            if not may_play(g, hand, state.options):
                continue
            if top_key is None or self.key(g.name) > top_key:
                out.append(Bid(seat, g.name))
            elif top is not None and d.multi_besserrufer and g.bird and top[0] == g.name:
                out.append(Bid(seat, g.name))  # "mehrere Besserrufer"
        if d.bei_max and top_key is not None:
            for name, seats in self.groups(info).items():
                joined = d.game(name) if name != VORHAND else None
                if (joined is not None and joined.bei and seat not in seats and len(seats) <= d.bei_max
                        and self.key(name, len(seats) + 1) > top_key
                        and may_play(joined, hand, state.options)):
                    out.append(Bei(seat, name))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if action in self.legal(state, rules, action.seat):
            return None
        info = kr(state)["auction"]
        if isinstance(action, Pass):
            if info["choosing"]:
                return Reason("must-choose", "all others said Weiter: choose the game you play")
            opening = "say Vorhand! or bid a game" if self.d.vorhand_call else "bid a game"
            return Reason("must-bid", f"the forehand must open: {opening}")
        if not isinstance(action, Bid | Bei):
            return Reason("wrong-phase", f"bid or pass now, not {action.describe()}")
        names = [g.name for g in self.d.games] + ([VORHAND] if self.d.vorhand_call else [])
        if action.contract not in names:
            return Reason("unknown-game", f"there is no game {action.contract!r}; games: {', '.join(names)}")
        if action.contract == VORHAND:
            return Reason("vorhand-opening", "only the forehand says Vorhand!, as his opening word")
        game = self.d.game(action.contract)
        hand = state.hands[action.seat]
        if not may_play(game, hand, state.options):
            return cannot_play(game, hand)
        if isinstance(action, Bei):
            seats = self.groups(info).get(action.contract, [])
            if action.seat in seats:
                return Reason("bei-own", "you cannot join your own game: bid a higher one or pass")
            if not game.bei or not seats:
                return Reason("no-bei", f"nobody plays {action.contract} now that you could join")
            if len(seats) > self.d.bei_max:
                return Reason("bei-full", f"{action.contract} is played by {len(seats)} already")
        if info["choosing"]:
            return Reason("cannot-play", f"you cannot play {action.contract} with this hand")
        if game.forehand_only and action.seat != state.forehand:
            return Reason("forehand-game", f"only the forehand may play {game.title}")
        if game.forehand_only and self.d.vorhand_call:
            return Reason("forehand-game",
                          f"{game.title} is a Vorhandspiel: after Vorhand! and three Weiter! only")
        return Reason("bid-too-low",
                      f"{action.describe()} is not allowed now: bid a higher game you may play")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = kr(state)["auction"]
        seat = action.seat
        if isinstance(action, Pass):
            info["passed"].append(seat)
            info["bids"].pop(seat, None)
        else:
            assert isinstance(action, Bid | Bei)
            if info["choosing"]:
                self.finish(state, self.d.game(action.contract), [seat])
                return
            info["bids"][seat] = action.contract
            info["log"].append((seat, action.contract))
        top = self.top(info)
        assert top is not None
        nxt = state.next_seat(seat)
        for _ in range(len(state.players)):
            if nxt not in info["passed"] and nxt not in top[1]:
                state.to_move = nxt
                return
            nxt = state.next_seat(nxt)
        if top[0] == VORHAND:
            info["choosing"] = True
            state.to_move = state.forehand
            return
        self.finish(state, self.d.game(top[0]), top[1])

    def finish(self, state: HandState, game: Game, seats: list[int]) -> None:
        state.to_move = None
        if game.bird and len(seats) > 1:
            kr(state)["contest"] = list(seats)
            return
        set_contract(state, game, seats)


class BirdContest(Phase):
    """Several Besserrufer (seed 002): "sagen die Spieler ihre Vögel vor dem
    Rufen. Wer den höchsten Vogel ansagt, spielt."

    In bidding order each names a bird he holds, higher than the best so far,
    or passes (the first must name one).  The winner plays the Besserrufer
    with his bird announced.
    """

    name = "birds"

    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect

    def start(self, state: HandState, rules: Rules) -> None:
        order = kr(state)["contest"]
        kr(state)["birds"] = {"i": 0, "best": None, "seat": None}
        state.to_move = order[0]

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        info = kr(state)["birds"]
        best = -1 if info["best"] is None else info["best"]
        out: list[Action] = [] if info["best"] is None else [Pass(seat)]
        for name, (card, _) in BIRDS.items():
            if card in state.hands[seat] and card > best:
                out.append(Announce(seat, (name,)))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if action in self.legal(state, rules, action.seat):
            return None
        info = kr(state)["birds"]
        if isinstance(action, Announce) and info["best"] is not None:
            return Reason("bird-too-low", f"name a bird higher than {format_card(info['best'])} or pass")
        return Reason("must-name-bird", "name a bird you hold (or pass if one was named)")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = kr(state)["birds"]
        order = kr(state)["contest"]
        if isinstance(action, Announce):
            info["best"] = BIRDS[action.announce[0]][0]
            info["seat"] = action.seat
        info["i"] += 1
        if info["i"] < len(order):
            state.to_move = order[info["i"]]
            return
        state.to_move = None
        seat = info["seat"]
        set_contract(state, next(g for g in self.d.games if g.bird), [seat])
        bird = BIRD_NAME[info["best"]]
        state.announcements.append(Announcement(bird, seat))
        kr(state)["bird_done"] = bird
