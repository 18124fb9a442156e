"""``commit-reveal/1``: the host deals from seeds every seat committed to.

Every seat draws a random 32-byte seed and sends only its commitment (a
SHA-256 hash, in the log); once the host holds every commitment it logs the
list; then each seat sends its seed to the host alone.  The deck is shuffled by
a stream of SHA-256 blocks keyed by all seeds together, so no seat chooses the
deal as long as one seed is random, and none was chosen after any other was
known.  The host learns every hand: it is the only *contributor*, delivering
each seat its cards and every card a seat may see (privately, or in the log
when every seat sees it).  At the hand's end the host opens every seed and
every node recomputes the deal.  The cheap mode and the benchmark's baseline
(docs/protocol.md, "Dealing: commit-reveal/1").
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tarock.core.cards import Card, format_card, parse_card
from tarock.net.dealing import (
    HOST,
    MAX_ATTEMPTS,
    Cards,
    DealContext,
    DealingFault,
    Layout,
    Outgoing,
    Payload,
    PayloadError,
    RandomBytes,
)
from tarock.net.protocol.fields import Hash, check_fields
from tarock.net.protocol.messages import message
from tarock.net.scheme_codec import SchemeCodec, check_deal
from tarock.net.sha_stream import Stream, shuffle

COMMIT_REVEAL = "commit-reveal/1"
SEED_BYTES = 32

__all__ = ["COMMIT_REVEAL", "PAYLOADS", "SEED_BYTES", "WIRE", "Commit", "CommitReveal", "CommitRevealDealer",
           "Commits", "Opening", "Reveal", "Seeds", "Shown", "Stream", "commitment", "deal_from_seeds",
           "deal_key", "deal_order", "shuffle"]


# -- the algorithm ---------------------------------------------------------------------------

def commitment(ctx: DealContext, seat: int, seed: bytes) -> str:
    """SHA-256 of ``"tarock-commit/1" 0x00 hand_id 0x00 seat 0x00 seed``, lowercase hex."""
    data = b"tarock-commit/1\x00" + ctx.hand_id.encode() + b"\x00" + str(seat).encode() + b"\x00" + seed
    return hashlib.sha256(data).hexdigest()


def deal_key(ctx: DealContext, seeds: Sequence[bytes]) -> bytes:
    """SHA-256 of ``"tarock-deal/1" 0x00 hand_id 0x00 seed_0 ... seed_n-1`` (seat order)."""
    return hashlib.sha256(b"tarock-deal/1\x00" + ctx.hand_id.encode() + b"\x00" + b"".join(seeds)).digest()


def deal_order(ctx: DealContext, layout: Layout, seeds: Sequence[bytes]) -> list[Card]:
    """The arrangement all seeds imply: shuffle the deck; while the rules want a redeal,
    shuffle a fresh copy of the deck with the stream going on."""
    stream = Stream(deal_key(ctx, seeds))
    for _ in range(MAX_ATTEMPTS):
        order = shuffle(layout.deck, stream)
        if layout.redeal is None or layout.redeal(layout.deal_of(order)[0]) is None:
            return order
    raise DealingFault(f"no acceptable deal in {MAX_ATTEMPTS} shuffles", None)


def deal_from_seeds(ctx: DealContext, layout: Layout, seeds: Sequence[bytes]) -> tuple[Cards, Cards]:
    return layout.deal_of(deal_order(ctx, layout, seeds))


# -- payloads ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Checked:
    """A payload whose fields are checked as a protocol message's (the forms their types declare)."""

    def __post_init__(self) -> None:
        check_fields(self)


@message("commit")
class Commit(_Checked):
    """Seat to all (in the log): the commitment to my seed."""

    commit: Hash


@message("commits")
class Commits(_Checked):
    """Host to all (in the log): every commitment, in seat order."""

    commits: tuple[Hash, ...]


@message("reveal")
class Reveal(_Checked):
    """Seat to host only: my seed, after the list of commitments is in the log."""

    seed: Hash


@message("cards")
class Shown:
    """Host to one seat (privately) or to all (in the log): ``[position, card]`` pairs."""

    cards: tuple[tuple[int, str], ...]


@message("seeds")
class Seeds(_Checked):
    """Host to all at the hand's end: every seed, in seat order."""

    seeds: tuple[Hash, ...]


@dataclass(frozen=True, slots=True)
class Opening:
    """In the record: every commitment and every seed, in seat order."""

    scheme: str
    commits: tuple[str, ...]
    seeds: tuple[str, ...]


PAYLOADS: tuple[type[Any], ...] = (Commit, Commits, Reveal, Shown, Seeds)
WIRE = SchemeCodec(PAYLOADS, Opening)
"""The payloads and the opening of ``commit-reveal/1`` on the wire."""


