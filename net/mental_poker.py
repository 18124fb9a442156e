"""``mental-poker/2`` and ``mental-poker/1``: Barnett–Smart dealing (docs/protocol.md,
"Dealing: mental-poker"), in secp256k1 (``/2``, the default, :mod:`net.secp256k1`) or
in edwards25519 (``/1``, :mod:`net.group`); the exchange is the same.

The exchange, as ``dealing`` entries of the hand's log:

1. every seat: ``key`` -- its per-hand key ``y = x·G`` with a Schnorr proof;
2. seat 0, 1, ... in turn, each once the keys and the previous deck are in:
   ``shuffle`` -- the deck permuted and re-masked from a secret seed, and the
   seed's commitment;
3. from then on shares are ``tokens``: ``(position, x·C1, proof)``, each with a
   Chaum–Pedersen proof that it uses the seat's key;
4. at the hand's end every seat opens ``x`` and its seed; every node checks the
   keys, the commitments, that the cards read during the hand are the cards
   the seeds put there, and every token, and names who cheated.

A seat's shares are public: a position is read by the seat that holds every
other seat's token and its own secret, so a position shown to one seat gets
the other seats' tokens, one shown to all gets all of them.  Every point
received is validated before it is used (the group's ``point``).  The host and watchers
follow with ``checks=False``: they check who may send what, not the proofs
(a seat that finds a bad proof says so, and the audit names its author).
A seat validates a token through its proof's check (the group's scalar
multiplication refuses the same points), and of the shuffled decks the one
it shuffles next and the final one (an earlier deck is used only in the
audit, which compares it byte for byte with the shuffle its seed makes).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tarock.core.cards import Card, format_card
from tarock.net import barnett_smart as bs
from tarock.net import dealing
from tarock.net.dealing import (
    MENTAL_POKER,
    MENTAL_POKER_ED25519,
    DealingFault,
    Outgoing,
    PayloadError,
)
from tarock.net.group import ED25519, Group, GroupError
from tarock.net.proofs import check_key, check_token, prove_key, prove_token
from tarock.net.protocol.messages import message
from tarock.net.scheme_codec import SchemeCodec, check_deal
from tarock.net.secp256k1 import SECP256K1

GROUPS: dict[str, Group] = {MENTAL_POKER: SECP256K1, MENTAL_POKER_ED25519: ED25519}
"""Each mental-poker scheme's group: ``mental-poker/2`` (the default) secp256k1, ``/1`` edwards25519."""


# -- payloads ----------------------------------------------------------------------------

@message("key")
class Key:
    """A seat's per-hand key and the proof that it knows its secret."""

    y: str
    c: str
    z: str


@message("shuffle")
class Shuffle:
    """The deck after this seat's shuffle (``C1, C2`` of every position in turn) and the
    commitment to the seed it was made from."""

    deck: tuple[str, ...]
    commit: str


@message("tokens")
class Tokens:
    """Shares: ``[position, token, c, z]`` for each position, in increasing position order."""

    tokens: tuple[tuple[int, str, str, str], ...]


@message("open")
class Open:
    """At the hand's end: the seat's per-hand secret and its shuffle seed."""

    secret: str
    seed: str


@dataclass(frozen=True, slots=True)
class MentalOpening:
    """The record's opening: every key, secret, shuffle commitment and seed, in seat order."""

    scheme: str
    attempt: int
    keys: tuple[str, ...]
    secrets: tuple[str, ...]
    commits: tuple[str, ...]
    seeds: tuple[str, ...]


PAYLOADS: tuple[type[Any], ...] = (Key, Shuffle, Tokens, Open)
WIRE = SchemeCodec(PAYLOADS, MentalOpening)
"""The payloads and the opening of the mental-poker schemes on the wire."""


def _hex(b: bytes) -> str:
    return b.hex()


def _seed(text: str, what: str) -> bytes:
    if len(text) != 64 or any(ch not in "0123456789abcdef" for ch in text):
        raise PayloadError(f"{what} must be 64 lowercase hex digits")
    return bytes.fromhex(text)


# -- the dealer ----------------------------------------------------------------------------

def _key_point(grp: Group, msg: Key, author: int, ctx: bytes | None) -> bytes:
    """The point of seat ``author``'s key ``msg``, its proof checked against ``ctx`` (None: not
    checked); DealingFault if it is no point or the proof fails."""
    try:
        y = grp.point(msg.y, "key")
        proof = (grp.scalar(msg.c, "c"), grp.scalar(msg.z, "z"))
    except GroupError as exc:
        raise DealingFault(f"seat {author}'s key: {exc}", author) from None
    if ctx is not None and not check_key(grp, ctx, y, proof):
        raise DealingFault(f"seat {author}'s proof of its key does not hold", author)
    return y


