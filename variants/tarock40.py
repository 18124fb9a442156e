"""``tarock40``: the 40-card game of seed 000 ("Variante 40 Blatt").

40 cards, ten each, no talon; a hand without a tarock other than a lone Trull
card is dealt again.  Bidding by outbidding from the forehand, a pass is
final: Rufspiel < Faberl < Solo < Faberl absolut < Solo absolut = Solo mit
Pagat; a top-level bid ends the bidding, four passes void the deal.  Pagat,
Trull and Valat may be announced with every bid.  The Faberl's declarer then
names the trump suit; then the Kontra round (option ``kontra``) and ten
tricks.  Counting card by card, 88 in all; the declarer needs 45 (56 in the
absolut games).

Decisions where the text is silent (see also ../shared/RULES.md):
- redeal: a hand needs a tarock, and a hand whose only tarock is one Trull
  card is dealt again; two Trull cards count ("ein einzelnes Trullstück");
- a deal all four pass is dealt again by the same dealer and is not a round
  (decision 11; ``core.table``);
- the called card (Rufspiel) is set, and shown, when the bidding is decided;
  the partnership is public once it is played;
- Faberl: tarocks keep their normal order (decision 4); option
  ``faberl_xx_high`` flips to the literal reading (XX high, Pagat low);
- a Faberl Valat may be announced if the hand makes it on its own with some
  trump suit (``variants.valat_check``); the suit named afterwards is free;
- Mond fangen: the Sküs's party wins the trick holding the other party's Mond
  (also when the Pagat of the Sküs's party takes it by the Kaiserstich);
- a Kontra is on the whole game: a ``kontra`` naming an announcement is refused;
- Kontra on an announced Valat (seed 000's tournament rule): the exceptions
  for Solo ("XVI und XV zu siebt, XV und XIV zu acht und so weiter") are read
  as holding that pair among at least 7, 8, 9, 10 tarocks; for Faberl "drei
  Könige und der Mond zu siebt" as three Kings and seven tarocks with the Mond;
  these "Ausnahmen" are further ways to Kontra, next to "Sküs oder Mond zu
  neunt" and "XX zu zehnt", which hold in every game;
- the amount per opponent is (game + premiums) x 2 ** Kontra level; the lone
  declarer receives or pays it to each of the three others (decision 1).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from core.actions import Action, Bid, Kontra, Pass, Trump
from core.cards import (
    DECK40,
    MOND,
    PAGAT,
    SKUS,
    SUIT_LETTERS,
    TAROCK,
    TRULL,
    Card,
    is_king,
    tarock,
)
from core.hookspecs import hookimpl
from core.phases import KontraChain, Phase, TrickPlay
from core.registry import Variant
from core.rules import Rules
from core.state import Announcement, Contract, HandResult, HandState, Premium, Reason, Trick
from core.table import PASSED_OUT
from variants.cards40 import (
    count40,
    faberl_legal,
    faberl_reason,
    faberl_strength,
    faberl_winner,
    kaiser_winner,
    redeal_reason,
    suit_index,
)
from variants.common import follow_reason, follow_with_overtrump, premium, settle
from variants.valat_check import faberl_valat_on_own, valat_on_own

RUFSPIEL: Final = "rufspiel"
FABERL: Final = "faberl"
SOLO: Final = "solo"
FABERL_ABSOLUT: Final = "faberl-absolut"
SOLO_ABSOLUT: Final = "solo-absolut"
SOLO_PAGAT: Final = "solo-pagat"

PAGAT_ANN: Final = "pagat"
TRULL_ANN: Final = "trull"
VALAT_ANN: Final = "valat"
ABSOLUT_ANN: Final = "absolut"

WIN: Final = 45
"""Points the declarer party needs (seed 000: "braucht die Mehrheit der Augen, also 45")."""
ABSOLUT: Final = 56

CALLABLE: Final = tuple(tarock(n) for n in range(20, 15, -1))
"""XX down to XVI: the cards a Rufspiel may call."""


@dataclass(frozen=True, slots=True)
class Game:
    """A contract of the 40-card ladder.

    ``level`` orders the bids (equal levels do not outbid each other);
    ``value`` is the game value; ``goal`` the points needed; ``implied`` the
    announcements the bid itself makes (Absolut, Pagat).
    """

    name: str
    title: str
    level: int
    value: int
    solo: bool
    faberl: bool = False
    goal: int = WIN
    implied: tuple[str, ...] = ()


GAMES: Final = {g.name: g for g in (
    Game(RUFSPIEL, "Rufspiel", 1, 1, solo=False),
    Game(FABERL, "Faberl", 2, 4, solo=True, faberl=True),
    Game(SOLO, "Solo", 3, 4, solo=True),
    Game(FABERL_ABSOLUT, "Faberl absolut", 4, 4, solo=True, faberl=True, goal=ABSOLUT,
         implied=(ABSOLUT_ANN,)),
    Game(SOLO_ABSOLUT, "Solo absolut", 5, 4, solo=True, goal=ABSOLUT, implied=(ABSOLUT_ANN,)),
    Game(SOLO_PAGAT, "Solo mit Pagat", 5, 4, solo=True, implied=(PAGAT_ANN,)),
)}
TOP_LEVEL: Final = max(g.level for g in GAMES.values())
ANNOUNCEABLE: Final = (PAGAT_ANN, TRULL_ANN, VALAT_ANN)
"""What may be announced with a bid ("Zusätzlich ansagen"), in canonical order."""

_STRENGTH = {False: faberl_strength(False), True: faberl_strength(True)}


def game_of(state: HandState) -> Game:
    """The :class:`Game` of the hand's contract."""
    assert state.contract is not None
    return GAMES[state.contract.name]


