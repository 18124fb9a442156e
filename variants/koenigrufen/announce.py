"""Announcements (Ansagen) and Kontra per announcement, until three "Gut!".

docs/rules.md §15.5: "Nach Ablage darf jeder Spieler so lange Prämien und Kontras
ansagen, bis dreimal Gut! kommt."  The declarer speaks first; in his turn a
player makes any number of announcements and Kontras, then says "Gut!"
(``pass``).  Options: ``announce_first`` (``declarer``, or ``forehand``:
the round starts with the forehand), ``announce_once`` (a player announces only
in his first turn), ``kontra_ends_turn`` (after a Kontra only more Kontras and
"Gut!" in that turn) and ``colour_kontra_or_valat`` (docs/rules.md §18.4).
The round ends once every player has spoken and the last three
turns were a plain "Gut!".

Kontra, Re and Subkontra are raised per item, the game or an announced premium, or in
negative games per declarer and opponent (:mod:`.verdicts`).

The phase lists what may be said and asks every decision from the rules'
verdict hooks (``tarock_announce_verdict``, ``tarock_kontra_verdict``),
which :func:`.verdicts.announce_verdict` and :func:`.verdicts.kontra_verdict`
answer for Königrufen, so a house rule can allow what the rulebook forbids.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from tarock.core.actions import Action, Announce, Kontra, KontraTarget, Pass
from tarock.core.cards import MOND
from tarock.core.contracts import ContractSpec
from tarock.core.phases import ANNOUNCE, KONTRA, Phase, kontra_action
from tarock.core.rules import Rules
from tarock.core.state import Announcement, HandState, Reason, first_reason
from tarock.variants.koenigrufen.context import game_of, kr
from tarock.variants.koenigrufen.games import (
    ABSOLUT,
    BIRDS,
    GRAMMOPOI,
    KING_ULTIMO,
    MONDFANG,
    PREMIUM_ORDER,
    VALAT,
    Dialect,
    kind,
)
from tarock.variants.koenigrufen.verdicts import (
    announce_open,
    bird_pending,
    colour_defender,
    kontra_open,
    kontra_pair,
    kontra_targets,
    kontras_of,
)


@lru_cache(maxsize=256)
def _pass(seat: int) -> Action:
    """"Gut!", one value per seat."""
    return Pass(seat)


_ANNOUNCES: dict[int, dict[str, Action]] = {}


def _announces_of(seat: int) -> dict[str, Action]:
    """``seat``'s announcements of one premium each, by name, one value each."""
    return _ANNOUNCES.setdefault(seat, {})