def _deck_points(grp: Group, msg: Shuffle, author: int,
                 check: Literal["point", "encoding", "bytes"]) -> list[bytes]:
    """The points of seat ``author``'s shuffled deck, each checked to be a point of the group
    (``point``), a canonical encoding (``encoding``) or only of the right size (``bytes``)."""
    try:
        if check == "point":
            points = [grp.point(p, "deck") for p in msg.deck]
        elif check == "encoding":
            points = [grp.encoding(p, "deck") for p in msg.deck]
        else:
            points = [bytes.fromhex(p) for p in msg.deck]
    except (GroupError, ValueError) as exc:
        raise DealingFault(f"seat {author}'s deck: {exc}", author) from None
    if any(len(p) != grp.point_bytes for p in points):
        raise DealingFault(f"seat {author}'s deck holds a point of the wrong size", author)
    return points


class MentalDealer:
    """One node's part of one mental-poker deal."""

    public_shares = True
    """Every share is in the log (the table checks who withheld one)."""

    def __init__(self, ctx: dealing.DealContext, layout: dealing.Layout, seat: int | None,
                 secret: Mapping[str, Any] | None, rand: dealing.RandomBytes, checks: bool,
                 scheme: str = MENTAL_POKER) -> None:
        self.scheme = scheme
        self.grp = GROUPS[scheme]
        self.ctx = ctx
        self.layout = layout
        self.seat = seat
        self.rand = rand
        self.checks = checks
        self.n = ctx.seats
        self.size = len(layout.deck)
        self.hand = ctx.hand_id.encode()
        self.x: bytes | None = None
        self.seed: bytes | None = None
        if seat is not None:
            if secret is not None and secret.get("x"):
                self.x = self.grp.scalar(secret["x"])
                self.seed = _seed(str(secret["seed"]), "seed")
            else:
                self.x = self.grp.random_scalar(rand)
                self.seed = rand(32)
        self.keys: dict[int, bytes] = {}
        self.decks: list[bs.Deck] = []
        self.commits: list[str] = []
        self.tokens: dict[int, dict[int, bytes]] = {p: {} for p in range(self.size)}
        self.cards: dict[int, Card] = {}
        self.opened: dict[int, tuple[bytes, bytes]] = {}
        self._given: set[int] = set()

    # -- helpers ----------------------------------------------------------------------
    def _ctx(self, seat: int, position: int | None = None) -> bytes:
        where = b"" if position is None else b":" + str(position).encode()
        return self.hand + b":" + str(seat).encode() + where

    @property
    def joint(self) -> bytes:
        return bs.joint_key(self.grp, [self.keys[s] for s in range(self.n)])

    def _joint_valid(self, keys: Mapping[int, bytes]) -> bool:
        try:
            joint = bs.joint_key(self.grp, [keys[s] for s in range(self.n)])
        except GroupError:
            return False
        return self.grp.valid(joint)

    def copy(self) -> MentalDealer:
        """A copy whose state no later message changes (its points and keys are bytes)."""
        out = copy.copy(self)
        out.keys = dict(self.keys)
        out.decks = list(self.decks)
        out.commits = list(self.commits)
        out.tokens = dict(self.tokens)  # a position's tokens are replaced, never changed in place
        out.cards = dict(self.cards)
        out.opened = dict(self.opened)
        out._given = set(self._given)
        return out

    @property
    def deck(self) -> bs.Deck:
        return self.decks[-1]

    @property
    def fixed(self) -> bool:
        return len(self.decks) == self.n

    def contributors(self) -> tuple[int, ...]:
        return tuple(range(self.n))

    def resend(self, seat: int) -> list[Outgoing]:
        return []  # nothing is private: the log holds every share

    def openers(self) -> tuple[int, ...]:
        return tuple(range(self.n))

    def waiting(self) -> tuple[int, ...]:
        if len(self.keys) < self.n:
            return tuple(s for s in range(self.n) if s not in self.keys)
        if len(self.decks) < self.n:
            return (len(self.decks),)
        return ()

    def secret(self) -> dealing.Payload:
        if self.x is None or self.seed is None:
            return {}
        return {"x": _hex(self.x), "seed": _hex(self.seed)}

    # -- the deal ---------------------------------------------------------------------
    def start(self) -> list[Outgoing]:
        if self.seat is None or self.x is None:
            return []
        y = self.grp.base(self.x)
        c, z = prove_key(self.grp, self._ctx(self.seat), self.x, y, self.rand)
        return [Outgoing(None, WIRE.dump(Key(_hex(y), _hex(c), _hex(z))))]

    def _my_shuffle(self) -> list[Outgoing]:
        if self.seat is None or self.seed is None or len(self.decks) != self.seat or len(self.keys) < self.n:
            return []
        source = self.decks[-1] if self.decks else bs.open_deck(self.grp, self.layout.deck)
        deck = bs.shuffle(self.grp, source, bs.shuffle_key(self.hand, self.seat, self.seed), self.joint)
        commit = bs.shuffle_commitment(self.hand, self.seat, self.seed)
        flat = tuple(_hex(p) for cipher in deck for p in cipher)
        return [Outgoing(None, WIRE.dump(Shuffle(flat, commit)))]

    def entry(self, author: int, payload: object) -> list[Outgoing]:
        msg = WIRE.parse(payload, (Key, Shuffle))
        if not 0 <= author < self.n:
            raise PayloadError("only a seat takes part in mental-poker dealing")
        if isinstance(msg, Key):
            if author in self.keys:
                raise DealingFault(f"seat {author} sent a second key", author)
            y = _key_point(self.grp, msg, author, self._ctx(author) if self.checks else None)
            if author == self.seat and self.x is not None and self.grp.base(self.x) != y:
                raise DealingFault("the log holds a key of this seat that is not its own", author)
            keys = {**self.keys, author: y}
            if len(keys) == self.n and not self._joint_valid(keys):
                # Only seats that all know their secrets together can make this happen.
                raise DealingFault(f"seat {author}'s key makes the joint key the neutral element", author)
            self.keys[author] = y
            return self._my_shuffle()
        assert isinstance(msg, Shuffle)
        if len(self.keys) < self.n:
            raise DealingFault(f"seat {author} shuffled before every key was out", author)
        if author != len(self.decks):
            raise DealingFault(f"seat {author} shuffled out of turn", author)
        if len(msg.deck) != 2 * self.size:
            raise DealingFault(f"seat {author}'s deck has {len(msg.deck) // 2} cards, not {self.size}",
                               author)
        if len(msg.commit) != 64 or any(ch not in "0123456789abcdef" for ch in msg.commit):
            raise DealingFault(f"seat {author}'s commitment is not 64 hex digits", author)
        # A seat validates the decks it computes with: the one it shuffles next and the
        # final one; an earlier deck is only compared, byte for byte, with the shuffle its
        # seed makes (the audit), and its next shuffler validates it.
        used = author == self.n - 1 or (self.seat is not None and author == self.seat - 1)
        points = _deck_points(self.grp, msg, author, "point" if self.checks and used else
                              "encoding" if self.checks else "bytes")
        self.decks.append(tuple((points[2 * k], points[2 * k + 1]) for k in range(self.size)))
        self.commits.append(msg.commit)
        return self._my_shuffle()

    # -- shares -----------------------------------------------------------------------
    def known(self) -> Mapping[int, Card]:
        return self.cards

    def shared(self, position: int) -> set[int]:
        return set(self.tokens[position])

    def shares(self, visible: Mapping[int, Iterable[int]]) -> list[Outgoing]:
        if self.seat is None or self.x is None or not self.fixed:
            return []
        wanted = sorted({p for s, ps in visible.items() if s != self.seat for p in ps} - self._given)
        if not wanted:
            return []
        y = self.keys[self.seat]
        out: list[tuple[int, str, str, str]] = []
        for p in wanted:
            cipher = self.deck[p]
            t = bs.token(self.grp, self.x, cipher)
            c, z = prove_token(self.grp, self._ctx(self.seat, p), self.x, y, cipher[0], t, self.rand)
            out.append((p, _hex(t), _hex(c), _hex(z)))
            self._given.add(p)
        return [Outgoing(None, WIRE.dump(Tokens(tuple(out))))]

    def take(self, author: int, payload: object, public: bool = True) -> tuple[dict[int, Card], set[int]]:
        # A refused message leaves nothing behind, not even the shares before the bad one.
        saved = (dict(self.tokens), dict(self.cards), set(self._given))
        try:
            return self._take(author, payload)
        except (PayloadError, DealingFault):
            self.tokens, self.cards, self._given = saved
            raise

    def _take(self, author: int, payload: object) -> tuple[dict[int, Card], set[int]]:
        msg = WIRE.parse(payload, (Tokens,))
        if not 0 <= author < self.n or not self.fixed:
            raise PayloadError("tokens from no seat, or before the deck is final")
        covered: set[int] = set()
        last = -1
        for p, t_hex, c_hex, z_hex in msg.tokens:
            if not last < p < self.size:
                raise DealingFault(f"seat {author}'s tokens are not in increasing position order", author)
            last = p
            if author in self.tokens[p]:
                raise DealingFault(f"seat {author} sent its token for position {p} twice", author)
            try:
                # Checked, the token is validated by the proof's check: the group's scalar
                # multiplication c·t refuses every point its ``point`` refuses.
                t = self.grp.encoding(t_hex, "token") if self.checks else bytes.fromhex(t_hex)
                proof = (self.grp.scalar(c_hex, "c"), self.grp.scalar(z_hex, "z"))
            except (GroupError, ValueError) as exc:
                raise DealingFault(f"seat {author}'s token for position {p}: {exc}", author) from None
            if self.checks and not check_token(self.grp, self._ctx(author, p), self.keys[author],
                                               self.deck[p][0], t, proof):
                if not self.grp.valid(t):
                    raise DealingFault(f"seat {author}'s token for position {p}: token is not a point of the "
                                       "prime-order group", author)
                raise DealingFault(f"seat {author}'s token for position {p} fails its proof", author)
            self.tokens[p] = {**self.tokens[p], author: t}
            covered.add(p)
            if author == self.seat:
                self._given.add(p)
        learned: dict[int, Card] = {}
        for p in sorted(covered):
            card = self._read(p)
            if card is not None:
                learned[p] = card
        return learned, covered

    def _read(self, p: int) -> Card | None:
        """The card at ``p`` if this node can read it now and has not yet."""
        if p in self.cards:
            return None
        have = self.tokens[p]
        others = [s for s in range(self.n) if s != self.seat]
        if any(s not in have for s in others):
            return None
        if self.seat is not None and self.seat not in have:
            if self.x is None:
                return None
            tokens = [have[s] for s in others] + [bs.token(self.grp, self.x, self.deck[p])]
        else:
            tokens = [have[s] for s in range(self.n)]
        card = bs.unmask(self.grp, self.deck[p], tokens)
        if card is None or card in self.cards.values():
            if not self.checks:
                return None  # unchecked tokens: the seats find the culprit
            what = f"position {p} does not open to a card" if card is None else \
                f"{format_card(card)} opens at two positions"
            raise DealingFault(f"{what}: a deck is bad", None)
        self.cards[p] = card
        return card

    # -- the hand's end -----------------------------------------------------------------
    def opening(self) -> dealing.Payload | None:
        if self.seat is None or self.x is None or self.seed is None:
            return None
        return WIRE.dump(Open(_hex(self.x), _hex(self.seed)))

    def open(self, author: int, payload: object) -> None:
        msg = WIRE.parse(payload, (Open,))
        if not 0 <= author < self.n or author in self.opened:
            raise PayloadError("an opening from no seat, or a second one")
        try:
            x = self.grp.scalar(msg.secret, "secret")
        except GroupError as exc:
            raise DealingFault(f"seat {author}'s opening: {exc}", author) from None
        if not any(x):
            raise DealingFault(f"seat {author}'s opening: the secret is zero, the secret of no key", author)
        seed = _seed(msg.seed, "seed")
        self.opened[author] = (x, seed)

    def audit(self) -> list[Card]:
        """Keys, commitments, the arrangement, every card read and every token."""
        if len(self.opened) < self.n or not self.fixed:
            missing = [s for s in range(self.n) if s not in self.opened]
            who = missing[0] if missing else None
            raise DealingFault(f"seat {who} did not open", who)
        for s in range(self.n):
            x, seed = self.opened[s]
            if self.grp.base(x) != self.keys[s]:
                raise DealingFault(f"seat {s} opened a secret that is not its key's", s)
            if bs.shuffle_commitment(self.hand, s, seed) != self.commits[s]:
                raise DealingFault(f"seat {s} opened a seed that is not the one it committed to", s)
        perms = [bs.permutation(bs.shuffle_key(self.hand, s, self.opened[s][1]), self.size)
                 for s in range(self.n)]
        want = bs.arrangement(self.layout.deck, perms)
        xs = [self.opened[s][0] for s in range(self.n)]
        secret = xs[0]
        for x in xs[1:]:
            secret = self.grp.s_add(secret, x)
        for p in range(self.size):
            cipher = self.deck[p]
            card = self.cards.get(p)
            if card is None:
                card = bs.unmask(self.grp, cipher, [bs.token(self.grp, secret, cipher)])
            if card != want[p]:
                seeds = [self.opened[s][1] for s in range(self.n)]
                why, who = culprit(self.grp, self.hand, self.layout.deck, self.joint, self.decks, self.tokens,
                                   xs, seeds)
                raise DealingFault(why, who)
        return want

    def summary(self) -> dealing.Payload:
        n = self.n
        value = MentalOpening(self.scheme, self.ctx.attempt, tuple(_hex(self.keys[s]) for s in range(n)),
                              tuple(_hex(self.opened[s][0]) for s in range(n)), tuple(self.commits),
                              tuple(_hex(self.opened[s][1]) for s in range(n)))
        return WIRE.encode_opening(value)


