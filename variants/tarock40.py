"""``tarock40``: the 40-card game of docs/rules.md §13 ("Variante 40 Blatt").

40 cards, ten each, no talon; a hand without a tarock other than a lone Trull
card is dealt again.  Bidding by outbidding from the forehand, a pass is
final: Rufspiel < Faberl < Solo < Faberl absolut < Solo absolut = Solo mit
Pagat; a top-level bid ends the bidding, four passes void the deal.  Pagat,
Trull and Valat may be announced with every bid.  The Faberl's declarer then
names the trump suit; then the Kontra round (option ``kontra``) and ten
tricks.  Counting card by card, 88 in all; the declarer needs 45 (56 in the
absolut games).

Decisions where the text is silent (docs/rules.md §13 states them all):
- redeal: a hand needs a tarock, and a hand whose only tarock is one Trull
  card is dealt again; two Trull cards count ("ein einzelnes Trullstück");
- a deal all four pass is dealt again by the same dealer and is not a round
  (decision 11; ``core.table``);
- the called card (Rufspiel) is set, and shown, when the bidding is decided;
  the partnership is public once it is played;
- Faberl: tarocks keep their normal order (decision 4); option
  ``faberl_xx_high`` flips to the literal reading (XX high, Pagat low);
- a Faberl Valat may be announced if the hand makes it on its own with some
  trump suit (``core.valat``); the suit named afterwards is free;
- Mond fangen: the Sküs takes the trick holding the other party's Mond; when
  the Pagat takes the Trull by the Kaiserstich there is no Mondfang (docs/rules.md
  §9.4);
- a Kontra is on the whole game: a ``kontra`` naming an announcement is refused;
- Kontra on an announced Valat (docs/rules.md §13.7, a tournament rule): the exceptions
  for Solo ("XVI und XV zu siebt, XV und XIV zu acht und so weiter") are read
  as holding that pair among at least 7, 8, 9, 10 tarocks; for Faberl "drei
  Könige und der Mond zu siebt" as three Kings and seven tarocks with the Mond;
  these "Ausnahmen" are further ways to Kontra, next to "Sküs oder Mond zu
  neunt" and "XX zu zehnt", which hold in every game;
- one Kontra chain doubles the game with all its premiums (every settlement
  item carries its level); the lone declarer receives or pays each amount to
  each of the three others (decision 1);
- the Pflichtkontra is a Kontra duty (``tarock_kontra_duty``) behind the
  option ``pflichtkontra``, so a table or a one-line plugin can switch it off.

Contracts a house rule adds are played from their data as in ``tarock54``
(points or an exact number of tricks, alone or with a called card, any trump
mode, ouvert); with no talon in the deal, a contract using one is refused
when the rules are built (``VariantFacts.playable``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from tarock.core.auction import AuctionStyle
from tarock.core.cards import DECK40, MOND, PAGAT, SKUS, TRULL, Card, is_king, tarock
from tarock.core.contracts import (
    CallRule,
    ContractSpec,
    Goal,
    Holding,
    Outcome,
    Playable,
    PremiumSpec,
    TrickRules,
    goal_pairs,
)
from tarock.core.facts import VariantFacts
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec
from tarock.core.registry import Variant
from tarock.core.rules import Rules
from tarock.core.settlement import Item, game_item
from tarock.core.state import ALLOW, HandState, Score, Verdict
from tarock.variants.cards40 import VALUE40, count40, redeal_reason
from tarock.variants.common import ContractPhases
from tarock.variants.tarock40_auction import Auction40, position
from tarock.variants.tarock40_valat import own_valat

VERSION: Final = "2.0"

RUFSPIEL: Final = "rufspiel"
FABERL: Final = "faberl"
SOLO: Final = "solo"
FABERL_ABSOLUT: Final = "faberl-absolut"
SOLO_ABSOLUT: Final = "solo-absolut"
SOLO_PAGAT: Final = "solo-pagat"

PAGAT_ANN: Final = "pagat"
TRULL_ANN: Final = "trull"
KINGS: Final = "kings"
KING_CARDS: Final = frozenset(c for c in DECK40 if is_king(c))
MOND_SKUS: Final = frozenset({MOND, SKUS})
MONDFANG: Final = "mondfang"
ABSOLUT_ANN: Final = "absolut"
VALAT_ANN: Final = "valat"

WIN: Final = 45
"""Points the declarer party needs (docs/rules.md §13.5: "braucht die Mehrheit der Augen, also 45")."""
ABSOLUT: Final = 56

CALLABLE: Final = tuple(tarock(n) for n in range(20, 15, -1))
"""XX down to XVI: the cards a Rufspiel may call."""

ALL_PREMIUMS: Final = frozenset({PAGAT_ANN, TRULL_ANN, KINGS, MONDFANG, ABSOLUT_ANN, VALAT_ANN})
NOT_IN_FABERL: Final = frozenset({PAGAT_ANN, MONDFANG})
"""docs/rules.md §13.6: Pagat Ultimo and Mond fangen "(nicht im Faberl)"."""

PREMIUMS: Final = (
    PremiumSpec(PAGAT_ANN, "Pagat Ultimo", 1, 2, description="the Pagat wins the last trick"),
    PremiumSpec(TRULL_ANN, "Trull", 1, 2, material=True,
                description="Pagat, Mond and Sküs in one party's tricks"),
    PremiumSpec(KINGS, "Vier Könige", 1, material=True, description="all four Kings in one party's tricks"),
    PremiumSpec(MONDFANG, "Mond fangen", 1,
                description="the Sküs takes the trick with the other party's Mond"),
    PremiumSpec(ABSOLUT_ANN, "Absolut", 1, 2, material=True,
                description="the declarer party makes 56 points"),
    PremiumSpec(VALAT_ANN, "Valat", 6, 12, description="one party makes all ten tricks"),
)
PLAYABLE: Final = Playable(goals=goal_pairs(("points", "tricks"), ("alone", "called")),
                           trumps=frozenset({"tarock", "colour", "suit"}),
                           calls=frozenset({"bid", "bid-auto", "end", "after"}))
"""What the phases and the scoring play: no talon, so no talon use."""
STYLE: Final = AuctionStyle(opening_pass=True, ends_at_top=True, additions=True)
"""docs/rules.md §13.2: "Reihum, beginnend mit der Vorhand, sagt jeder ein höheres Spiel an
als das bisherige Höchstgebot oder passt. Wer passt, ist draußen." A top bid ends it."""