class Announcing(Phase):
    """Premiums, Kontra and Re until three "Gut!"."""

    name = ANNOUNCE

    def __init__(self, dialect: Dialect, own_kontra_hook: object = None,
                 own_announce_hook: object = None) -> None:
        self.d = dialect
        self.own_kontra_hook = own_kontra_hook
        """The plugin's ``tarock_kontra_verdict`` (its function), which answers
        with :func:`kontra_verdict` in this phase."""
        self.own_announce_hook = own_announce_hook
        """The plugin's ``tarock_announce_verdict`` (its function), which answers
        with :func:`announce_verdict`."""
        self._direct_of: tuple[Rules, bool, bool] | None = None
        self._premiums_of: dict[int, tuple[Rules, ContractSpec, list[str]]] = {}
        self._last: tuple[HandState, Rules, int, int, tuple[Action, ...]] | None = None
        """The last list :meth:`legal` gave where :meth:`_following` may go on from it:
        the state, the rules, the number of actions then, the seat, the list."""

    @staticmethod
    def _alone(rules: Rules, hook: str, own: object) -> bool:
        """Whether ``own`` (a function of this plugin) answers ``hook`` alone, so
        that its answer may be asked without a round through the hook."""
        sole = rules.sole_answer(hook)
        return own is not None and sole is not None and getattr(sole, "__func__", None) is own

    def start(self, state: HandState, rules: Rules) -> None:
        kr(state)["ann"] = {"acted": False, "streak": 0, "spoken": [], "kontra_by": {}, "pairs": {},
                            "kontra_seats": [], "kontra_turn": None}
        first = state.options.get("announce_first")
        state.to_move = state.forehand if first == "forehand" else state.declarer

    # -- what a seat may say -------------------------------------------------
    def announce_reason(self, state: HandState, rules: Rules, seat: int, name: str,
                        said: AbstractSet[str] | None = None) -> Reason | None:
        """Why ``seat`` may not announce ``name`` now, or None (``said``: the names
        announced so far, when the caller has them)."""
        game = game_of(state)
        assert game is not None
        if name not in rules.premium_specs:
            known = ", ".join(rules.premium_specs)
            return Reason("unknown-premium", f"there is no premium {name!r}; premiums: {known}")
        if name not in game.premiums:
            return Reason("premium-not-in-game", f"{name} cannot be announced in this game")
        if name in (said if said is not None else {a.name for a in state.announcements}):
            return Reason("already-announced", f"{name} has been announced already")
        verdict = rules.announce_verdict(state, seat, name)
        if verdict is not None and not verdict.allowed:
            return verdict.reason or Reason("announce-not-allowed", f"{name} cannot be announced now")
        return None

    def _direct(self, rules: Rules) -> tuple[bool, bool]:
        """Whether this plugin answers ``tarock_announce_verdict`` and
        ``tarock_kontra_verdict`` alone in ``rules`` (looked up once per rules)."""
        known = self._direct_of
        if known is None or known[0] is not rules:
            known = self._direct_of = (
                rules, self._alone(rules, "tarock_announce_verdict", self.own_announce_hook),
                self._alone(rules, "tarock_kontra_verdict", self.own_kontra_hook))
        return known[1], known[2]

    def _premiums(self, rules: Rules, game: ContractSpec) -> list[str]:
        """The premiums of ``game`` that ``rules`` know, in announcement order
        (kept per game: they are asked in every turn)."""
        known = self._premiums_of.get(id(game))
        if known is None or known[0] is not rules or known[1] is not game:
            names = [n for n in PREMIUM_ORDER if n in rules.premium_specs and n in game.premiums]
            known = self._premiums_of[id(game)] = (rules, game, names)
        return known[2]

    def kontras(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if state.phase == ANNOUNCE and self._direct(rules)[1]:
            # this plugin answers alone, so the hook's answer is kontra_verdict's: asked
            # directly, without a round through the hook for each of ~230 questions a hand
            return kontra_open(state, seat)
        out: list[Action] = []
        for target in kontra_targets(state, seat):
            verdict = rules.kontra_verdict(state, seat, target)
            if verdict is not None and verdict.allowed:
                out.append(kontra_action(seat, target))
        return out

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        taken = len(state.actions)
        last = self._last
        if last is not None and last[0] is state and last[1] is rules and last[2] == taken - 1 \
                and last[3] == seat:
            following = self._following(state, seat, last[4], state.actions[-1])
            if following is not None:
                self._last = (state, rules, taken, seat, tuple(following))
                return following
        pending = bird_pending(state, self.d, seat)
        out = self._fresh(state, rules, seat, pending)
        self._last = (state, rules, taken, seat, tuple(out)) if not pending and all(self._direct(rules)) \
            else None
        return out

    def _following(self, state: HandState, seat: int, before: tuple[Action, ...],
                   action: Action) -> list[Action] | None:
        """``seat``'s list after its own ``action``, made from ``before``, its list just
        before, where that action changes no answer in it but those said here (None
        where it may have).  An announcement is no longer offered (a Grammopoi takes
        the Absolut with it) and nobody raises his own new item; a Kontra or Re is not
        offered again, the chain's parity turned (a chain of a negative game: its
        pair's).  A Kontra ends the announcing where ``kontra_ends_turn`` says so, and
        a colour game's defender's Valat (``colour_kontra_or_valat``).  A König Ultimo
        that shows the partner tells its announcer nothing new.  A colour game's
        defender's Valat changes more: asked afresh.  Only lists without a pending bird, asked directly, are
        kept for this; what ``action`` says must have been offered in ``before``."""
        if action.seat != seat:
            return None
        made = _announces_of(seat)
        if isinstance(action, Announce):
            names = action.announce
            if action.against or (VALAT in names and colour_defender(state, seat)):
                return None
            gone = {id(made.get(n)) for n in names}
            out = [a for a in before if id(a) not in gone]
            if len(gone) != len(names) or len(out) != len(before) - len(names):
                return None
            if GRAMMOPOI in names:  # Announcing.apply adds the Absolut
                absolut = made.get(ABSOLUT)
                out = [a for a in out if a is not absolut]
            return out
        if not isinstance(action, Kontra):
            return None
        target = action.target
        act: Action | None
        if target.declarer is not None or target.answer is not None:
            act = kontra_pair(seat, target.answer if target.declarer is None else target.declarer,
                              target.declarer is None)
        else:
            contract = state.contract
            if contract is None or kind(contract.spec) == "tricks":
                return None
            act = kontras_of(seat).get(target.name)  # "": the game
        out = [a for a in before if a is not act]
        if len(out) != len(before) - 1:
            return None
        if state.options.get("kontra_ends_turn"):
            return [a for a in out if not isinstance(a, Announce)]
        if colour_defender(state, seat):
            valat = made.get(VALAT)
            out = [a for a in out if a is not valat]
        return out

    def _fresh(self, state: HandState, rules: Rules, seat: int, pending: bool) -> list[Action]:
        """``seat``'s list, every answer asked (``pending``: :func:`bird_pending`)."""
        out: list[Action] = [] if pending else [_pass(seat)]
        contract = state.contract
        assert contract is not None
        names = self._premiums(rules, contract.spec)
        said: set[str] = set()
        if state.announcements:
            said = {a.name for a in state.announcements}
            names = [n for n in names if n not in said]
        direct = self._direct(rules)
        if direct[0]:
            # this plugin answers the verdict alone: announce_reason's last question (the
            # only one left for a known premium of the game, not yet said) is asked directly
            names = announce_open(state, self.d, seat, names, pending)
        else:
            names = [n for n in names if self.announce_reason(state, rules, seat, n, said) is None]
        if names:
            actions = _announces_of(seat)
            for name in names:
                act = actions.get(name)
                if act is None:
                    act = actions[name] = Announce(seat, (name,))
                out.append(act)
        # kontras(), its question whether to ask kontra_open() directly answered here
        out.extend(kontra_open(state, seat) if direct[1] and state.phase == ANNOUNCE
                   else self.kontras(state, rules, seat))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        seat = action.seat
        if isinstance(action, Pass):
            if bird_pending(state, self.d, seat):
                return Reason("besserrufer-bird", "as Besserrufer announce your bird first")
            return None
        if isinstance(action, Announce):
            if action.against:
                return Reason("no-side", "announcements do not say for which side they are made")
            if not action.announce or len(set(action.announce)) != len(action.announce):
                return Reason("announce-what", "name one or more different premiums")
            return first_reason(self.announce_reason(state, rules, seat, name) for name in action.announce)
        if isinstance(action, Kontra):
            verdict = rules.kontra_verdict(state, seat, action.target)
            if verdict is None or verdict.allowed:
                return None
            return verdict.reason or Reason("kontra-not-allowed", "you may not say Kontra on that now")
        return Reason("wrong-phase", f"announce, kontra or say Gut (pass) now, not {action.describe()}")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info: dict[str, Any] = kr(state)["ann"]
        seat = action.seat
        if isinstance(action, Announce):
            names = list(action.announce)
            if GRAMMOPOI in names and ABSOLUT not in names and not any(
                    a.name == ABSOLUT for a in state.announcements):
                names.append(ABSOLUT)  # "Ansage ... des Grammopoi bedingt selbiges für den Absolut"
            for name in names:
                state.announcements.append(_announcement(name, seat))
                if name == MONDFANG:
                    kr(state)["mond_holder"] = state.holder(MOND)
                if name in BIRDS and bird_pending(state, self.d, seat):
                    kr(state)["bird_done"] = name
                if name == KING_ULTIMO and seat == state.partner and state.options.get("ultimo_reveals"):
                    state.partner_known = True  # only the called King's holder may say it
            info["acted"] = True
            return
        if isinstance(action, Kontra):
            self._raise(state, info, seat, action.target)
            info["acted"] = True
            if seat not in info.setdefault("kontra_seats", []):
                info["kontra_seats"].append(seat)
            if state.options.get("kontra_ends_turn"):
                info["kontra_turn"] = seat  # more Kontras ("on everything"), then Gut
            return
        info["kontra_turn"] = None
        if seat not in info["spoken"]:
            info["spoken"].append(seat)
        info["streak"] = 0 if info["acted"] else info["streak"] + 1
        info["acted"] = False
        if info["streak"] >= 3 and len(info["spoken"]) == len(state.players):
            state.to_move = None
        else:
            state.to_move = state.next_seat(seat)

    @staticmethod
    def _raise(state: HandState, info: dict[str, Any], seat: int, target: KontraTarget) -> None:
        if target.declarer is not None:
            key = (target.declarer, seat)
            info["pairs"][key] = info["pairs"].get(key, 0) + 1
        elif target.answer is not None:
            info["pairs"][(seat, target.answer)] += 1
        elif target.game:
            state.kontra_level += 1
            if state.kontra_level == 1:
                info["kontra_by"][""] = seat
            return
        else:
            i = next(i for i, a in enumerate(state.announcements) if a.name == target.name)
            state.announcements[i] = raised(state.announcements[i])
            if state.announcements[i].kontra == 1:
                info["kontra_by"][target.name] = seat
            return
        state.kontra_level = max(info["pairs"].values())


@lru_cache(maxsize=4096)
def _announcement(name: str, seat: int, against: bool = False, kontra: int = 0) -> Announcement:
    """The announcement of these fields, one value each (it is frozen)."""
    return Announcement(name, seat, against, kontra)


def raised(a: Announcement) -> Announcement:
    """``a`` one Kontra level higher: ``dataclasses.replace(a, kontra=a.kontra + 1)``
    built directly, several times faster for a Kontra said many times a hand
    (tests/test_koenigrufen_raised.py checks that the fields are still these)."""
    return _announcement(a.name, a.seat, a.against, a.kontra + 1)


class FahrerKontra(Phase):
    """docs/rules.md §17.7, Fahrer: "Jeder Spieler außer der Vorhand darf das Spiel
    kontrieren" -- one round, each may say Kontra once (target ``""``)."""

    name = KONTRA

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