def card_to_call(hand: Sequence[Card]) -> Card | None:
    """The highest of XX..XVI that ``hand`` does not hold (None: holds all five)."""
    return next((c for c in CALLABLE if c not in hand), None)


def position(state: HandState, seat: int) -> int:
    """The seat's place in the first trick (0 = leads): the forehand leads."""
    players = state.players
    return (players.index(seat) - players.index(state.forehand)) % len(players)


def own_valat(state: HandState, seat: int, game: Game) -> bool:
    """Seed 000: "Beim Solo und Faberl darf ein Valat nur angesagt werden, wenn
    das Blatt ihn aus eigener Kraft gewinnt."  Rufspiel: no check."""
    if not game.solo:
        return True
    hand = state.hands[seat]
    pos = position(state, seat)
    if game.faberl:
        return faberl_valat_on_own(hand, pos, bool(state.options.get("faberl_xx_high")))
    return valat_on_own(hand, TAROCK, pos)


def announce_reason(state: HandState, seat: int, game: Game, name: str) -> Reason | None:
    """Why ``seat`` may not announce ``name`` with a bid of ``game``."""
    if name == ABSOLUT_ANN:
        return Reason("absolut-is-a-game", "Absolut is announced by bidding faberl-absolut or "
                      "solo-absolut (seed 000: \"sowie Absolut (Faberl oder Solo absolut)\")")
    if name not in ANNOUNCEABLE:
        return Reason("unknown-announcement",
                      f"{name!r} cannot be announced (only {', '.join(ANNOUNCEABLE)})")
    if name == PAGAT_ANN:
        if game.name != RUFSPIEL:
            return Reason("pagat-only-rufspiel", "Pagat may be announced only with a Rufspiel; "
                          "a Solo with the Pagat is the game solo-pagat")
        if PAGAT not in state.hands[seat]:
            return Reason("pagat-not-held", "you need the Pagat to announce it")
    if name == VALAT_ANN and not own_valat(state, seat, game):
        return Reason("valat-not-own-strength",
                      "a Valat in a Solo or Faberl needs a hand that makes it on its own")
    return None


def game_reason(state: HandState, seat: int, game: Game, best: Game | None) -> Reason | None:
    """Why ``seat`` may not bid ``game`` over the highest bid ``best``."""
    if best is not None and game.level <= best.level:
        return Reason("bid-too-low", f"{game.title} does not outbid {best.title}")
    if game.name == RUFSPIEL and card_to_call(state.hands[seat]) is None:
        return Reason("cannot-call", "you hold XX to XVI: there is no tarock to call")
    if game.name == SOLO_PAGAT and PAGAT not in state.hands[seat]:
        return Reason("pagat-not-held", "Solo mit Pagat needs the Pagat in your hand")
    return None