def contracts(kontra: bool, xx_high: bool) -> list[ContractSpec]:
    """The ladder of the 40-card game (docs/rules.md §13.2)."""
    tarock_play = TrickRules(overtrump=True, trull_trick=True)
    faberl_play = TrickRules("suit", overtrump=True, xx_high=xx_high)
    faberl_premiums = ALL_PREMIUMS - NOT_IN_FABERL
    solo_kontra = 2 if kontra else 0  # "Bei Faberl und Solo ist nach dem Rekontra Schluss."

    def single(name: str, title: str, rank: int, faberl: bool, goal: int = WIN,
               announces: tuple[str, ...] = (), requires: tuple[Holding, ...] = (),
               description: str = "") -> ContractSpec:
        return ContractSpec(
            name, title, rank=rank, value=4, description=description, partnership="alone",
            requires=requires, tricks=faberl_play if faberl else tarock_play, goal=Goal("points", goal),
            kontra=solo_kontra, premiums=faberl_premiums if faberl else ALL_PREMIUMS, premium_scale=2,
            announces=announces)

    return [
        ContractSpec(RUFSPIEL, "Rufspiel", rank=1, value=1,
                     description="call the highest of XX..XVI you do not hold; its holder is your partner",
                     partnership="called", call=CallRule(CALLABLE, highest=True, when="end"),
                     tricks=tarock_play, goal=Goal("points", WIN), kontra=4 if kontra else 0,
                     premiums=ALL_PREMIUMS),
        single(FABERL, "Faberl", 2, True,
               description="alone; you name a trump suit, the tarocks are a plain suit"),
        single(SOLO, "Solo", 3, False, description="alone against the three others"),
        single(FABERL_ABSOLUT, "Faberl absolut", 4, True, ABSOLUT, (ABSOLUT_ANN,),
               description="a Faberl in which you need 56 points"),
        single(SOLO_ABSOLUT, "Solo absolut", 5, False, ABSOLUT, (ABSOLUT_ANN,),
               description="a Solo in which you need 56 points"),
        single(SOLO_PAGAT, "Solo mit Pagat", 5, False, announces=(PAGAT_ANN,),
               requires=(Holding(frozenset({PAGAT}), 1, description="the Pagat in your hand",
                                 code="pagat-not-held"),),
               description="a Solo with the Pagat Ultimo announced"),
    ]


