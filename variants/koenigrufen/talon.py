"""The talon and what may be laid away (calling a King is core's :class:`~core.phases.CallPhase`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from tarock.core.actions import Action
from tarock.core.cards import TRULL, Card, is_king
from tarock.core.contracts import ContractSpec
from tarock.core.phases import TALON, Phase
from tarock.core.rules import Rules
from tarock.core.state import HandState, Reason
from tarock.variants.koenigrufen.actions import GiveUp, TakeTalon
from tarock.variants.koenigrufen.context import BIRD_CARDS, called_in_talon, game_of, kr, tarock_count
from tarock.variants.koenigrufen.games import BIRDS, Dialect, is_bird_game, king_in_talon, max_tarocks


def needs_talon_phase(state: HandState, game: ContractSpec) -> bool:
    """Whether the hand has a talon step: one half or all six.  Games without
    the talon never look into it, not even for a called King (docs/rules.md
    §16.6 Solorufer, §17.6 Solo-Rufer: the King in the talon counts at the end)."""
    return game.talon in ("half", "all")


class TalonPhase(Phase):
    """Taking talon cards.

    ``half``: the declarer takes a pile of his choice (with the called King
    in the talon he may instead give up, where the game allows it); ``all``:
    he takes all six.  The talon is turned up first where the game says so
    (``Game.talon_open``).
    """

    name = TALON

    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect

    def _take(self, state: HandState, piles: Sequence[int]) -> None:
        assert state.declarer is not None
        taken: list[Card] = []
        for i in piles:
            taken.extend(state.talon[i])
            state.talon[i] = []
        state.talon_taken = taken
        state.hands[state.declarer].extend(taken)
        if called_in_talon(state):
            kr(state)["alone"] = True

    def start(self, state: HandState, rules: Rules) -> None:
        game = game_of(state)
        assert game is not None and state.declarer is not None
        kr(state)["pre_talon"] = list(state.hands[state.declarer])
        kr(state)["talon_dealt"] = [list(p) for p in state.talon]
        # turned up for all: the halves always, all six where the game says so
        kr(state)["talon_open"] = game.talon_open or game.talon != "all"
        if game.talon == "all":
            self._take(state, range(len(state.talon)))
            state.to_move = None
        else:
            state.to_move = state.declarer

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        out: list[Action] = [TakeTalon(seat, i) for i in range(len(state.talon))]
        game = game_of(state)
        if game is not None and king_in_talon(game) == "choose" and called_in_talon(state):
            out.append(GiveUp(seat))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if action in self.legal(state, rules, action.seat):
            return None
        if isinstance(action, GiveUp):
            return Reason("cannot-give-up", "you may give up only when the called King lies in the talon")
        if isinstance(action, TakeTalon):
            return Reason("no-such-pile", f"take talon half 1 or {len(state.talon)}")
        return Reason("wrong-phase", f"choose a talon half now, not {action.describe()}")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        if isinstance(action, GiveUp):
            kr(state)["gave_up"] = True
        else:
            assert isinstance(action, TakeTalon)
            kr(state)["pile"] = action.pile
            self._take(state, [action.pile])
        state.to_move = None


def plain_first(dialect: Dialect, state: HandState) -> bool:
    """The option ``discards``: ``plain-first`` (docs/rules.md §17.3, §18.3): in a tarock game suit
    cards are laid away first, tarocks only when no suit card but Kings is left; in a colour game
    tarocks first, suit cards only when no tarock but the Trull is left.  ``free``: any but Kings
    and Trull cards (docs/rules.md §16.3)."""
    default = "plain-first" if dialect.tarocks_only_without_suits else "free"
    return bool(state.options.get("discards", default) == "plain-first")


def legal_discards(dialect: Dialect, game: ContractSpec, hand: Sequence[Card], count: int,
                   plain: bool = False) -> list[tuple[Card, ...]]:
    """Every set of ``count`` cards that may be laid away.

    Never Kings or Trull cards (docs/rules.md §15.4).  With ``plain`` (:func:`plain_first`) the
    game's plain cards go first: suit cards in a tarock game, tarocks in a colour game.  §16.3,
    colour games: at most the game's ``max_tarocks`` may stay in the hand.
    """
    hand = sorted(hand)
    allowed = [c for c in hand if not is_king(c) and c not in TRULL]
    if plain:
        colour = game.tricks.trump == "colour"
        first = [c for c in allowed if (c < 22) == colour]
        if len(first) >= count:
            out = list(combinations(first, count))
        else:
            rest = [c for c in allowed if (c < 22) != colour]
            out = [tuple(sorted(first + list(extra))) for extra in combinations(rest, count - len(first))]
    else:
        out = list(combinations(allowed, count))
    most = max_tarocks(game)
    if most is not None:
        held = tarock_count(list(hand))
        out = [cs for cs in out if held - tarock_count(list(cs)) <= most]
    return out


def bird_keepers(state: HandState, dialect: Dialect, game: ContractSpec, seat: int) -> frozenset[Card]:
    """The birds a Besserrufer may still name as his game's bird (empty when
    he named it already or the game is no Besserrufer)."""
    if not is_bird_game(game) or seat != state.declarer or kr(state).get("bird_done"):
        return frozenset()
    hand = state.hands[seat]
    pre = kr(state).get("pre_talon", hand) if dialect.bird_before_talon else hand
    return frozenset(c for c in BIRD_CARDS if c in hand and c in pre)


def keep_duties(state: HandState, dialect: Dialect, game: ContractSpec, seat: int,
                options: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """Discards that keep announced cards (a bird named in the Besserrufer
    contest) and at least one bird the Besserrufer may still name; the
    unfiltered ``options`` if no discard can."""
    announced = {BIRDS[a.name][0] for a in state.announcements if a.seat == seat and a.name in BIRDS}
    kept = [cs for cs in options if announced.isdisjoint(cs)] if announced else options
    birds = bird_keepers(state, dialect, game, seat)
    if birds:
        kept = [cs for cs in kept if not birds.issubset(cs)]
    return kept or options


def discard_reason(dialect: Dialect, game: ContractSpec, hand: Sequence[Card],
                   cards: Sequence[Card], plain: bool = False) -> Reason:
    """Why ``cards`` are not among :func:`legal_discards`."""
    if any(is_king(c) for c in cards):
        return Reason("discard-king", "Kings may not be laid away")
    if any(c in TRULL for c in cards):
        return Reason("discard-trull", "Pagat, Mond and Sküs may not be laid away")
    if plain and game.tricks.trump == "colour" and any(c >= 22 for c in cards):
        return Reason("discard-suit", "in a colour game suit cards may be laid away only when no "
                      "other tarock is left")
    if plain and any(c < 22 for c in cards):
        return Reason("discard-tarock", "tarocks may be laid away only when no other suit card is left")
    most = max_tarocks(game)
    if most is not None:
        return Reason("too-many-tarocks", f"at most {most} tarocks may stay in a colour game")
    return Reason("discard-not-allowed", "these cards may not be laid away")