def bids_for(state: HandState, seat: int, best: Game | None) -> list[Action]:
    """Every bid ``seat`` may make over ``best``, with every allowed set of announcements."""
    out: list[Action] = []
    for game in GAMES.values():
        if game_reason(state, seat, game, best) is not None:
            continue
        names = [n for n in ANNOUNCEABLE if announce_reason(state, seat, game, n) is None]
        for k in range(len(names) + 1):
            out.extend(Bid(seat, game.name, combo) for combo in combinations(names, k))
    return out


def decide(state: HandState, seat: int, game: Game, announce: Sequence[str]) -> None:
    """Make ``seat`` the declarer of ``game`` with its announcements."""
    state.declarer = seat
    explicit = tuple(n for n in ANNOUNCEABLE if n in announce)
    state.contract = Contract(game.name, value=game.value, solo=game.solo, announcements=explicit)
    state.announcements = [Announcement(n, seat) for n in (*game.implied, *explicit)]
    state.called = state.partner = None
    state.partner_known = False
    if game.name == RUFSPIEL:
        state.called = card_to_call(state.hands[seat])
        state.partner = state.holder(state.called) if state.called is not None else None


class OutBidding(Phase):
    """Seed 000, 40 cards: "Hier wird überboten. Reihum, beginnend mit der
    Vorhand, sagt jeder ein höheres Spiel an als das bisherige Höchstgebot
    oder passt. Wer passt, ist draußen."

    The bidding ends when all others have passed or a top-level bid is made;
    four passes void the deal.  The highest bid so far is kept in
    ``state.data["bidding"]``; contract, declarer and called card are set
    when the bidding is decided.
    """

    name = "bidding"

    def start(self, state: HandState, rules: Rules) -> None:
        state.data["bidding"] = {"out": [], "best": None, "bidder": None, "announce": []}
        state.to_move = state.forehand

    @staticmethod
    def best(state: HandState) -> Game | None:
        name = state.data["bidding"]["best"]
        return GAMES[name] if name is not None else None

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        return [Pass(seat), *bids_for(state, seat, self.best(state))]

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if isinstance(action, Pass):
            return None
        if not isinstance(action, Bid):
            return Reason("wrong-phase", f"bid or pass now, not {action.describe()}")
        game = GAMES.get(action.contract)
        if game is None:
            return Reason("unknown-contract", f"there is no game {action.contract!r} "
                          f"(games: {', '.join(GAMES)})")
        reason = game_reason(state, action.seat, game, self.best(state))
        if reason is not None:
            return reason
        if len(set(action.announce)) != len(action.announce):
            return Reason("announced-twice", "each premium can be announced once")
        for name in action.announce:
            reason = announce_reason(state, action.seat, game, name)
            if reason is not None:
                return reason
        return None

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = state.data["bidding"]
        players = state.players
        if isinstance(action, Bid):
            info["best"], info["bidder"] = action.contract, action.seat
            info["announce"] = list(action.announce)
        else:
            info["out"].append(action.seat)
        bidder = info["bidder"]
        inside = [s for s in players if s not in info["out"]]
        if bidder is None and not inside:
            state.data["passed_out"] = True
            state.to_move = None
            return
        if bidder is not None and (inside == [bidder] or GAMES[info["best"]].level == TOP_LEVEL):
            decide(state, bidder, GAMES[info["best"]], info["announce"])
            state.to_move = None
            return
        seat = state.next_seat(action.seat)
        while seat in info["out"]:
            seat = state.next_seat(seat)
        state.to_move = seat


