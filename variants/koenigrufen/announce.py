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

Kontra (×2), Re (×4) and, where the contract's ``kontra`` (the chain's
length) allows it, Subkontra (×8) are raised per item: the game (target ``""``) or an
announced premium (target: its name).  In games played for points they count
party-wise; whoever is not known to be on the owner's side may say Kontra,
whoever knows he is on it may say Re.  Since announcements do not say for
which side they are made ("Bei der Prämienansage wird nicht deklariert, von
welcher Seite sie erfolgt"), a Kontra that turns out to be on a partner's
announcement does not count (scoring).  In negative games Kontra counts
individually: target ``game@D`` (Kontra on declarer D's game, from the
acting seat) and ``re@X`` (the declarer's Re on the Kontra of seat X).

The phase lists what may be said and asks every decision from the rules'
verdict hooks (``tarock_announce_verdict``, ``tarock_kontra_verdict``),
which :func:`announce_verdict` and :func:`kontra_verdict` answer for
Königrufen, so a house rule can allow what the rulebook forbids.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from tarock.core.actions import GAME, Action, Announce, Kontra, KontraTarget, Pass, kontra_on
from tarock.core.cards import MOND, is_king
from tarock.core.contracts import ContractSpec
from tarock.core.phases import ANNOUNCE, KONTRA, Phase, kontra_action
from tarock.core.rules import Rules
from tarock.core.state import ALLOW, Announcement, HandState, Reason, Verdict
from tarock.variants.koenigrufen.context import alone, declarers, game_of, kr
from tarock.variants.koenigrufen.games import (
    ABSOLUT,
    BIRDS,
    GRAMMOPOI,
    KING_ULTIMO,
    MONDFANG,
    PREMIUM_ORDER,
    VALAT,
    Dialect,
    announce_at_once,
    kind,
)
from tarock.variants.koenigrufen.talon import bird_keepers


def knows_same_side(state: HandState, seat: int, owner: int, public: bool) -> bool:
    """Whether ``seat`` knows that ``owner`` is on his side.

    With ``public`` parties (no partner to call, or the called King turned up
    in the talon) everybody knows the sides; otherwise the partner knows them,
    and the others once the partnership is public.
    """
    return seat == owner or sides_known(state, seat, public)[owner]


def sides_known(state: HandState, seat: int, public: bool) -> list[bool]:
    """For every seat, whether ``seat`` knows it is on his side (:func:`knows_same_side`)."""
    seats = range(state.seats)
    if public:
        mine = seat == state.declarer
        return [(s == state.declarer) == mine for s in seats]
    if seat == state.partner or state.partner_known:
        party = state.declarer_party()
        mine = seat in party
        return [(s in party) == mine for s in seats]
    return [s == seat for s in seats]


def public_sides(state: HandState) -> bool:
    """Whether everybody knows the parties (no secret partner)."""
    game = game_of(state)
    return game is None or game.call is None or alone(state)


def colour_defender(state: HandState, seat: int) -> bool:
    """Whether ``seat`` defends a colour game where the option ``colour_kontra_or_valat`` has
    a defender choose between Kontra and a Valat announcement (docs/rules.md §18.4)."""
    game = game_of(state)
    return (bool(state.options.get("colour_kontra_or_valat")) and game is not None
            and game.tricks.trump == "colour" and seat != state.declarer)


def valat_by(state: HandState, seat: int) -> bool:
    """Whether ``seat`` defends a colour game with a Valat announced, so says no Kontra."""
    return colour_defender(state, seat) and any(a.name == VALAT and a.seat == seat
                                                  for a in state.announcements)


def bird_pending(state: HandState, dialect: Dialect, seat: int) -> bool:
    """Whether the Besserrufer must still announce his bird (and can)."""
    game = game_of(state)
    return game is not None and bool(bird_keepers(state, dialect, game, seat))


def announce_verdict(state: HandState, dialect: Dialect, seat: int, name: str) -> Verdict:
    """The rulebooks' answer: may ``seat`` announce ``name`` now?"""
    game = game_of(state)
    assert game is not None
    info = kr(state).get("ann", {})
    return (_turn_denial(state, dialect, seat, game, info, None)
            or _name_verdict(state, dialect, seat, name, info, None))


def announce_open(state: HandState, dialect: Dialect, seat: int, names: list[str],
                  pending: bool) -> list[str]:
    """Those of ``names`` that :func:`announce_verdict` allows ``seat``, asked
    together: what denies every name alike is asked once (``pending``:
    :func:`bird_pending` of ``seat``)."""
    game = game_of(state)
    assert game is not None
    info = kr(state).get("ann", {})
    if not names or _turn_denial(state, dialect, seat, game, info, pending) is not None:
        return []
    return [n for n in names
            if n not in _ASKED or _name_verdict(state, dialect, seat, n, info, pending).allowed]


def _turn_denial(state: HandState, dialect: Dialect, seat: int, game: ContractSpec,
                 info: dict[str, Any], pending: bool | None) -> Verdict | None:
    """Why ``seat`` may announce nothing in this turn, or None (``pending``:
    :func:`bird_pending` if known)."""
    if seat in info.get("spoken", ()):
        if state.options.get("announce_once"):
            return Verdict.deny("announce-once", "each player announces only in his first turn")
        if announce_at_once(game) and seat in declarers(state):
            return Verdict.deny("announce-at-once",
                                "in this game the declarer announces at once, in his first turn")
    if info.get("kontra_turn") == seat and not (
            bird_pending(state, dialect, seat) if pending is None else pending):
        return Verdict.deny("kontra-said", "after a Kontra say only more Kontras or Gut in this turn")
    return None


_ASKED = frozenset({VALAT, KING_ULTIMO, MONDFANG, GRAMMOPOI, *BIRDS})
"""The premiums :func:`_name_verdict` may deny; it allows every other."""


def _name_verdict(state: HandState, dialect: Dialect, seat: int, name: str, info: dict[str, Any],
                  pending: bool | None) -> Verdict:
    """:func:`announce_verdict` on ``name`` in a turn that :func:`_turn_denial` lets announce
    (a name not in ``_ASKED`` is allowed)."""
    hand = state.hands[seat]
    if name == VALAT and colour_defender(state, seat) and seat in info.get("kontra_seats", ()):
        return Verdict.deny("kontra-or-valat", "in a colour game a defender says Kontra or announces "
                            "Valat, not both")
    if name in BIRDS:
        card = BIRDS[name][0]
        if card not in hand:
            return Verdict.refuse("bird-not-in-hand",
                                  "you may announce {} only with the card in your hand", name)
        if (dialect.bird_before_talon
                and (bird_pending(state, dialect, seat) if pending is None else pending)
                and card not in kr(state).get("pre_talon", hand)):
            return Verdict.deny("bird-from-talon",
                                "the Besserrufer's bird must have been in your hand before the talon")
    called = state.called
    if name == KING_ULTIMO and not (called is not None and is_king(called) and called in hand):
        return Verdict.deny("king-not-in-hand", "you may announce König Ultimo only holding the called King")
    if name == MONDFANG and MOND in hand:
        return Verdict.deny("mondfang-own-mond", "you may not announce Mondfang holding the Mond")
    if name == GRAMMOPOI:
        public = public_sides(state)
        for a in state.announcements:
            # "Ansage/Gewinn des Grammopoi bedingt selbiges für den Absolut": on top of one's
            # own party's Absolut it may be said; another party's Absolut rules it out
            if a.name == ABSOLUT and not knows_same_side(state, seat, a.seat, public):
                return Verdict.deny("absolut-taken",
                                    "Grammopoi includes the Absolut, which the other party announced")
    return ALLOW


@lru_cache(maxsize=256)
def _denied_on(code: str, template: str, name: str) -> Verdict:
    """A denial about the game (``name`` empty) or the announcement ``name``,
    its sentence formatted once per item and reason."""
    what = f"the {name} announcement" if name else "the game"
    return Verdict.deny(code, template.format(what=what))


def kontra_verdict(state: HandState, seat: int, target: KontraTarget) -> Verdict:
    """The rulebooks' answer: may ``seat`` raise the chain on ``target`` now?

    Asked for every target in every turn of the announcement round, so the
    refusals' sentences are formatted once per words (:meth:`Verdict.refuse`)
    and the parties are looked at only where a decision needs them.
    """
    contract = state.contract
    assert contract is not None and state.declarer is not None
    game = contract.spec
    # docs/rules.md §16.6, Solorufer with the King in the talon: "Kontras zählen dann in keinem Fall" -- they
    # may be said (nobody knows where the King is) and are void at the end (scoring)
    if game.kontra == 0:
        return Verdict.deny("no-kontra", "there is no Kontra in this game")
    if valat_by(state, seat):
        return Verdict.deny("kontra-or-valat", "you announced Valat: in a colour game no Kontra then")
    if kind(game) == "tricks":
        pairs: dict[tuple[int, int], int] = kr(state).get("ann", {}).get("pairs", {})
        if target.declarer is not None:
            other = target.declarer
            if other not in declarers(state):
                return Verdict.refuse("not-a-declarer", "seat {} plays no game here", other)
            if other == seat:
                return Verdict.deny("own-game", "you cannot say Kontra on your own game")
            # odd levels are the defender's (Kontra, Subkontra), even ones the declarer's answer
            if not raisable(pairs.get((other, seat), 0), game.kontra, False):
                return Verdict.refuse("kontra-said", "you said Kontra on seat {}'s game already", other)
            return ALLOW
        if target.answer is not None:
            other = target.answer
            if seat not in declarers(state) or pairs.get((seat, other)) is None:
                return Verdict.refuse("no-kontra-to-answer", "seat {} said no Kontra on your game", other)
            if not raisable(pairs[(seat, other)], game.kontra, True):
                return Verdict.refuse("re-said", "you answered seat {}'s Kontra already", other)
            return ALLOW
        return Verdict.deny("kontra-target", "in this game say kontra game@N (on declarer N) or re@N")
    if target.declarer is not None or target.answer is not None:
        return Verdict.deny("kontra-target", "kontra the game or an announced premium")
    name = target.name
    if target.game:
        owner, level = state.declarer, state.kontra_level
    else:
        for a in state.announcements:
            if a.name == name:
                owner, level = a.seat, a.kontra
                break
        else:
            return Verdict.refuse("kontra-target",
                                  "{!r} was not announced: kontra the game or a premium", name)
    return _item_verdict(state, seat, game.kontra, name, owner, level, None)


def _item_verdict(state: HandState, seat: int, longest: int, name: str, owner: int, level: int,
                  public: bool | None) -> Verdict:
    """:func:`kontra_verdict` on the game (``name`` empty) or an announced premium
    in a game played for points: ``owner``'s item at Kontra ``level``, the
    chain at most ``longest`` long; ``public``: :func:`public_sides` if known."""
    if level >= longest:  # the contract's chain length: 2 up to Re, 3 up to Subkontra
        return _denied_on("kontra-max", "{what} stands at its highest Kontra level already", name)
    same = seat == owner or knows_same_side(
        state, seat, owner, public_sides(state) if public is None else public)
    if level % 2 == 0:
        if same:
            return _denied_on("own-side", "you know {what} is your own side's: no Kontra on it", name)
    elif not same:
        return _denied_on("re-not-yours",
                          "only the side of {what}, as far as it knows it, answers with Re", name)
    return ALLOW


def kontra_targets(state: HandState, seat: int) -> list[KontraTarget]:
    """What ``seat`` might raise: the game or each announcement, or in games played
    for tricks each declarer's game and each Kontra on ``seat``'s own game."""
    game = game_of(state)
    assert game is not None
    if kind(game) == "tricks":
        pairs: dict[tuple[int, int], int] = kr(state)["ann"]["pairs"]
        out = [KontraTarget(declarer=d) for d in declarers(state)]
        out += [KontraTarget(answer=x) for (d, x) in pairs if d == seat]
        return out
    return [GAME, *(kontra_on(a.name) for a in state.announcements)]


def kontra_open(state: HandState, seat: int) -> list[Action]:
    """The Kontras of :func:`kontra_targets` that :func:`kontra_verdict` allows
    ``seat``, asked together: in a game played for points the parties and the
    announcements are looked at once for all of them, not once per target."""
    game = game_of(state)
    assert game is not None and state.declarer is not None
    if game.kontra == 0 or valat_by(state, seat):
        return []
    longest = game.kontra
    if kind(game) == "tricks":
        pairs: dict[tuple[int, int], int] = kr(state)["ann"]["pairs"]
        decl = declarers(state)
        out = [_kontra_pair(seat, d, False) for d in decl
               if d != seat and raisable(pairs.get((d, seat), 0), longest, False)]
        if seat in decl:
            out += [_kontra_pair(seat, x, True) for (d, x), level in pairs.items()
                    if d == seat and raisable(level, longest, True)]
        return out
    public = public_sides(state)
    # a chain may be raised at an even level by the other side (Kontra), at an odd one by the
    # owner's side (Re): raisable(), asked inline here for every item in every turn
    same = sides_known(state, seat, public)  # True == 1: the owner's side says Re, at odd levels
    actions = _kontras_of(seat)
    level = state.kontra_level
    out = [actions[""]] if level < longest and level % 2 == same[state.declarer] else []
    first: dict[str, Announcement] = {}
    for a in state.announcements:
        item = first.setdefault(a.name, a)
        level = item.kontra
        if level < longest and level % 2 == same[item.seat]:
            name = a.name
            act = actions.get(name)
            if act is None:
                act = actions[name] = _kontra(seat, name)
            out.append(act)
    return out


_KONTRAS: dict[int, dict[str, Action]] = {}


def _kontras_of(seat: int) -> dict[str, Action]:
    """``seat``'s Kontra actions by item name (``""``: the game), one value each."""
    actions = _KONTRAS.get(seat)
    if actions is None:
        actions = _KONTRAS[seat] = {"": _kontra(seat, "")}
    return actions


def raisable(level: int, longest: int, re: bool) -> bool:
    """Whether a chain at ``level`` may be raised by a Kontra (``re`` False: by
    the other side, at an even level) or a Re (``re``: by the owner's side, at
    an odd one), the chain at most ``longest`` long."""
    return level < longest and (level % 2 == 1) == re


@lru_cache(maxsize=1024)
def _kontra_pair(seat: int, other: int, answer: bool) -> Action:
    """In a game played for tricks: the Kontra of ``seat`` on declarer ``other``'s
    game, or (``answer``) the declarer's Re on ``other``'s Kontra; one value each."""
    return Kontra(seat, KontraTarget(answer=other) if answer else KontraTarget(declarer=other))


@lru_cache(maxsize=1024)
def _kontra(seat: int, name: str) -> Action:
    """The Kontra of ``seat`` on the game (``name`` empty) or an announcement, one value each."""
    return Kontra(seat, kontra_on(name) if name else GAME)


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
        pending = bird_pending(state, self.d, seat)
        out: list[Action] = [] if pending else [_pass(seat)]
        game = game_of(state)
        assert game is not None
        names = self._premiums(rules, game)
        said = {a.name for a in state.announcements}
        if said:
            names = [n for n in names if n not in said]
        if self._direct(rules)[0]:
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
        out.extend(self.kontras(state, rules, seat))
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
            for name in action.announce:
                reason = self.announce_reason(state, rules, seat, name)
                if reason is not None:
                    return reason
            return None
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
                state.announcements.append(Announcement(name, seat))
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


def raised(a: Announcement) -> Announcement:
    """``a`` one Kontra level higher: ``dataclasses.replace(a, kontra=a.kontra + 1)``
    built directly, several times faster for a Kontra said many times a hand
    (tests/test_koenigrufen_raised.py checks that the fields are still these)."""
    return Announcement(a.name, a.seat, a.against, a.kontra + 1)


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