def kontra_duty(state: HandState, seat: int) -> bool:
    """Pflichtkontra (docs/rules.md §8.3): an opponent of a Rufspiel holding Pagat, Mond
    and Sküs must say Kontra "solange der Rufer nichts zusätzlich angesagt hat".

    Only announcements for the declarer's party count (the opponents' own, in
    house rules that have them, do not lift the duty)."""
    return (state.kontra_level == 0 and state.contract is not None
            and state.contract.spec.partnership == "called"
            and not any(not a.against for a in state.announcements)
            and seat not in state.declarer_party() and set(state.hands[seat]) >= TRULL)


def may_kontra_valat(hand: Sequence[Card], spec: ContractSpec, leads: bool) -> bool:
    """docs/rules.md §13.7: against an announced Valat an opponent may Kontra only "mit
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
    faberl = spec.tricks.trump == "suit"
    if spec.single and not faberl:
        for k in range(4):
            if tarock(16 - k) in hand and tarock(15 - k) in hand and n >= 7 + k:
                return True
    if faberl:
        return MOND in hand and n >= 7 and sum(1 for c in plain if is_king(c)) >= 3
    return False


def valat_kontra_verdict(state: HandState, seat: int) -> Verdict | None:
    """docs/rules.md §13.7, "Kontra auf einen Valat": ``seat`` may be the first to Kontra
    the declarer party's announced Valat only with a very strong hand."""
    assert state.contract is not None
    if may_kontra_valat(state.hands[seat], state.contract.spec, position(state, seat) == 0):
        return None
    return Verdict.deny("valat-kontra-needs-strength",
                        "against an announced Valat only a very strong hand may say Kontra")


def announce_rule(name: str, contract: ContractSpec) -> tuple[bool, Verdict | None]:
    """``tarock40``'s verdict on announcing ``name`` with a bid of ``contract`` where the
    hand does not matter: (True, the verdict); (False, None) where the hand decides
    (:func:`announce_by_hand`).  The auction asks it once per game (:mod:`variants.tarock40_auction`)."""
    if name == ABSOLUT_ANN:
        return True, Verdict.deny("absolut-is-a-game", "Absolut is announced by bidding faberl-absolut or "
                                  "solo-absolut (docs/rules.md §13.6)")
    if name == PAGAT_ANN and contract.name != RUFSPIEL:
        return True, Verdict.deny("pagat-only-rufspiel", "Pagat may be announced only with a Rufspiel; "
                                  "a Solo with the Pagat is the game solo-pagat")
    if name == PAGAT_ANN or (name == VALAT_ANN and contract.single):
        return False, None
    return True, ALLOW if name in (TRULL_ANN, VALAT_ANN) else None