class TrumpChoice(Phase):
    """Seed 000, Faberl: "Du spielst allein gegen die drei anderen und wählst
    eine Trumpffarbe."  The declarer names it once the bidding is won."""

    name = "trump"

    def start(self, state: HandState, rules: Rules) -> None:
        assert state.contract is not None
        state.to_move = state.declarer if state.contract.trump is None else None

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        return [Trump(seat, letter) for letter in SUIT_LETTERS]

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if not isinstance(action, Trump):
            return Reason("wrong-phase", f"name the trump suit now, not {action.describe()}")
        if action.suit not in SUIT_LETTERS or len(action.suit) != 1:
            return Reason("no-such-suit", f"{action.suit!r} is not a suit: name c, s, h or d")
        return None

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        assert isinstance(action, Trump) and state.contract is not None
        state.contract = dataclasses.replace(state.contract, trump=action.suit)
        state.to_move = None


def kontra_duty(state: HandState, seat: int) -> bool:
    """Pflichtkontra (seed 000): an opponent of a Rufspiel holding Pagat, Mond
    and Sküs must say Kontra "solange der Rufer nichts zusätzlich angesagt hat".

    Only announcements for the declarer's party count (the opponents' own, in
    house rules that have them, do not lift the duty)."""
    return (state.kontra_level == 0 and state.contract is not None
            and state.contract.name == RUFSPIEL
            and not any(not a.against for a in state.announcements)
            and seat not in state.declarer_party() and set(state.hands[seat]) >= TRULL)


PFLICHTKONTRA: Final = Reason("pflichtkontra", "with Pagat, Mond and Sküs against a Rufspiel "
                              "without announcements you must say Kontra")


def valat_kontra_reason(state: HandState, seat: int, leads: bool) -> Reason | None:
    """Seed 000's "Kontra auf einen Valat": why ``seat`` may not be the first to
    Kontra the declarer's party's announced Valat (None: a hand strong enough)."""
    if may_kontra_valat(state.hands[seat], game_of(state), leads):
        return None
    return Reason("valat-kontra-needs-strength",
                  "against an announced Valat only a very strong hand may say Kontra")


class KontraRound(KontraChain):
    """The Kontra chain of seed 000 with the Pflichtkontra: the bound seat
    cannot say "Weiter".  A Kontra is on the whole game ("verdoppelt den
    Spielwert samt allen Prämien"): one naming an announcement is refused."""

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        actions = super().legal(state, rules, seat)
        if kontra_duty(state, seat):
            return [a for a in actions if not isinstance(a, Pass)]
        return actions

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if isinstance(action, Pass) and kontra_duty(state, action.seat):
            return PFLICHTKONTRA
        if isinstance(action, Kontra) and action.target:
            return Reason("kontra-target", "a Kontra here doubles the game with all its premiums: "
                          f"say kontra without a target, not on {action.target!r}")
        return super().check(state, rules, action)


def may_kontra_valat(hand: Sequence[Card], game: Game, leads: bool) -> bool:
    """Seed 000: against an announced Valat an opponent may Kontra only "mit
    Sküs oder Mond zu neunt (die einzige Farbkarte darf kein König sein,
    außer er spielt aus) oder mit dem XX zu zehnt", in a Solo also "mit den
    zwei höchsten Tarocks XVI und XV zu siebt, XV und XIV zu acht und so
    weiter", in a Faberl "mit drei Königen und dem Mond zu siebt"."""
    tarocks = [c for c in hand if c < 22]
    plain = [c for c in hand if c >= 22]
    n = len(tarocks)
    if (SKUS in hand or MOND in hand) and n >= 9 and (leads or not any(is_king(c) for c in plain)):
        return True
    if tarock(20) in hand and n >= 10:
        return True
    if game.solo and not game.faberl:
        for k in range(4):
            if tarock(16 - k) in hand and tarock(15 - k) in hand and n >= 7 + k:
                return True
    if game.faberl:
        return MOND in hand and n >= 7 and sum(1 for c in plain if is_king(c)) >= 3
    return False


def trump_suit(state: HandState) -> int:
    """The suit that trumps: ``TAROCK``, or the Faberl's chosen suit."""
    contract = state.contract
    if contract is None or contract.trump is None:
        return TAROCK
    return suit_index(contract.trump)


