"""Barnett–Smart mental poker with ElGamal over a prime-order group (:class:`net.group.Group`): the algorithm.

Every seat ``i`` holds a per-hand secret ``x_i`` and publishes ``y_i = x_i·G``;
the joint key is ``Y = y_0 + ... + y_(n-1)``.  A card ``c`` is the point
``M_c`` (:func:`card_point`); the open deck is ``(identity, M_c)`` for every
card in the variant's deck order.  Each seat in turn re-masks every
ciphertext ``(C1, C2)`` to ``(C1 + r·G, C2 + r·Y)`` and permutes the deck
(:func:`shuffle`), both drawn from a secret 32-byte seed it commits to
(:func:`shuffle_commitment`) and opens at the hand's end.  The card at a
position is ``M = C2 - (t_0 + ... + t_(n-1))`` with the reveal tokens
``t_i = x_i·C1``: whoever holds every other seat's token and its own secret
reads the card, nobody else does.  A redeal needs a fresh shuffle (the caller
starts a new dealing round).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from tarock.core.cards import Card, format_card
from tarock.net import sha_stream
from tarock.net.group import Group, GroupError

Cipher = tuple[bytes, bytes]
"""``(C1, C2)``: two points."""
Deck = tuple[Cipher, ...]

CARD_TAG = b"tarock-card/1"
SHUFFLE_TAG = b"tarock-shuffle/1"
COMMIT_TAG = b"tarock-shuffle-commit/1"
MASK_TAG = b"tarock-mask/1"


def card_point(grp: Group, card: Card) -> bytes:
    """``M_c``: the group's hash to a point of ``"tarock-card/1"`` and the card's name (length-prefixed)."""
    return grp.hash_point(CARD_TAG, format_card(card).encode())


_CARD_POINTS: dict[str, tuple[dict[Card, bytes], dict[bytes, Card]]] = {}


def card_points(grp: Group) -> tuple[dict[Card, bytes], dict[bytes, Card]]:
    """Every card's point in ``grp``, and the card of each point (made once per group)."""
    known = _CARD_POINTS.get(grp.name)
    if known is None:
        points = {c: card_point(grp, c) for c in range(54)}
        by_point = {p: c for c, p in points.items()}
        assert len(by_point) == 54 and grp.identity not in by_point
        known = _CARD_POINTS[grp.name] = (points, by_point)
    return known


def open_deck(grp: Group, deck: Sequence[Card]) -> Deck:
    """The deck face up: ``(identity, M_c)`` per card, in the variant's deck order."""
    points = card_points(grp)[0]
    return tuple((grp.identity, points[c]) for c in deck)


def joint_key(grp: Group, keys: Sequence[bytes]) -> bytes:
    """``Y``: the sum of every seat's per-hand key."""
    total = keys[0]
    for y in keys[1:]:
        total = grp.add(total, y)
    return total


# -- the shuffle -------------------------------------------------------------------------

def _lp(*parts: bytes) -> bytes:
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


def shuffle_key(hand: bytes, seat: int, seed: bytes) -> bytes:
    """SHA-256 of ``"tarock-shuffle/1"``, the hand id, the seat and the seed (length-prefixed)."""
    return hashlib.sha256(_lp(SHUFFLE_TAG, hand, str(seat).encode(), seed)).digest()


def shuffle_commitment(hand: bytes, seat: int, seed: bytes) -> str:
    """What a shuffler publishes with its deck: SHA-256 of ``"tarock-shuffle-commit/1"``,
    the hand id, the seat and the seed (length-prefixed), lowercase hex."""
    return hashlib.sha256(_lp(COMMIT_TAG, hand, str(seat).encode(), seed)).hexdigest()


def permutation(key: bytes, n: int) -> list[int]:
    """``perm``: output position ``k`` takes input position ``perm[k]``: ``[0, 1, ..., n-1]``
    shuffled by the stream keyed by ``key`` (Fisher–Yates from the end, as commit-reveal's
    deal: :func:`net.sha_stream.shuffle`)."""
    return sha_stream.shuffle(range(n), sha_stream.Stream(key))


def mask(grp: Group, key: bytes, k: int) -> bytes:
    """``r_k``: SHA-512 of ``"tarock-mask/1"``, the shuffle key and ``k`` (2 bytes big-endian),
    reduced modulo the group's order."""
    return grp.reduce64(hashlib.sha512(MASK_TAG + key + k.to_bytes(2, "big")).digest())


def shuffle(grp: Group, deck: Deck, key: bytes, joint: bytes) -> Deck:
    """Permute and re-mask ``deck`` as the seed's shuffle ``key`` says."""
    perm = permutation(key, len(deck))
    out: list[Cipher] = []
    for k, source in enumerate(perm):
        c1, c2 = deck[source]
        r = mask(grp, key, k)
        out.append((grp.add(c1, grp.base(r)), grp.add(c2, grp.mul(r, joint))))
    return tuple(out)


def arrangement(cards: Sequence[Card], perms: Sequence[Sequence[int]]) -> list[Card]:
    """The cards at the final positions: the open deck permuted by each shuffle in turn."""
    order = list(cards)
    for perm in perms:
        order = [order[i] for i in perm]
    return order


# -- reading cards -----------------------------------------------------------------------

def token(grp: Group, x: bytes, cipher: Cipher) -> bytes:
    """``x·C1``: a seat's share of opening the card at one position."""
    return grp.mul(x, cipher[0])


def unmask(grp: Group, cipher: Cipher, tokens: Sequence[bytes]) -> Card | None:
    """The card ``C2 - sum(tokens)`` is, or None when it is no card (a bad deck)."""
    m = cipher[1]
    try:
        for t in tokens:
            m = grp.sub(m, t)
    except GroupError:
        return None
    return card_points(grp)[1].get(m)
