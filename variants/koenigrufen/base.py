"""The Königrufen base: the hook implementations both dialects share.

One plugin class, :class:`Koenigrufen`, declares a :class:`Dialect`'s games
as contracts and its premiums as data, and answers what data cannot say;
the club and course modules only build their dialects.  Phases of a hand::

    bidding -> [birds] -> [call] -> [talon -> discard] -> announce | kontra -> play

``bidding``: core's auction in the dialect's style; ``birds``: several
Besserrufer name their birds (docs/rules.md §6.4); ``call``: core's call of a King in
calling games; ``talon``/``discard``: games with the talon; ``announce``:
premiums and Kontra until three "Gut!" (not in Trischaken); ``kontra``: the
Fahrer's round of Kontras (docs/rules.md §17.7).  A game given up ends after ``talon``.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from functools import lru_cache
from typing import Any, get_args

from tarock.core.actions import Action, KontraTarget
from tarock.core.auction import VORHAND, auction_info
from tarock.core.cards import KAKADU, MARABU, PAGAT, UHU, Card
from tarock.core.contracts import ContractSpec, Outcome, Playable, PremiumSpec
from tarock.core.facts import VariantFacts
from tarock.core.hookcall import after_answer
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec
from tarock.core.phases import (
    ANNOUNCE,
    BIDDING,
    CALL,
    DISCARD,
    KONTRA,
    PLAY,
    TALON,
    CallPhase,
    DiscardPhase,
    Phase,
    TrickPlay,
)
from tarock.core.registry import Variant
from tarock.core.rules import Rules
from tarock.core.state import HandState, PhaseId, Reason, Score, Verdict
from tarock.variants.common import Deal54
from tarock.variants.koenigrufen import scoring
from tarock.variants.koenigrufen.actions import KOENIGRUFEN_ACTIONS
from tarock.variants.koenigrufen.announce import Announcing, FahrerKontra
from tarock.variants.koenigrufen.bidding import BIRDS_PHASE, BirdContest, HoldingAuction, contest_seats, style
from tarock.variants.koenigrufen.cardplay import thirds
from tarock.variants.koenigrufen.context import KINGS, callable_cards, declarers, game_of, kr
from tarock.variants.koenigrufen.games import (
    BIRDS,
    KING_ULTIMO,
    MATERIAL,
    PREMIUM_ORDER,
    Dialect,
    Kind,
    KingInTalon,
    kind,
)
from tarock.variants.koenigrufen.talon import (
    TalonPhase,
    discard_reason,
    keep_duties,
    legal_discards,
    needs_talon_phase,
    plain_first,
)
from tarock.variants.koenigrufen.verdicts import announce_verdict, kontra_verdict

VERSION = "2.0"
BIRD_ORDER = (MARABU, KAKADU, UHU, PAGAT)
"""docs/rules.md §4.7: "Wenn ein Vogel geopfert werden muss, sind die höheren zuerst aufzugeben"."""

PLAYABLE = Playable(
    goals=frozenset({("points", "alone"), ("points", "called"), ("tricks", "alone"), ("ranking", "each")}),
    trumps=frozenset({"tarock", "colour"}), talon=frozenset({"none", "half", "all", "trick", "last"}),
    calls=frozenset({"after"}), joinable=frozenset({"tricks"}), contest=True,
    extras=(("kind", get_args(Kind)), ("king_in_talon", get_args(KingInTalon)), ("bird", (True, False)),
            ("max_tarocks", (None, *range(13))), ("announce_at_once", (True, False)),
            ("forehand_bid", ("opening",))))
"""What the phases and the scoring here play: the called King after the auction
(its place in the talon decides), no trump suit named (no such phase), the
negative games alone or joined (each declarer settles with each other player);
the ``extra`` data of :mod:`variants.koenigrufen.games` and the forehand's
opening bid (:mod:`variants.koenigrufen.bidding`)."""

TITLES = {
    "trull": "Trull", "kings": "Vier Könige", "absolut": "Absolut", "grammopoi": "Grammopoi",
    "king": "König Ultimo", "pagat": "Pagat Ultimo", "uhu": "Uhu", "kakadu": "Kakadu", "marabu": "Marabu",
    "mondfang": "Mondfang", "valat": "Valat",
}
"""The premiums' names as the rulebooks write them."""