def party_cards(state: HandState) -> tuple[list[Card], list[Card]]:
    """The cards taken by the declarer party and by the opponents."""
    party = state.declarer_party()
    ours: list[Card] = []
    theirs: list[Card] = []
    for trick in state.tricks:
        (ours if trick.winner in party else theirs).extend(trick.cards)
    return ours, theirs


def made_premiums(state: HandState, ours: Sequence[Card], theirs: Sequence[Card],
                  points: tuple[int, int]) -> dict[str, bool | None]:
    """Which party achieved each premium: True declarers, False opponents, None nobody.

    Absolut here is the declarer party's only (RULES.md decision 13); a house
    rule may extend it.
    """
    party = state.declarer_party()
    made: dict[str, bool | None] = dict.fromkeys(
        ("pagat", "trull", "kings", "mondfang", "absolut", "valat"))
    last = state.tricks[-1]
    if PAGAT in last.cards:
        who = last.seats[last.cards.index(PAGAT)]
        if last.winner == who:
            made["pagat"] = who in party
    for name, group in (("trull", TRULL), ("kings", {c for c in DECK40 if is_king(c)})):
        if group <= set(ours):
            made[name] = True
        elif group <= set(theirs):
            made[name] = False
    for trick in state.tricks:
        if MOND in trick.cards and SKUS in trick.cards:
            skus = trick.seats[trick.cards.index(SKUS)] in party
            mond = trick.seats[trick.cards.index(MOND)] in party
            if skus != mond and (trick.winner in party) == skus:
                made["mondfang"] = skus
    if points[0] >= ABSOLUT:
        made["absolut"] = True
    sides = {t.winner in party for t in state.tricks}
    if len(sides) == 1:
        made["valat"] = sides.pop()
    return made


PREMIUMS: Final = (
    # name, silent value, announced value (seed 000, 40 cards)
    ("pagat", 1, 2),
    ("trull", 1, 2),
    ("kings", 1, 1),
    ("mondfang", 1, 1),
    ("absolut", 1, 2),
    ("valat", 6, 12),
)
NOT_IN_FABERL: Final = frozenset({"pagat", "mondfang"})
"""Seed 000: Pagat Ultimo and Mond fangen "(nicht im Faberl)"."""


def premium_list(state: HandState, made: dict[str, bool | None],
                 skip: frozenset[str] = frozenset()) -> list[Premium]:
    """The premiums from what was made and what was announced (with each
    announcement's own Kontra level); doubled in single games."""
    party = state.declarer_party()
    announced = {a.name: a for a in state.announcements}
    scale = 2 if state.contract is not None and state.contract.solo else 1
    out: list[Premium] = []
    for name, silent, loud in PREMIUMS:
        if name in skip:
            continue
        ann = announced.get(name)
        by = None if ann is None else ann.seat in party
        result = premium(name, made[name], by, silent, loud, scale, ann.kontra if ann else 0)
        if result is not None:
            out.append(result)
    return out


def passed_out_result(state: HandState) -> HandResult:
    return HandResult((), (0, 0), 1, None, 0, (), 1, (0,) * state.seats, PASSED_OUT)