def announce_by_hand(state: HandState, seat: int, name: str, contract: ContractSpec) -> Verdict:
    """The verdict :func:`announce_rule` leaves to the hand: a Pagat needs the Pagat held
    (in a Rufspiel), a Valat with a Solo or a Faberl the hand that makes it on its own
    (docs/rules.md §11.2)."""
    if name == PAGAT_ANN:
        return ALLOW if PAGAT in state.hands[seat] else Verdict.deny(
            "pagat-not-held", "you need the Pagat to announce it")
    return own_valat(state, seat, contract)


def announce_by_hand_key(name: str, contract: ContractSpec) -> tuple[str, bool, int]:
    """What :func:`announce_by_hand` reads of ``name`` and ``contract`` (the state and seat the
    same): the Pagat held depends on no game, the Valat's check on the game only by whether
    it is played alone and by its trick rules (by identity: the games of a table share them)."""
    if name == PAGAT_ANN:
        return name, False, 0
    return name, contract.single, id(contract.tricks)


def party_cards(state: HandState) -> tuple[list[Card], list[Card]]:
    """The cards taken by the declarer party and by the opponents."""
    party = state.declarer_party()
    ours: list[Card] = []
    theirs: list[Card] = []
    for trick in state.tricks:
        (ours if trick.winner in party else theirs).extend(trick.cards)
    return ours, theirs


def outcomes(state: HandState) -> dict[str, Outcome]:
    """Which party achieved each premium (docs/rules.md §13.6).

    Absolut here is the declarer party's only (docs/rules.md §13.6); a house
    rule may extend it.  Mond fangen: the Sküs takes the trick holding the
    other party's Mond (not the Pagat's Kaiserstich: docs/rules.md §9.4).
    """
    party = state.declarer_party()
    ours, theirs = party_cards(state)
    made: dict[str, Outcome] = {}
    last = state.tricks[-1]
    if PAGAT in last.cards:
        who = last.seats[last.cards.index(PAGAT)]
        if last.winner == who:
            made[PAGAT_ANN] = Outcome(who in party)
    taken = (frozenset(ours), frozenset(theirs))  # each party's cards as a set, built once
    for name, group in ((TRULL_ANN, TRULL), (KINGS, KING_CARDS)):
        if group <= taken[0]:
            made[name] = Outcome(True)
        elif group <= taken[1]:
            made[name] = Outcome(False)
    if taken[0] >= MOND_SKUS or taken[1] >= MOND_SKUS:  # else no trick holds both
        for trick in state.tricks:
            if MOND in trick.cards and SKUS in trick.cards:
                skus = trick.seats[trick.cards.index(SKUS)]
                mond = trick.seats[trick.cards.index(MOND)]
                if trick.winner == skus and (skus in party) != (mond in party):
                    made[MONDFANG] = Outcome(skus in party)
    if count40(ours) >= ABSOLUT:
        made[ABSOLUT_ANN] = Outcome(True)
    if not ours or not theirs:  # one party took every trick
        made[VALAT_ANN] = Outcome(bool(ours))
    return made


def tricks_of(state: HandState) -> int:
    """The tricks the declarer party took."""
    party = state.declarer_party()
    return sum(1 for trick in state.tricks if trick.winner in party)


def passed_out_score() -> Score:
    return Score((), (0, 0), 1, None, passed_out=True, note="passed out")


def game_score(state: HandState, rules: Rules, premiums: Sequence[Item]) -> Score:
    """The game's item at its Kontra level and the premiums, the declaring party's points
    and whether it won (docs/rules.md §13.5, §13.8); a game is declared."""
    assert state.declarer is not None and state.contract is not None
    spec = state.contract.spec
    party = state.declarer_party()
    ours: list[Card] = []
    theirs: list[Card] = []
    tricks = 0
    for trick in state.tricks:  # party_cards() and tricks_of() in one pass
        if trick.winner in party:
            ours.extend(trick.cards)
            tricks += 1
        else:
            theirs.extend(trick.cards)
    points = (rules.count(state, ours), rules.count(state, theirs))
    won = spec.goal.won(points[0], tricks)
    declarers = tuple(sorted(party))
    opponents = tuple(s for s in state.players if s not in declarers)
    items = [game_item(declarers, opponents, spec, won, state.kontra_level), *premiums]
    return Score(declarers, points, 1, won, tuple(items))