# -- the dealer -----------------------------------------------------------------------------

class CommitRevealDealer:
    """One node's part of one commit-reveal deal; ``host``: the dealer itself."""

    public_shares = False
    """The host delivers a card one seat may see privately: nobody else can check it."""

    def __init__(self, ctx: DealContext, layout: Layout, seat: int | None, host: bool,
                 secret: Mapping[str, Any] | None, rand: RandomBytes) -> None:
        self.ctx = ctx
        self.layout = layout
        self.seat = seat
        self.host = host
        self.n = ctx.seats
        self.seed: bytes | None = None
        if seat is not None:
            stored = secret.get("seed") if secret else None
            self.seed = bytes.fromhex(str(stored)) if stored else rand(SEED_BYTES)
        self.commits: dict[int, str] = {}
        self.listed: tuple[str, ...] | None = None
        self.seeds: dict[int, bytes] = {}
        self.order: list[Card] | None = None
        self.cards: dict[int, Card] = {}
        self.delivered: dict[int, set[int]] = {s: set() for s in range(self.n)}
        self.public: set[int] = set()
        self.opened: tuple[bytes, ...] | None = None

    def copy(self) -> CommitRevealDealer:
        """A copy whose state no later message changes."""
        out = copy.copy(self)
        out.commits = dict(self.commits)
        out.seeds = dict(self.seeds)
        out.order = list(self.order) if self.order is not None else None
        out.cards = dict(self.cards)
        out.delivered = {s: set(ps) for s, ps in self.delivered.items()}
        out.public = set(self.public)
        return out

    def contributors(self) -> tuple[int, ...]:
        return (HOST,)

    def openers(self) -> tuple[int, ...]:
        return (HOST,)

    def resend(self, seat: int) -> list[Outgoing]:
        if not self.host or self.order is None or not self.delivered[seat]:
            return []
        order = self.order
        return [Outgoing(seat, WIRE.dump(Shown(tuple((p, format_card(order[p]))
                                                        for p in sorted(self.delivered[seat])))))]

    @property
    def fixed(self) -> bool:
        return self.listed is not None and (self.order is not None or not self.host)

    def waiting(self) -> tuple[int, ...]:
        if self.listed is None:
            missing = tuple(s for s in range(self.n) if s not in self.commits)
            return missing or (HOST,)
        if self.host and self.order is None:
            return tuple(s for s in range(self.n) if s not in self.seeds)
        return ()

    def secret(self) -> Payload:
        return {"seed": self.seed.hex()} if self.seed is not None else {}

    def start(self) -> list[Outgoing]:
        if self.seat is None or self.seed is None:
            return []
        return [Outgoing(None, WIRE.dump(Commit(commitment(self.ctx, self.seat, self.seed))))]

    def entry(self, author: int, payload: object) -> list[Outgoing]:
        msg = WIRE.parse(payload, (Commit, Commits, Reveal))
        if isinstance(msg, Commit):
            if not 0 <= author < self.n:
                raise PayloadError("a commitment from no seat")
            if author in self.commits or self.listed is not None:
                raise DealingFault(f"seat {author} sent a second commitment, or one too late", author)
            self.commits[author] = msg.commit
            if self.host and len(self.commits) == self.n:
                return [Outgoing(None, WIRE.dump(Commits(tuple(self.commits[s] for s in range(self.n)))))]
            return []
        if isinstance(msg, Commits):
            if author != HOST or self.listed is not None:
                raise PayloadError("the list of commitments comes from the host, once")
            if tuple(msg.commits) != tuple(self.commits.get(s, "") for s in range(self.n)):
                raise DealingFault("the host listed other commitments than the seats sent", HOST)
            self.listed = tuple(msg.commits)
            if self.seat is not None and self.seed is not None:
                return [Outgoing(HOST, WIRE.dump(Reveal(self.seed.hex())))]
            return []
        assert isinstance(msg, Reveal)
        if not self.host or not 0 <= author < self.n or self.listed is None:
            raise PayloadError("a seed goes to the host, after the commitments are listed")
        seed = bytes.fromhex(msg.seed)
        if commitment(self.ctx, author, seed) != self.commits[author]:
            raise DealingFault(f"seat {author} revealed a seed that does not match its commitment", author)
        self.seeds[author] = seed
        if len(self.seeds) == self.n and self.order is None:
            self.order = deal_order(self.ctx, self.layout, [self.seeds[s] for s in range(self.n)])
            self.cards = dict(enumerate(self.order))
        return []

    def known(self) -> Mapping[int, Card]:
        return self.cards

    def shared(self, position: int) -> set[int]:
        return {HOST} if position in self.public else set()

    def shares(self, visible: Mapping[int, Iterable[int]]) -> list[Outgoing]:
        if not self.host or self.order is None:
            return []
        sets = {s: set(ps) for s, ps in visible.items()}
        everyone = set.intersection(*sets.values()) if sets else set()
        out: list[Outgoing] = []
        fresh = sorted(everyone - self.public)
        if fresh:
            shown = tuple((p, format_card(self.order[p])) for p in fresh)
            out.append(Outgoing(None, WIRE.dump(Shown(shown))))
        for s, ps in sorted(sets.items()):
            private = sorted(ps - everyone - self.public - self.delivered[s])
            self.delivered[s].update(private)
            if private:
                out.append(Outgoing(s, WIRE.dump(Shown(tuple((p, format_card(self.order[p]))
                                                                 for p in private)))))
        return out

    def take(self, author: int, payload: object, public: bool = True) -> tuple[dict[int, Card], set[int]]:
        msg = WIRE.parse(payload, (Shown, Seeds))
        if author != HOST:
            raise PayloadError("cards come from the host")
        learned: dict[int, Card] = {}
        covered: set[int] = set()
        if isinstance(msg, Seeds):
            raise PayloadError("seeds are an opening")
        for p, name in msg.cards:
            try:
                card = parse_card(name)
            except ValueError:
                raise DealingFault(f"the host sent {name!r}, which is no card", HOST) from None
            if not 0 <= p < len(self.layout.deck) or (p in self.cards and self.cards[p] != card):
                raise DealingFault(f"the host sent two cards for position {p}", HOST)
            if card in self.cards.values() and self.cards.get(p) != card:
                raise DealingFault(f"the host sent {name} at two positions", HOST)
            covered.add(p)
            if p not in self.cards:
                self.cards[p] = card
                learned[p] = card
        if public:
            self.public.update(covered)
        return learned, covered

    def opening(self) -> Payload | None:
        if not self.host or self.order is None:
            return None
        return WIRE.dump(Seeds(tuple(self.seeds[s].hex() for s in range(self.n))))

    def open(self, author: int, payload: object) -> None:
        msg = WIRE.parse(payload, (Seeds,))
        if author != HOST or len(msg.seeds) != self.n:
            raise PayloadError("the seeds come from the host, one per seat")
        for s, text in enumerate(msg.seeds):
            if commitment(self.ctx, s, bytes.fromhex(text)) != (self.listed or ())[s]:
                raise DealingFault(f"the host opened a seed of seat {s} that does not match its commitment",
                                   HOST)
        self.opened = tuple(bytes.fromhex(t) for t in msg.seeds)
        if self.seat is not None and self.seed is not None and self.opened[self.seat] != self.seed:
            raise DealingFault("the host opened another seed for this seat", HOST)

    def audit(self) -> list[Card]:
        if self.opened is None:
            raise DealingFault("the host did not open the seeds", HOST)
        want = deal_order(self.ctx, self.layout, self.opened)
        for p, card in self.cards.items():
            if want[p] != card:
                raise DealingFault(f"the host showed {format_card(card)} at position {p}, the seeds put "
                                   f"{format_card(want[p])} there", HOST)
        return want

    def summary(self) -> Payload:
        opened = self.opened or ()
        value = Opening(COMMIT_REVEAL, self.listed or (), tuple(s.hex() for s in opened))
        return WIRE.encode_opening(value)