def obligations(state: HandState, seat: int) -> dict[Card, int]:
    """Cards ``seat`` announced for a trick: card -> index of that trick.

    docs/rules.md §4.7: "Hat man einen Vogel (oder König ultimo) angesagt, muss man
    immer versuchen, die entsprechende Karte zum vorgeschriebenen Stich zu
    spielen; wurden sie in ebendiesem blockiert, können sie danach nach
    Belieben gespielt werden."  003 asks the same of the Besserrufer's bird
    ("muss der Spieler mit ihm den drittletzten Stich machen").
    """
    out: dict[Card, int] = {}
    n = 0  # the hand's number of tricks, counted at the first announced card (asked for every card)
    for a in state.announcements:
        if a.seat != seat or not (a.name in BIRDS or a.name == KING_ULTIMO):
            continue
        if not n:
            n = len(state.hands[seat]) + len(state.tricks) + (
                1 if state.trick and seat in state.trick.seats else 0)
        if a.name in BIRDS:
            card, from_end = BIRDS[a.name]
            out[card] = n - from_end
        elif a.name == KING_ULTIMO and state.called is not None:
            out[state.called] = n - 1
    return out


class Duties:
    """:func:`obligations` in the trick play, once per hand and seat: while the cards
    are played they stay as they are (the hand's number of tricks, the
    announcements and the called card are settled), and they are asked for
    every card."""

    def __init__(self) -> None:
        self._of: tuple[HandState, int, dict[int, dict[Card, int]]] | None = None

    def of(self, state: HandState, seat: int) -> dict[Card, int]:
        if state.phase != PLAY:
            return obligations(state, seat)
        known = self._of
        if known is None or known[0] is not state or known[1] != len(state.announcements):
            known = self._of = (state, len(state.announcements), {})
        due = known[2].get(seat)
        if due is None:
            due = known[2][seat] = obligations(state, seat)
        return due


@lru_cache(maxsize=64)
def _calls_kings(cards: tuple[Card, ...]) -> bool:
    """Whether a call rule's ``cards`` are the four Kings (asked in every turn of the auction)."""
    return set(cards) == set(KINGS)


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