def culprit(grp: Group, hand: bytes, deck: Sequence[Card], joint: bytes, decks: Sequence[bs.Deck],
            tokens: Mapping[int, Mapping[int, bytes]], xs: Sequence[bytes], seeds: Sequence[bytes]
            ) -> tuple[str, int | None]:
    """Why the final deck (``decks[-1]``, shuffled under the ``joint`` key) opens to other cards
    than the ``seeds`` put there, and who made it: a token that is not its seat's share
    (``xs``: the seats' opened secrets), else the first shuffler whose deck is not its seed's
    shuffle of the deck before it."""
    final = decks[-1]
    for p in range(len(deck)):
        for s, t in sorted(tokens[p].items()):
            if t != bs.token(grp, xs[s], final[p]):
                return f"seat {s}'s token for position {p} is not its share", s
    source = bs.open_deck(grp, deck)
    for s, seed in enumerate(seeds):
        made = bs.shuffle(grp, source, bs.shuffle_key(hand, s, seed), joint)
        if made != decks[s]:
            return f"seat {s}'s deck is not the shuffle its seed makes", s
        source = made
    return "the deck does not open to the cards the seeds put there", None


def arrangement_of(ctx: dealing.DealContext, deck: Sequence[Card], opening: MentalOpening) -> list[Card]:
    """The cards at the final positions that a record's opening gives."""
    hand = ctx.hand_id.encode()
    perms = [bs.permutation(bs.shuffle_key(hand, s, _seed(seed, "seed")), len(deck))
             for s, seed in enumerate(opening.seeds)]
    return bs.arrangement(deck, perms)


