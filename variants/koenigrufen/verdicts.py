"""Who may announce what and raise which Kontra in Königrufen's announcement round.

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

:func:`announce_verdict` and :func:`kontra_verdict` are the rulebooks' answers to
the verdict hooks; :func:`announce_open` and :func:`kontra_open` give the same
answers for all names or targets of one turn at once (:mod:`.announce`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from tarock.core.actions import GAME, Action, Kontra, KontraTarget, kontra_on
from tarock.core.cards import MOND, is_king
from tarock.core.contracts import ContractSpec
from tarock.core.state import ALLOW, Announcement, HandState, Verdict
from tarock.variants.koenigrufen.context import alone, declarers, game_of, kr
from tarock.variants.koenigrufen.games import (
    ABSOLUT,
    BIRDS,
    GRAMMOPOI,
    KING_ULTIMO,
    MONDFANG,
    VALAT,
    Dialect,
    announce_at_once,
    is_bird_game,
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
    contract = state.contract  # asked in every turn of the announcements: no helper calls
    return (contract is not None and contract.spec.tricks.trump == "colour" and seat != state.declarer
            and bool(state.options.get("colour_kontra_or_valat")))


def valat_by(state: HandState, seat: int) -> bool:
    """Whether ``seat`` defends a colour game with a Valat announced, so says no Kontra."""
    return colour_defender(state, seat) and any(a.name == VALAT and a.seat == seat
                                                  for a in state.announcements)


def bird_pending(state: HandState, dialect: Dialect, seat: int) -> bool:
    """Whether the Besserrufer must still announce his bird (and can)."""
    contract = state.contract
    # asked in every turn: the questions bird_keepers asks first, without a call
    if contract is None or seat != state.declarer or not is_bird_game(contract.spec):
        return False
    return bool(bird_keepers(state, dialect, contract.spec, seat))


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
    contract = state.contract
    assert contract is not None and state.declarer is not None
    game = contract.spec
    longest = game.kontra
    if longest == 0 or valat_by(state, seat):
        return []
    if kind(game) == "tricks":
        pairs: dict[tuple[int, int], int] = kr(state)["ann"]["pairs"]
        decl = declarers(state)
        out = [kontra_pair(seat, d, False) for d in decl
               if d != seat and raisable(pairs.get((d, seat), 0), longest, False)]
        if seat in decl:
            out += [kontra_pair(seat, x, True) for (d, x), level in pairs.items()
                    if d == seat and raisable(level, longest, True)]
        return out
    public = game.call is None or alone(state)  # public_sides(), the game known here
    # a chain may be raised at an even level by the other side (Kontra), at an odd one by the
    # owner's side (Re): raisable(), asked inline here for every item in every turn
    same = sides_known(state, seat, public)  # True == 1: the owner's side says Re, at odd levels
    actions = kontras_of(seat)
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
                act = actions[name] = kontra_of(seat, name)
            out.append(act)
    return out


_KONTRAS: dict[int, dict[str, Action]] = {}


def kontras_of(seat: int) -> dict[str, Action]:
    """``seat``'s Kontra actions by item name (``""``: the game), one value each."""
    actions = _KONTRAS.get(seat)
    if actions is None:
        actions = _KONTRAS[seat] = {"": kontra_of(seat, "")}
    return actions


def raisable(level: int, longest: int, re: bool) -> bool:
    """Whether a chain at ``level`` may be raised by a Kontra (``re`` False: by
    the other side, at an even level) or a Re (``re``: by the owner's side, at
    an odd one), the chain at most ``longest`` long."""
    return level < longest and (level % 2 == 1) == re


@lru_cache(maxsize=1024)
def kontra_pair(seat: int, other: int, answer: bool) -> Action:
    """In a game played for tricks: the Kontra of ``seat`` on declarer ``other``'s
    game, or (``answer``) the declarer's Re on ``other``'s Kontra; one value each."""
    return Kontra(seat, KontraTarget(answer=other) if answer else KontraTarget(declarer=other))


@lru_cache(maxsize=1024)
def kontra_of(seat: int, name: str) -> Action:
    """The Kontra of ``seat`` on the game (``name`` empty) or an announcement, one value each."""
    return Kontra(seat, kontra_on(name) if name else GAME)