class Tarock40:
    """The hook implementations of ``tarock40``."""

    name = "tarock40"

    def __init__(self) -> None:
        self.handlers: dict[str, Phase] = {
            "bidding": OutBidding(),
            "trump": TrumpChoice(),
            "kontra": KontraRound(),
            "play": TrickPlay(),
        }

    @hookimpl
    def tarock_options(self) -> dict[str, Any]:
        return {"kontra": True, "faberl_xx_high": False, "direction": "counterclockwise"}

    @hookimpl
    def tarock_deck(self, options: dict[str, Any]) -> Sequence[Card]:
        return DECK40

    @hookimpl
    def tarock_deal_layout(self, options: dict[str, Any]) -> tuple[int, tuple[int, ...]]:
        return 10, ()

    @hookimpl
    def tarock_redeal_reason(self, hands: Sequence[Sequence[Card]], options: dict[str, Any]) -> str | None:
        return redeal_reason(hands)

    @hookimpl
    def tarock_phases(self, state: HandState) -> Sequence[str]:
        if state.data.get("passed_out"):
            return ("bidding",)
        phases = ["bidding"]
        if state.contract is not None and GAMES[state.contract.name].faberl:
            phases.append("trump")
        if state.options.get("kontra"):
            phases.append("kontra")
        phases.append("play")
        return phases

    @hookimpl
    def tarock_phase(self, name: str) -> Phase | None:
        return self.handlers.get(name)

    @hookimpl
    def tarock_kontra_max_level(self, state: HandState) -> int:
        # Seed 000: "Beim Rufspiel geht es weiter ... Bei Faberl und Solo ist nach dem Rekontra Schluss."
        return 4 if game_of(state).name == RUFSPIEL else 2

    @hookimpl
    def tarock_kontra_reason(self, state: HandState, seat: int) -> Reason | None:
        if state.kontra_level != 0:
            return None
        if seat == state.partner:
            return Reason("partner-cannot-kontra", "the called partner cannot Kontra the declarer")
        valat = any(a.name == VALAT_ANN and a.seat == state.declarer for a in state.announcements)
        if valat:
            return valat_kontra_reason(state, seat, position(state, seat) == 0)
        return None

    @hookimpl
    def tarock_first_leader(self, state: HandState) -> int:
        return state.forehand

    def _strength(self, state: HandState) -> Sequence[int]:
        return _STRENGTH[bool(state.options.get("faberl_xx_high"))]

    @hookimpl
    def tarock_legal_plays(self, state: HandState, seat: int) -> Sequence[Card]:
        trick = state.trick.cards if state.trick else ()
        trump = trump_suit(state)
        if trump == TAROCK:
            return follow_with_overtrump(state.hands[seat], trick)
        return faberl_legal(state.hands[seat], trick, trump, self._strength(state))

    @hookimpl
    def tarock_play_reason(self, state: HandState, seat: int, card: Card) -> Reason | None:
        assert state.trick is not None
        trump = trump_suit(state)
        if trump == TAROCK:
            return follow_reason(state.hands[seat], state.trick.cards, card)
        return faberl_reason(state.hands[seat], state.trick.cards, card, trump, self._strength(state))

    @hookimpl
    def tarock_trick_winner(self, state: HandState, trick: Trick) -> int:
        trump = trump_suit(state)
        if trump == TAROCK:
            return kaiser_winner(trick.cards)
        return faberl_winner(trick.cards, trump, self._strength(state))

    @hookimpl
    def tarock_partner_revealed(self, state: HandState, seat: int, card: Card) -> bool:
        return card == state.called

    @hookimpl
    def tarock_count(self, state: HandState, cards: Sequence[Card]) -> int:
        return count40(cards)

    @hookimpl
    def tarock_premiums(self, state: HandState) -> Sequence[Premium]:
        ours, theirs = party_cards(state)
        points = (count40(ours), count40(theirs))
        made = made_premiums(state, ours, theirs, points)
        return premium_list(state, made, NOT_IN_FABERL if game_of(state).faberl else frozenset())

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> HandResult:
        if state.declarer is None:
            return passed_out_result(state)
        game = game_of(state)
        ours, theirs = party_cards(state)
        points = (rules.count(state, ours), rules.count(state, theirs))
        won = points[0] >= game.goal
        value = game.value if won else -game.value
        premiums = tuple(rules.premiums(state))
        factor = 2 ** state.kontra_level
        amount = (value + sum(p.value for p in premiums)) * factor
        declarers = tuple(sorted(state.declarer_party()))
        return HandResult(declarers, points, 1, won, value, premiums, factor,
                          settle(state.seats, state.players, declarers, amount))


VARIANT = Variant(
    name="tarock40",
    title="40 Blatt (Überbieten)",
    plugins=lambda: [Tarock40()],
    description="40 cards, 10 each, no talon; Rufspiel, Faberl, Solo, absolut games, "
                "announcements, Kontra chain, 10 tricks, 88 points (seed 000).",
    lobby_order=0,  # seed 000: the 40-card game is "in der Lobby vorausgewählt"
)