class MentalPoker:
    """A mental-poker scheme: ``mental-poker/2`` (secp256k1, the default) or ``mental-poker/1``
    (edwards25519)."""

    def __init__(self, name: str = MENTAL_POKER) -> None:
        self.name = name
        self.grp = GROUPS[name]

    def dealer(self, ctx: dealing.DealContext, layout: dealing.Layout, seat: int | None, *,
               host: bool = False, secret: Mapping[str, Any] | None = None,
               rand: dealing.RandomBytes = os.urandom,
               checks: bool | None = None) -> MentalDealer:
        full = seat is not None if checks is None else checks
        return MentalDealer(ctx, layout, seat, secret, rand, checks=full, scheme=self.name)

    def verify(self, ctx: dealing.DealContext, layout: dealing.Layout, opening: object,
               hands: list[list[int]], talon: list[list[int]]) -> None:
        op = WIRE.decode_opening(opening)
        n = ctx.seats
        parts = (op.keys, op.secrets, op.commits, op.seeds)
        if op.scheme != self.name or not all(len(v) == n for v in parts):
            raise DealingFault(f"the opening is not a {self.name} opening for {n} seats", None)
        if op.attempt != ctx.attempt:
            raise DealingFault("the opening is of another attempt of this deal", None)
        hand = ctx.hand_id.encode()
        try:
            for s in range(n):
                if self.grp.base(self.grp.scalar(op.secrets[s])) != self.grp.point(op.keys[s]):
                    raise DealingFault(f"the secret of seat {s} is not its key's", None)
                if bs.shuffle_commitment(hand, s, _seed(op.seeds[s], "seed")) != op.commits[s]:
                    raise DealingFault(f"the seed of seat {s} does not match its commitment", None)
        except (GroupError, PayloadError) as exc:
            raise DealingFault(f"the opening is malformed: {exc}", None) from None
        check_deal(layout.deal_of(arrangement_of(ctx, layout.deck, op)), hands, talon)


__all__ = ["GROUPS", "MENTAL_POKER", "MENTAL_POKER_ED25519", "PAYLOADS", "MentalDealer", "MentalOpening",
           "MentalPoker", "arrangement_of"]
