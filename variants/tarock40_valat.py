"""``tarock40``'s Valat aus eigener Kraft (docs/rules.md §11.2): the check of
:mod:`core.valat` asked for a Solo or a Faberl, and its refusal.

The auction asks it for every Solo and Faberl a hand could bid (the legal list
offers a Valat with them only where the hand makes it on its own), so the
answer is remembered per hand, place and game, and a Faberl, whose suit is
named after the bid, asks the check only of the suits whose highest trump the
hand holds: without it no deal is played (``STOPPED_TOP_TRUMP``), an answer
below that of any suit the check plays, so the best suit is the same.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from tarock.core.cards import DECK40, TAROCK, Card
from tarock.core.contracts import ContractSpec, TrickRules
from tarock.core.state import ALLOW, HandState, Verdict
from tarock.core.valat import (
    STOPPED_TOP_TRUMP,
    ValatVerdict,
    choose_verdict,
    lost_at_once,
    sampled_verdict,
    valat_verdict,
    valat_verdict_any_suit,
)
from tarock.core.valatbits import Play, compile_play
from tarock.core.valatbound import always_lost
from tarock.variants.tarock40_auction import position

SIZE: Final = len(DECK40) // 4
"""Cards in a hand of the 40-card game, as the check deals them."""
CARDS: Final = frozenset(DECK40)

MEMO_SIZE: Final = 4096

MemoKey = tuple[tuple[Card, ...], int, int, tuple[int, ...], int, str, int]

_MEMO: dict[MemoKey, tuple[TrickRules, Verdict]] = {}
""":func:`own_valat`'s answers by hand, seat, dealer, seats taking part and table size
(which give the place in the first trick), code and the trick rules' identity (the
rules kept to tell a reused id): the auction asks again for every game of the same
trick rules and in every turn, and hashing the rules by value costs more than the answer."""


def own_valat(state: HandState, seat: int, spec: ContractSpec,
              code: str = "valat-not-own-strength") -> Verdict:
    """docs/rules.md §11.2: "Beim Solo und Faberl darf ein Valat nur angesagt werden, wenn
    das Blatt ihn aus eigener Kraft gewinnt."  Rufspiel: no check ("Beim
    Rufspiel gilt die Prüfung nicht").  A Faberl's suit is named after the
    bid, so the best suit counts.  A refusal (``code``) says what the check
    found (:func:`valat_refusal`)."""
    if not spec.single:
        return ALLOW
    tricks = spec.tricks
    hand = tuple(state.hands[seat])
    key = (hand, seat, state.dealer, state.active, state.seats, code, id(tricks))
    known = _MEMO.get(key)
    if known is None or known[0] is not tricks:
        verdict = own_strength(hand, tricks, position(state, seat))
        answer = ALLOW if verdict is not None and verdict.allowed else valat_refusal(code, verdict)
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        known = _MEMO[key] = (tricks, answer)
    return known[1]


_CHECKS: dict[int, tuple[TrickRules, tuple[tuple[Card, Play, int], ...]]] = {}
"""Per trick rules (by identity, the rules kept): :func:`_checks`."""


def _checks(tricks: TrickRules) -> tuple[tuple[Card, Play, int], ...]:
    """Per suit as trump (``TAROCK`` last): the trump that wins every trick it is played to
    (the Sküs where the tarocks trump: no Kaiserstich against open-handed opponents), the
    check's compiled play and the deck's cards as its bits."""
    known = _CHECKS.get(id(tricks))
    if known is None or known[0] is not tricks:
        checks = []
        for suit in range(TAROCK + 1):
            play = compile_play(tricks, suit)
            checks.append((play.card[play.trump_mask.bit_length() - 1], play, play.mask(DECK40)))
        if len(_CHECKS) >= 64:
            _CHECKS.clear()
        known = _CHECKS[id(tricks)] = (tricks, tuple(checks))
    return known[1]


def _verdict(hand: tuple[Card, ...], tricks: TrickRules, suit: int, pos: int,
             check: tuple[Card, Play, int]) -> ValatVerdict:
    """:func:`core.valat.valat_verdict` on a hand of the 40 cards that holds the top trump
    of ``suit``: a hand :func:`core.valatbound.always_lost` settles costs no more."""
    play, cards = check[1], check[2]
    mine = play.mask(hand)
    if always_lost(play, mine, cards ^ mine, pos, SIZE):
        return lost_at_once(suit, pos)
    return sampled_verdict(hand, tricks, suit, pos, DECK40)


def own_strength(hand: tuple[Card, ...], tricks: TrickRules, pos: int) -> ValatVerdict | None:
    """The check's verdict for :func:`own_valat`: in a ``suit`` game (the Faberl) the best
    over the four suits (:func:`core.valat.valat_verdict_any_suit`), asked only of the
    suits whose top trump the hand holds; of a hand holding none, the first suit's (all
    four are the same: no deal played)."""
    if len(hand) != SIZE or tricks.trump not in ("tarock", "suit") or not CARDS.issuperset(hand):
        return _own_strength_asked(hand, tricks, pos)
    checks = _checks(tricks)
    if tricks.trump == "tarock":
        check = checks[TAROCK]
        if check[0] not in hand:  # as core.valat answers it, without a round through it
            return _without_top_trump(TAROCK, pos)
        return _verdict(hand, tricks, TAROCK, pos, check)
    verdicts = [_verdict(hand, tricks, suit, pos, checks[suit]) for suit in range(TAROCK)
                if checks[suit][0] in hand]
    if len(verdicts) == 1:  # the best of one
        return verdicts[0]
    if verdicts:
        return choose_verdict(verdicts, every=False)
    return _without_top_trump(0, pos)


@lru_cache(maxsize=64)
def _without_top_trump(suit: int, pos: int) -> ValatVerdict:
    """The check's verdict on a hand without the top trump of ``suit``: no deal played
    (one value per suit and place: a verdict is slow to build)."""
    return ValatVerdict(False, 0, 0, STOPPED_TOP_TRUMP, suit, pos)


def _own_strength_asked(hand: tuple[Card, ...], tricks: TrickRules, pos: int) -> ValatVerdict | None:
    """:func:`own_strength` as the check answers it, every suit asked."""
    if tricks.trump != "suit":
        return valat_verdict(hand, tricks, TAROCK, pos, DECK40)
    return valat_verdict_any_suit(hand, tricks, pos, DECK40)


def valat_refusal(code: str, verdict: ValatVerdict | None) -> Verdict:
    """The refusal of a Valat the check does not allow, with its figures:
    deals lost and made of deals played (the check stops at the third lost
    deal), the 95 % interval and the bar."""
    if verdict is None:
        return _refusal(code, None, 0, 0)
    return _refusal(code, verdict.stopped, verdict.deals, verdict.made)


@lru_cache(maxsize=1024)
def _refusal(code: str, stopped: str | None, deals: int, made: int) -> Verdict:
    """:func:`valat_refusal` by what its text says (remembered by these plain values: a
    verdict hashes its every field); ``stopped`` None: no check for this game."""
    if stopped is None:
        return Verdict.deny(code, "a Valat in this game needs a hand that makes it on its own, "
                            "and there is no check for this game")
    if stopped == STOPPED_TOP_TRUMP:
        return Verdict.deny(code, "a Valat in this game needs a hand that makes it on its own: "
                            "without the highest trump an opponent takes a trick, so no deal was played")
    figures = ValatVerdict(False, deals, made, stopped, TAROCK, 0).figures()
    return Verdict.deny(code, "a Valat in this game needs a hand that makes it on its own: "
                        "{lost} of the {deals} deals played were lost and {made} made (95% Wilson interval "
                        "of the rate {low}–{high} %); a Valat must be made in {needed} of {sample}"
                        .format(**figures))