class Tarock40(ContractPhases):
    """The hook implementations of ``tarock40``."""

    name = "tarock40"
    version = VERSION

    def __init__(self) -> None:
        super().__init__(Auction40(STYLE, Tarock40.tarock_announce_verdict, announce_rule, announce_by_hand,
                                   announce_by_hand_key))

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return [
            OptionSpec("kontra", True, "the Kontra round: Kontra, Rekontra (Rufspiel up to Re-Sub)"),
            OptionSpec("faberl_xx_high", False, "Faberl: the XX is the tarocks' highest card, the Pagat "
                       "their lowest (the source read literally; docs/rules.md §4.5)"),
            OptionSpec("pflichtkontra", True, "an opponent of a Rufspiel without announcements who holds "
                       "Pagat, Mond and Sküs must say Kontra (a tournament rule, docs/rules.md §8.3)"),
        ]

    @hookimpl
    def tarock_deck(self, options: Mapping[str, Any]) -> Sequence[Card]:
        return DECK40

    @hookimpl
    def tarock_deal_layout(self, options: Mapping[str, Any]) -> tuple[int, tuple[int, ...]]:
        return 10, ()

    @hookimpl
    def tarock_redeal_reason(self, hands: Sequence[Sequence[Card]], options: Mapping[str, Any]) -> str | None:
        return redeal_reason(hands)

    @hookimpl
    def tarock_contracts(self, options: Mapping[str, Any]) -> Sequence[ContractSpec]:
        return contracts(bool(options["kontra"]), bool(options["faberl_xx_high"]))

    @hookimpl
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Sequence[PremiumSpec]:
        return PREMIUMS

    @hookimpl
    def tarock_variant_facts(self, options: Mapping[str, Any]) -> VariantFacts:
        return VariantFacts(unit=1, card_values=VALUE40, playable=PLAYABLE)

    @hookimpl
    def tarock_announce_verdict(self, state: HandState, seat: int, name: str,
                                contract: ContractSpec) -> Verdict | None:
        known, verdict = announce_rule(name, contract)
        return verdict if known else announce_by_hand(state, seat, name, contract)

    @hookimpl
    def tarock_kontra_verdict(self, state: HandState, seat: int) -> Verdict | None:
        if state.kontra_level != 0:
            return None
        if seat == state.partner:
            return Verdict.deny("partner-cannot-kontra", "the called partner cannot Kontra the declarer")
        if any(a.name == VALAT_ANN and a.seat == state.declarer for a in state.announcements):
            return valat_kontra_verdict(state, seat)
        return None

    @hookimpl
    def tarock_kontra_duty(self, state: HandState, seat: int) -> bool | None:
        return bool(state.options["pflichtkontra"]) and kontra_duty(state, seat)

    @hookimpl
    def tarock_count(self, state: HandState, cards: Sequence[Card]) -> int:
        return count40(cards)

    @hookimpl
    def tarock_premium_outcomes(self, state: HandState) -> Mapping[str, Outcome]:
        return outcomes(state)

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> Score:
        if state.declarer is None or state.contract is None:
            return passed_out_score()
        return game_score(state, rules, rules.premium_items(state))


VARIANT = Variant(
    name="tarock40",
    title="40 Blatt (Überbieten)",
    plugins=lambda: [Tarock40()],
    description="40 cards, 10 each, no talon; Rufspiel, Faberl, Solo, absolut games, "
                "announcements, Kontra chain, 10 tricks, 88 points (docs/rules.md §13).",
    lobby_order=0,  # docs/rules.md §3.6: the 40-card game is "in der Lobby vorausgewählt"
)