class Koenigrufen(Deal54):
    """Hook implementations of one Königrufen dialect."""

    version = VERSION

    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect
        self.name = dialect.name
        self.contracts = dialect.contracts()
        self.duties = Duties().of
        self.handlers: dict[str, Phase] = {
            BIDDING: HoldingAuction(style(dialect)),
            BIRDS_PHASE: BirdContest(dialect),
            CALL: CallPhase(),
            TALON: TalonPhase(dialect),
            DISCARD: DiscardPhase(),
            # its verdicts asked directly where these hooks answer alone
            ANNOUNCE: Announcing(dialect, Koenigrufen.tarock_kontra_verdict,
                                 Koenigrufen.tarock_announce_verdict),
            KONTRA: FahrerKontra(),
            PLAY: TrickPlay(),
        }

    def game(self, state: HandState) -> ContractSpec:
        game = game_of(state)
        assert game is not None, "no game decided yet"
        return game

    # -- setup ---------------------------------------------------------------
    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        out = [OptionSpec("four_kings", self.d.options["four_kings"],
                          "what a declarer holding all four Kings may call: a Queen, an own King "
                          "(playing alone), or nothing", choices=("queen", "self", "none"))]
        if "mondfang_partners" in self.d.options:
            out.append(OptionSpec("mondfang_partners", self.d.options["mondfang_partners"],
                                  "a Mond caught by the own partner's Sküs counts against the Mond's party"))
        if "bei_leader" in self.d.options:
            out.append(OptionSpec("bei_leader", self.d.options["bei_leader"],
                                  "who leads a Bei-game: the first declarer or the first to bid "
                                  "a negative game",
                                  choices=("first-declarer", "first-negative-bidder")))
        out += [
            OptionSpec("forehand_hold", False, "the forehand may hold the standing bid of another player "
                       "(\"ich halte\"): she takes that game without outbidding it"),
            OptionSpec("announce_first", "declarer", "who opens the announcements: the declarer or the "
                       "forehand", choices=("declarer", "forehand")),
            OptionSpec("announce_once", False, "each player announces premiums only in his first turn "
                       "of the announcements (Kontras may follow later)"),
            OptionSpec("kontra_ends_turn", False,
                       "a Kontra ends one's announcing: in that turn only more Kontras, then Gut!"),
            OptionSpec("colour_kontra_or_valat", False,
                       "in a colour game a defender either says Kontra or announces Valat, not both"),
            OptionSpec("king_ultimo", "king", "König Ultimo is made when the called King itself takes "
                       "the last trick, or when its party takes the last trick with the King in it",
                       choices=("king", "party")),
            OptionSpec("ultimo_reveals", False, "announcing König Ultimo makes the partnership public "
                       "(only the called King's holder may)"),
            OptionSpec("discards", "plain-first" if self.d.tarocks_only_without_suits else "free",
                       "what may be laid away besides Kings and Trull cards: anything, or tarocks (in "
                       "colour games suit cards) only when no other card is left",
                       choices=("free", "plain-first")),
            OptionSpec("valat", "replaces-all" if self.d.valat_multiplies else "premium",
                       "a Valat is a premium, or worth the game value times the Valat's value and "
                       "replaces the game and every other premium, or the game and the silent premiums",
                       choices=("premium", "replaces-all", "replaces-game")),
            OptionSpec("giveup_price", "game-and-bird" if self.d.giveup_pays_bird else "game",
                       "what a declarer who gives up pays each other player: the game, or the game and "
                       "(Besserrufer) the announced value of the smallest bird he held before the talon",
                       choices=("game", "game-and-bird")),
            OptionSpec("trischaken", "ranks", "Trischaken settled by ranks (Jungfrau, Unter-, Ober-"
                       "wertiger, Bürgermeister) or the loser (most points) pays",
                       choices=("ranks", "loser-pays")),
        ]
        return out

    @hookimpl
    def tarock_action_types(self) -> Sequence[type[Action]]:
        return KOENIGRUFEN_ACTIONS

    @hookimpl
    def tarock_contracts(self, options: Mapping[str, Any]) -> Sequence[ContractSpec]:
        return self.contracts

    @hookimpl
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Sequence[PremiumSpec]:
        return [PremiumSpec(name, TITLES[name], *self.d.premium_values[name], material=name in MATERIAL)
                for name in PREMIUM_ORDER if name in self.d.premium_values]

    @hookimpl
    def tarock_variant_facts(self, options: Mapping[str, Any]) -> VariantFacts:
        # both texts: "Werte in Cent", "Tarif (in Cent)"; "Kontra ist bis Re (4fach) möglich";
        # "Gespielt wird gegen den Uhrzeigersinn"
        return VariantFacts(unit=3, kontra_scope="each", money="ct", kontra_words=("Kontra", "Re"),
                            direction="counterclockwise", playable=PLAYABLE)

    # -- flow ----------------------------------------------------------------
    @hookimpl
    def tarock_phases(self, state: HandState) -> Sequence[PhaseId]:
        seq = [BIDDING]
        if contest_seats(state):
            seq.append(BIRDS_PHASE)
        game = game_of(state)
        if game is None:
            return seq
        if game.call is not None:
            seq.append(CALL)
            if state.called is None:
                return seq
        if needs_talon_phase(state, game):
            seq.append(TALON)
            if kr(state).get("gave_up"):
                return seq
            seq.append(DISCARD)
        if kind(game) == "fahrer":
            seq.append(KONTRA)
        elif kind(game) != "trischaken":
            seq.append(ANNOUNCE)
        seq.append(PLAY)
        return seq

    @hookimpl
    def tarock_phase(self, name: PhaseId) -> Phase | None:
        return self.handlers.get(name)

    @hookimpl
    def tarock_callable(self, state: HandState, seat: int, contract: ContractSpec) -> Sequence[Card] | None:
        if contract.call is None or not _calls_kings(contract.call.cards):
            return None  # a house rule's call of other cards: core's answer from its CallRule
        return callable_cards(state.hands[seat], str(state.options["four_kings"]))

    @hookimpl
    def tarock_announce_verdict(self, state: HandState, seat: int, name: str) -> Verdict:
        return announce_verdict(state, self.d, seat, name)

    @hookimpl
    def tarock_kontra_verdict(self, state: HandState, seat: int, target: KontraTarget) -> Verdict | None:
        if state.phase != ANNOUNCE:
            return None
        return kontra_verdict(state, seat, target)

    # -- talon ---------------------------------------------------------------
    @hookimpl
    def tarock_legal_discards(self, state: HandState, seat: int, count: int) -> Sequence[tuple[Card, ...]]:
        game = self.game(state)
        plain = plain_first(self.d, state)
        return keep_duties(state, self.d, game, seat,
                           legal_discards(self.d, game, state.hands[seat], count, plain))

    @hookimpl
    def tarock_discard_reason(self, state: HandState, seat: int, cards: tuple[Card, ...]) -> Reason:
        game = self.game(state)
        plain = plain_first(self.d, state)
        if cards in legal_discards(self.d, game, state.hands[seat], len(cards), plain):
            return Reason("discard-bird", "keep your announced bird, or as Besserrufer a bird to name")
        return discard_reason(self.d, game, state.hands[seat], cards, plain)

    # -- play ----------------------------------------------------------------
    @hookimpl
    def tarock_first_leader(self, state: HandState) -> int:
        game = self.game(state)
        if game.leader == "forehand":
            return state.forehand
        decl = declarers(state)
        if len(decl) > 1 and state.options.get("bei_leader") == "first-negative-bidder":
            # the remark appended to the club rulebook (docs/rules.md §16.8):
            # "derjenige, der als erster ein Negativspiel angesagt hat"
            for seat, name in auction_info(state)["log"]:
                if seat in decl and name != VORHAND and kind(self.d.game(name)) == "tricks":
                    return int(seat)
        return decl[0]  # "Der erste Spielersteher spielt aus."

    @hookimpl(wrapper=True)
    @after_answer  # asked for every card played: no generator on the way
    def tarock_legal_plays(self, state: HandState, seat: int, *, answer: Sequence[Card]) -> Sequence[Card]:
        due = self.duties(state, seat)
        return restrict(list(answer), due, len(state.tricks)) if due else answer

    @hookimpl(wrapper=True)
    def tarock_play_reason(self, state: HandState, seat: int,
                           card: Card) -> Generator[None, Any, Reason | None]:
        base: Reason | None = yield
        assert state.contract is not None
        from tarock.core.tricks import legal

        trick = state.trick.cards if state.trick else []
        cands = legal(state.hands[seat], trick, state.contract.spec.tricks)
        if card not in cands:
            return base
        due = obligations(state, seat)
        now = len(state.tricks)
        if any(index == now and c in cands for c, index in due.items()):
            return Reason("announced-card-due", "this trick is the one of your announced card: play it")
        if any(c not in due or due[c] <= now for c in cands):
            return Reason("announced-card", "an announced card must be kept for its trick")
        return Reason("bird-sacrifice", "an announced bird must be given up: the higher ones first")

    # -- what everyone sees --------------------------------------------------
    @hookimpl
    def tarock_talon_shown(self, state: HandState) -> Sequence[Sequence[Card]] | None:
        game = game_of(state)
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
        if not self.d.open_discards or game_of(state) is None:
            return None
        # docs/rules.md §16.3: "andere Tarock nur offen (außer bei Farbenspielen)", "Farbkarten aber offen"
        colour = self.game(state).tricks.trump == "colour"
        return [c for c in state.discards if (c >= 22) == colour]

    @hookimpl
    def tarock_open_hands(self, state: HandState) -> Sequence[int] | None:
        game = game_of(state)
        if game is None or not game.ouvert or not state.tricks:
            return None
        return list(state.players) if self.d.ouvert_all else list(declarers(state))

    # -- counting and settlement ---------------------------------------------
    @hookimpl
    def tarock_count(self, state: HandState, cards: Sequence[Card]) -> int:
        return thirds(cards)

    @hookimpl
    def tarock_premium_outcomes(self, state: HandState) -> Mapping[str, Outcome]:
        game = self.game(state)
        if kind(game) != "points" or kr(state).get("gave_up") or not state.tricks:
            return {}
        return scoring.outcomes(state, game, bool(state.options.get("mondfang_partners")))

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> Score:
        game = self.game(state)
        if kr(state).get("gave_up"):
            return scoring.score_given_up(state, self.d, game, rules.premium_specs)
        every = [c for t in state.tricks for c in t.cards] + list(state.discards) + scoring.talon_rest(state)
        total = rules.count(state, every)
        if kind(game) == "trischaken":
            if state.options.get("trischaken") == "loser-pays":
                return scoring.score_trischaken_loser(state, game, self.d.win)
            return scoring.score_trischaken(state, game)
        if kind(game) == "fahrer":
            return scoring.score_fahrer(state, game)
        if kind(game) == "tricks":
            return scoring.score_tricks_game(state, game, total)
        ours, _ = scoring.party_piles(state, game)
        made = rules.premium_outcomes(state)
        premiums = scoring.premium_items(state, self.d, game, rules.premium_specs, made)
        return scoring.score_points_game(state, self.d, game, total, rules.count(state, ours), premiums)


def dialect_variant(dialect: Dialect, lobby_order: int) -> Variant:
    """The installed variant of one rule text: its name, title and description, one
    :class:`Koenigrufen` per table."""
    return Variant(name=dialect.name, title=dialect.title, plugins=lambda: [Koenigrufen(dialect)],
                   description=dialect.description, lobby_order=lobby_order)
