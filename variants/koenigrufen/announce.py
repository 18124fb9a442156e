"""Announcements (Ansagen) and Kontra per announcement, until three "Gut!".

Seed 002: "Nach Ablage darf jeder Spieler so lange Prämien und Kontras
ansagen, bis dreimal Gut! kommt."  The declarer speaks first; in his turn a
player makes any number of announcements and Kontras, then says "Gut!"
(``pass``).  The round ends once every player has spoken and the last three
turns were a plain "Gut!".

Kontra (×2) and Re (×4) are raised per item: the game (target ``""``) or an
announced premium (target: its name).  In games played for points they count
party-wise; whoever is not known to be on the owner's side may say Kontra,
whoever knows he is on it may say Re.  Since announcements do not say for
which side they are made ("Bei der Prämienansage wird nicht deklariert, von
welcher Seite sie erfolgt"), a Kontra that turns out to be on a partner's
announcement does not count (scoring).  In negative games Kontra counts
individually: target ``game@D`` (Kontra on declarer D's game, from the
acting seat) and ``re@X`` (the declarer's Re on the Kontra of seat X).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from core.actions import Action, Announce, Kontra, Pass
from core.cards import MOND, is_king
from core.phases import Phase
from core.rules import Rules
from core.state import Announcement, HandState, Reason
from variants.koenigrufen.context import declarers, game_of, kr
from variants.koenigrufen.games import (
    ABSOLUT,
    BIRDS,
    GRAMMOPOI,
    KING_ULTIMO,
    MONDFANG,
    PREMIUM_ORDER,
    Dialect,
)
from variants.koenigrufen.talon import bird_keepers


def knows_same_side(state: HandState, seat: int, owner: int, public: bool) -> bool:
    """Whether ``seat`` knows that ``owner`` is on his side.

    With ``public`` parties (no partner to call, or the called King turned up
    in the talon) everybody knows the sides; otherwise the partner knows them,
    and the others once the partnership is public.
    """
    if seat == owner:
        return True
    if public:
        return (seat == state.declarer) == (owner == state.declarer)
    if seat == state.partner or state.partner_known:
        party = state.declarer_party()
        return (seat in party) == (owner in party)
    return False


def kontra_allowed(state: HandState, dialect: Dialect) -> bool:
    game = game_of(state, dialect)
    # seed 002, Solorufer with the King in the talon: "Kontras zählen dann in keinem Fall" -- they
    # may be said (nobody knows where the King is) and are void at the end (scoring)
    return game is not None and game.kontra


class Announcing(Phase):
    """Premiums, Kontra and Re until three "Gut!"."""

    name = "announce"

    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect

    def start(self, state: HandState, rules: Rules) -> None:
        kr(state)["ann"] = {"acted": False, "streak": 0, "spoken": [], "kontra_by": {}, "pairs": {}}
        state.to_move = state.declarer

    # -- what a seat may say -------------------------------------------------
    def _bird_pending(self, state: HandState, seat: int) -> bool:
        """Whether the Besserrufer must still announce his bird (and can)."""
        game = game_of(state, self.d)
        return game is not None and bool(bird_keepers(state, self.d, game, seat))

    def announce_reason(self, state: HandState, seat: int, name: str) -> Reason | None:
        """Why ``seat`` may not announce ``name`` now, or None."""
        game = game_of(state, self.d)
        assert game is not None
        info = kr(state)["ann"]
        hand = state.hands[seat]
        if name not in PREMIUM_ORDER:
            known = ", ".join(PREMIUM_ORDER)
            return Reason("unknown-premium", f"there is no premium {name!r}; premiums: {known}")
        if name not in game.premiums:
            return Reason("premium-not-in-game", f"{name} cannot be announced in this game")
        if any(a.name == name for a in state.announcements):
            return Reason("already-announced", f"{name} has been announced already")
        if game.announce_at_once and seat in declarers(state) and seat in info["spoken"]:
            return Reason("announce-at-once",
                          "in this game the declarer announces at once, in his first turn")
        if name in BIRDS:
            card = BIRDS[name][0]
            if card not in hand:
                return Reason("bird-not-in-hand", f"you may announce {name} only with the card in your hand")
            if (self.d.bird_before_talon and self._bird_pending(state, seat)
                    and card not in kr(state).get("pre_talon", hand)):
                return Reason("bird-from-talon",
                              "the Besserrufer's bird must have been in your hand before the talon")
        if name == KING_ULTIMO and not (state.called is not None and is_king(state.called)
                                        and state.called in hand):
            return Reason("king-not-in-hand", "you may announce König Ultimo only holding the called King")
        if name == MONDFANG and MOND in hand:
            return Reason("mondfang-own-mond", "you may not announce Mondfang holding the Mond")
        if name == GRAMMOPOI and any(a.name == ABSOLUT and a.seat != seat for a in state.announcements):
            return Reason("absolut-taken", "Grammopoi includes the Absolut, which another player announced")
        return None

    def kontras(self, state: HandState, seat: int) -> list[Action]:
        if not kontra_allowed(state, self.d):
            return []
        game = game_of(state, self.d)
        assert game is not None and state.declarer is not None
        out: list[Action] = []
        if game.kind == "tricks":
            pairs: dict[tuple[int, int], int] = kr(state)["ann"]["pairs"]
            for d in declarers(state):
                if d != seat and (d, seat) not in pairs:
                    out.append(Kontra(seat, f"game@{d}"))
            for (d, x), level in pairs.items():
                if d == seat and level == 1:
                    out.append(Kontra(seat, f"re@{x}"))
            return out
        public = not game.call or bool(kr(state).get("alone"))
        items = [("", state.declarer, state.kontra_level)]
        items += [(a.name, a.seat, a.kontra) for a in state.announcements]
        for target, owner, level in items:
            same = knows_same_side(state, seat, owner, public)
            if (level == 0 and not same) or (level == 1 and same):
                out.append(Kontra(seat, target))
        return out

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        out: list[Action] = [] if self._bird_pending(state, seat) else [Pass(seat)]
        for name in PREMIUM_ORDER:
            if self.announce_reason(state, seat, name) is None:
                out.append(Announce(seat, (name,)))
        out.extend(self.kontras(state, seat))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        seat = action.seat
        if isinstance(action, Pass):
            if self._bird_pending(state, seat):
                return Reason("besserrufer-bird", "as Besserrufer announce your bird first")
            return None
        if isinstance(action, Announce):
            if action.against:
                return Reason("no-side", "announcements do not say for which side they are made")
            if not action.announce or len(set(action.announce)) != len(action.announce):
                return Reason("announce-what", "name one or more different premiums")
            for name in action.announce:
                reason = self.announce_reason(state, seat, name)
                if reason is not None:
                    return reason
            return None
        if isinstance(action, Kontra):
            if action in self.kontras(state, seat):
                return None
            if not kontra_allowed(state, self.d):
                return Reason("no-kontra", "there is no Kontra in this game")
            return self.kontra_reason(state, seat, action.target)
        return Reason("wrong-phase", f"announce, kontra or say Gut (pass) now, not {action.describe()}")

    def kontra_reason(self, state: HandState, seat: int, target: str) -> Reason:
        """Why ``seat`` may not say Kontra (or Re) on ``target`` (not among :meth:`kontras`)."""
        game = game_of(state, self.d)
        assert game is not None
        what = f"the {target} announcement" if target else "the game"
        if game.kind == "tricks":
            pairs: dict[tuple[int, int], int] = kr(state)["ann"]["pairs"]
            kind, _, who = target.partition("@")
            if kind not in ("game", "re") or not who.isdigit():
                return Reason("kontra-target", "in this game say kontra game@N (on declarer N) or re@N")
            other = int(who)
            if kind == "game":
                if other not in declarers(state):
                    return Reason("not-a-declarer", f"seat {other} plays no game here")
                if other == seat:
                    return Reason("own-game", "you cannot say Kontra on your own game")
                return Reason("kontra-said", f"you said Kontra on seat {other}'s game already")
            if seat not in declarers(state) or (seat, other) not in pairs:
                return Reason("no-kontra-to-answer", f"seat {other} said no Kontra on your game")
            return Reason("re-said", f"you answered seat {other}'s Kontra already")
        levels = {"": state.kontra_level} | {a.name: a.kontra for a in state.announcements}
        if target not in levels:
            return Reason("kontra-target", f"{target!r} was not announced: kontra the game or a premium")
        if levels[target] >= 2:
            return Reason("kontra-max", f"{what} stands at Re already, the highest level")
        if levels[target] == 0:
            return Reason("own-side", f"you know {what} is your own side's: no Kontra on it")
        return Reason("re-not-yours", f"only the side of {what}, as far as it knows it, answers with Re")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info: dict[str, Any] = kr(state)["ann"]
        seat = action.seat
        if isinstance(action, Announce):
            names = list(action.announce)
            if GRAMMOPOI in names and ABSOLUT not in names and not any(
                    a.name == ABSOLUT for a in state.announcements):
                names.append(ABSOLUT)  # "Ansage ... des Grammopoi bedingt selbiges für den Absolut"
            for name in names:
                state.announcements.append(Announcement(name, seat))
                if name == MONDFANG:
                    kr(state)["mond_holder"] = state.holder(MOND)
                if name in BIRDS and self._bird_pending(state, seat):
                    kr(state)["bird_done"] = name
            info["acted"] = True
            return
        if isinstance(action, Kontra):
            self._raise(state, info, seat, action.target)
            info["acted"] = True
            return
        if seat not in info["spoken"]:
            info["spoken"].append(seat)
        info["streak"] = 0 if info["acted"] else info["streak"] + 1
        info["acted"] = False
        if info["streak"] >= 3 and len(info["spoken"]) == len(state.players):
            state.to_move = None
        else:
            state.to_move = state.next_seat(seat)

    @staticmethod
    def _raise(state: HandState, info: dict[str, Any], seat: int, target: str) -> None:
        if target.startswith("game@"):
            info["pairs"][(int(target[5:]), seat)] = 1
        elif target.startswith("re@"):
            info["pairs"][(seat, int(target[3:]))] = 2
        elif target == "":
            state.kontra_level += 1
            if state.kontra_level == 1:
                info["kontra_by"][""] = seat
            return
        else:
            i = next(i for i, a in enumerate(state.announcements) if a.name == target)
            state.announcements[i] = replace(state.announcements[i], kontra=state.announcements[i].kontra + 1)
            if state.announcements[i].kontra == 1:
                info["kontra_by"][target] = seat
            return
        state.kontra_level = max(info["pairs"].values())


class FahrerKontra(Phase):
    """Seed 003, Fahrer: "Jeder Spieler außer der Vorhand darf das Spiel
    kontrieren" -- one round, each may say Kontra once (target ``""``)."""

    name = "kontra"

    def start(self, state: HandState, rules: Rules) -> None:
        order = [s for s in state.players if s != state.forehand]
        order.sort(key=lambda s: (s - state.forehand) % state.seats)
        kr(state)["fahrer"] = {"order": order, "i": 0, "by": []}
        state.to_move = order[0]

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        return [Pass(seat), Kontra(seat)] if seat == state.to_move else []

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = kr(state)["fahrer"]
        if isinstance(action, Kontra):
            info["by"].append(action.seat)
            state.kontra_level += 1
        info["i"] += 1
        state.to_move = info["order"][info["i"]] if info["i"] < len(info["order"]) else None