class CommitReveal:
    """The ``commit-reveal/1`` scheme."""

    name = COMMIT_REVEAL

    def dealer(self, ctx: DealContext, layout: Layout, seat: int | None, *, host: bool = False,
               secret: Mapping[str, Any] | None = None, rand: RandomBytes = os.urandom,
               checks: bool | None = None) -> CommitRevealDealer:
        return CommitRevealDealer(ctx, layout, seat, host, secret, rand)

    def verify(self, ctx: DealContext, layout: Layout, opening: object, hands: Cards, talon: Cards) -> None:
        op = WIRE.decode_opening(opening)
        n = ctx.seats
        if op.scheme != COMMIT_REVEAL or len(op.commits) != n or len(op.seeds) != n:
            raise DealingFault(f"the opening is not a {COMMIT_REVEAL} opening for {n} seats", None)
        seeds: list[bytes] = []
        for seat in range(n):
            try:
                seed = bytes.fromhex(op.seeds[seat])
            except ValueError:
                raise DealingFault(f"the seed of seat {seat} is not hex", None) from None
            if len(seed) != SEED_BYTES or commitment(ctx, seat, seed) != op.commits[seat]:
                raise DealingFault(f"the seed of seat {seat} does not match its commitment", None)
            seeds.append(seed)
        check_deal(deal_from_seeds(ctx, layout, seeds), hands, talon)
