"""Dealing without a trusted dealer, behind one interface.

A :class:`DealingScheme` runs an exchange of opaque payloads between the
seats and the host (``dealing`` bodies) until the deal is fixed, and checks
it again at the hand's end from an *opening* that every node receives.  The
table only carries payloads and asks for the result, so a scheme that keeps
the hands from the host (mental poker, issue 9) can replace this one.

``commit-reveal/1`` (docs/protocol.md, "Dealing"): every seat draws a random
32-byte seed and sends only its commitment (a SHA-256 hash); when the host
has all commitments it sends the list to every seat; then each seat reveals
its seed to the host alone.  The deck is shuffled by a stream of SHA-256
blocks keyed by all seeds together, so no seat chooses the deal as long as
one seed is random, and no seed was chosen after any other was known.  The
host learns the hands.  At the hand's end every seed is opened to all.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from core.codec import Codec, RecordError

Cards = list[list[int]]
LayOut = Callable[[Sequence[int]], tuple[Cards, Cards] | None]
"""Lays a shuffled deck out into (hands, talon); None when the rules want it dealt again."""
RandomBytes = Callable[[int], bytes]

MAX_ATTEMPTS = 1000
"""Shuffles tried before a deal is given up (core.deal.MAX_REDEALS)."""
SEED_BYTES = 32

_HEX64 = re.compile(r"[0-9a-f]{64}")
_CODEC = Codec()


class DealingFault(Exception):
    """A dealing step or check that failed: ``seat`` is at fault, or the host
    (``seat`` None); the hand is void."""

    def __init__(self, reason: str, seat: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


class PayloadError(ValueError):
    """A dealing payload that is not well formed (the connection is closed)."""


@dataclass(frozen=True, slots=True)
class DealContext:
    """What a deal is bound to: the table, the host's epoch, the deal number and the seats."""

    table: str
    epoch: int
    deal: int
    seats: int

    @property
    def hand_id(self) -> str:
        """``TABLE:EPOCH:DEAL``, the text every hash of this deal includes."""
        return f"{self.table}:{self.epoch}:{self.deal}"


@dataclass(frozen=True, slots=True)
class Layout:
    """The deck in the variant's order (``rules.deck``) and how it is laid out."""

    deck: tuple[int, ...]
    lay_out: LayOut


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A payload for one seat (``to``) or for every seat (``to`` None)."""

    to: int | None
    payload: dict[str, Any]


class HostDealer(Protocol):
    def receive(self, seat: int, payload: object) -> list[Outgoing]:
        """A seat's payload; raises PayloadError (malformed) or DealingFault (the seat cheats)."""
        ...

    def substitute(self, seat: int) -> list[Outgoing]:
        """Play the dealing part of an absent seat (its bot's seed is drawn by the host)."""
        ...

    def resend(self, seat: int) -> list[Outgoing]:
        """What a seat that comes back needs to go on."""
        ...

    def waiting(self) -> tuple[int, ...]:
        """The seats whose next step the host waits for."""
        ...

    def result(self) -> tuple[Cards, Cards] | None:
        """The deal (hands, talon) once fixed."""
        ...

    def opening(self) -> dict[str, Any]:
        """What every node gets at the hand's end to check the deal."""
        ...


class SeatDealer(Protocol):
    def start(self) -> list[dict[str, Any]]:
        """The first payloads to the host."""
        ...

    def receive(self, payload: object) -> list[dict[str, Any]]:
        """A payload from the host; raises PayloadError or DealingFault (the host cheats)."""
        ...

    def secret(self) -> dict[str, Any]:
        """What the seat must keep in its crash-safe store to resume after a restart."""
        ...


class DealingScheme(Protocol):
    name: str

    def host(self, ctx: DealContext, layout: Layout, rand: RandomBytes = os.urandom) -> HostDealer: ...

    def seat(self, ctx: DealContext, seat: int, secret: Mapping[str, Any] | None = None,
             rand: RandomBytes = os.urandom) -> SeatDealer: ...

    def verify(self, ctx: DealContext, layout: Layout, opening: object, hands: Cards, talon: Cards,
               seen: Mapping[int, str] | None = None) -> None:
        """Raise DealingFault unless ``opening`` proves the deal (hands, talon).
        ``seen``: commitments this node saw during the hand, by seat."""
        ...


# -- commit-reveal/1: the algorithm ----------------------------------------------------------

def commitment(ctx: DealContext, seat: int, seed: bytes) -> str:
    """SHA-256 of ``"tarock-commit/1" 0x00 hand_id 0x00 seat 0x00 seed``, lowercase hex."""
    data = b"tarock-commit/1\x00" + ctx.hand_id.encode() + b"\x00" + str(seat).encode() + b"\x00" + seed
    return hashlib.sha256(data).hexdigest()


def deal_key(ctx: DealContext, seeds: Sequence[bytes]) -> bytes:
    """SHA-256 of ``"tarock-deal/1" 0x00 hand_id 0x00 seed_0 ... seed_n-1`` (seat order)."""
    return hashlib.sha256(b"tarock-deal/1\x00" + ctx.hand_id.encode() + b"\x00" + b"".join(seeds)).digest()


class Stream:
    """Bytes SHA-256(key || counter as 8 bytes big-endian), counter 0, 1, 2 ..."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0
        self._buf = b""

    def take(self, n: int) -> bytes:
        while len(self._buf) < n:
            self._buf += hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def below(self, m: int) -> int:
        """A uniform integer 0..m-1: 4 bytes big-endian, rejected at or above the
        largest multiple of m below 2**32."""
        bound = (1 << 32) - (1 << 32) % m
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < bound:
                return x % m


def shuffle(deck: Sequence[int], stream: Stream) -> list[int]:
    """Fisher-Yates from the end: for i = n-1 .. 1 swap items i and below(i + 1)."""
    order = list(deck)
    for i in range(len(order) - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def deal_from_seeds(ctx: DealContext, layout: Layout, seeds: Sequence[bytes]) -> tuple[Cards, Cards]:
    """The deal all seeds imply: shuffle the deck, lay it out; while the rules
    want a redeal, shuffle a fresh copy of the deck with the stream going on."""
    stream = Stream(deal_key(ctx, seeds))
    for _ in range(MAX_ATTEMPTS):
        laid = layout.lay_out(shuffle(layout.deck, stream))
        if laid is not None:
            return laid
    raise DealingFault(f"no acceptable deal in {MAX_ATTEMPTS} shuffles", None)


# -- commit-reveal/1: the payloads ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Commit:
    """Seat to host: the commitment to my seed."""

    commit: str
    tag: ClassVar[str] = "commit"

    def __post_init__(self) -> None:
        _hex64(self.commit, "commit")


@dataclass(frozen=True, slots=True)
class Commits:
    """Host to every seat: all commitments, in seat order."""

    commits: tuple[str, ...]
    tag: ClassVar[str] = "commits"

    def __post_init__(self) -> None:
        for c in self.commits:
            _hex64(c, "commits")


@dataclass(frozen=True, slots=True)
class Reveal:
    """Seat to host: my seed (hex), after all commitments were sent to me."""

    seed: str
    tag: ClassVar[str] = "reveal"

    def __post_init__(self) -> None:
        _hex64(self.seed, "seed")


@dataclass(frozen=True, slots=True)
class Opening:
    """In the record of the hand: every commitment and every seed, in seat order,
    and the seats whose seed the host drew (a bot played them)."""

    scheme: str
    commits: tuple[str, ...]
    seeds: tuple[str, ...]
    drawn_by_host: tuple[int, ...]


PAYLOADS: tuple[type[Any], ...] = (Commit, Commits, Reveal)
_PAYLOAD_BY_TAG = {cls.tag: cls for cls in PAYLOADS}


def _hex64(value: str, what: str) -> None:
    if not _HEX64.fullmatch(value):
        raise ValueError(f"{what} must be 64 lowercase hex digits")


def parse_payload(raw: object) -> Commit | Commits | Reveal:
    if not isinstance(raw, Mapping):
        raise PayloadError("a dealing payload must be a map")
    cls = _PAYLOAD_BY_TAG.get(raw.get("t")) if isinstance(raw.get("t"), str) else None
    if cls is None:
        raise PayloadError(f"unknown dealing payload {raw.get('t')!r}")
    try:
        value: Commit | Commits | Reveal = _CODEC.decode({k: v for k, v in raw.items() if k != "t"},
                                                         cls, cls.tag)
    except RecordError as exc:
        raise PayloadError(str(exc)) from None
    return value


def dump_payload(value: Commit | Commits | Reveal) -> dict[str, Any]:
    out: dict[str, Any] = {"t": value.tag}
    out.update(_CODEC.encode(value))
    return out


def parse_opening(raw: object) -> Opening:
    try:
        opening: Opening = _CODEC.decode(raw, Opening, "opening")
    except RecordError as exc:
        raise DealingFault(f"the opening is malformed: {exc}", None) from None
    return opening


class CommitRevealHost:
    """The host's side of one deal."""

    def __init__(self, ctx: DealContext, layout: Layout, rand: RandomBytes) -> None:
        self.ctx = ctx
        self.layout = layout
        self.rand = rand
        self.commits: dict[int, str] = {}
        self.seeds: dict[int, bytes] = {}
        self.drawn: set[int] = set()
        self.sent_commits = False
        self._result: tuple[Cards, Cards] | None = None

    def _all_commits(self) -> list[Outgoing]:
        if self.sent_commits or len(self.commits) < self.ctx.seats:
            return []
        self.sent_commits = True
        return [Outgoing(None, self._commits())]

    def _commits(self) -> dict[str, Any]:
        return dump_payload(Commits(tuple(self.commits[s] for s in range(self.ctx.seats))))

    def _finish(self) -> None:
        if self._result is None and len(self.seeds) == self.ctx.seats:
            seeds = [self.seeds[s] for s in range(self.ctx.seats)]
            self._result = deal_from_seeds(self.ctx, self.layout, seeds)

    def receive(self, seat: int, payload: object) -> list[Outgoing]:
        msg = parse_payload(payload)
        if isinstance(msg, Commit):
            known = self.commits.get(seat)
            if known is not None:
                if known != msg.commit:
                    raise DealingFault(f"seat {seat} sent a second, different commitment", seat)
                return self.resend(seat)
            if self.sent_commits:
                raise DealingFault(f"seat {seat} committed after all commitments were out", seat)
            self.commits[seat] = msg.commit
            return self._all_commits()
        if isinstance(msg, Reveal):
            if not self.sent_commits:
                raise DealingFault(f"seat {seat} revealed its seed before all commitments were out", seat)
            seed = bytes.fromhex(msg.seed)
            if commitment(self.ctx, seat, seed) != self.commits[seat]:
                raise DealingFault(f"seat {seat} revealed a seed that does not match its commitment", seat)
            if seat in self.seeds and self.seeds[seat] != seed:
                raise DealingFault(f"seat {seat} revealed two different seeds", seat)
            self.seeds[seat] = seed
            self._finish()
            return []
        raise PayloadError(f"a seat may not send {msg.tag!r}")

    def substitute(self, seat: int) -> list[Outgoing]:
        out: list[Outgoing] = []
        if seat not in self.commits and not self.sent_commits:
            seed = self.rand(SEED_BYTES)
            self.drawn.add(seat)
            self.seeds[seat] = seed
            self.commits[seat] = commitment(self.ctx, seat, seed)
            out += self._all_commits()
        elif seat not in self.seeds and self.sent_commits:
            # Committed, then gone before revealing: its seed is lost, the deal cannot be made.
            raise DealingFault(f"seat {seat} left after committing and did not reveal its seed", seat)
        self._finish()
        return out

    def resend(self, seat: int) -> list[Outgoing]:
        if self.sent_commits:
            return [Outgoing(seat, self._commits())]
        return []

    def waiting(self) -> tuple[int, ...]:
        if not self.sent_commits:
            return tuple(s for s in range(self.ctx.seats) if s not in self.commits)
        return tuple(s for s in range(self.ctx.seats) if s not in self.seeds)

    def result(self) -> tuple[Cards, Cards] | None:
        return self._result

    def opening(self) -> dict[str, Any]:
        n = self.ctx.seats
        value = Opening(COMMIT_REVEAL, tuple(self.commits[s] for s in range(n)),
                        tuple(self.seeds[s].hex() for s in range(n)), tuple(sorted(self.drawn)))
        out: dict[str, Any] = _CODEC.encode(value)
        return out


class CommitRevealSeat:
    """One seat's side of one deal."""

    def __init__(self, ctx: DealContext, seat: int, seed: bytes) -> None:
        self.ctx = ctx
        self.seat = seat
        self.seed = seed
        self.commit = commitment(ctx, seat, seed)
        self.commits: tuple[str, ...] | None = None

    def start(self) -> list[dict[str, Any]]:
        return [dump_payload(Commit(self.commit))]

    def receive(self, payload: object) -> list[dict[str, Any]]:
        msg = parse_payload(payload)
        if not isinstance(msg, Commits):
            raise PayloadError(f"the host may not send {msg.tag!r}")
        if len(msg.commits) != self.ctx.seats:
            raise DealingFault(f"the host sent {len(msg.commits)} commitments for {self.ctx.seats} seats",
                               None)
        if msg.commits[self.seat] != self.commit:
            raise DealingFault("the host changed this seat's commitment", None)
        if self.commits is not None and self.commits != msg.commits:
            raise DealingFault("the host sent two different lists of commitments", None)
        self.commits = msg.commits
        return [dump_payload(Reveal(self.seed.hex()))]

    def secret(self) -> dict[str, Any]:
        return {"seed": self.seed.hex(), "commits": list(self.commits or ())}


COMMIT_REVEAL = "commit-reveal/1"


class CommitReveal:
    """The ``commit-reveal/1`` scheme."""

    name = COMMIT_REVEAL

    def host(self, ctx: DealContext, layout: Layout, rand: RandomBytes = os.urandom) -> CommitRevealHost:
        return CommitRevealHost(ctx, layout, rand)

    def seat(self, ctx: DealContext, seat: int, secret: Mapping[str, Any] | None = None,
             rand: RandomBytes = os.urandom) -> CommitRevealSeat:
        if secret is not None:
            dealer = CommitRevealSeat(ctx, seat, bytes.fromhex(str(secret["seed"])))
            commits = tuple(str(c) for c in secret.get("commits") or ())
            dealer.commits = commits or None
            return dealer
        return CommitRevealSeat(ctx, seat, rand(SEED_BYTES))

    def verify(self, ctx: DealContext, layout: Layout, opening: object, hands: Cards, talon: Cards,
               seen: Mapping[int, str] | None = None) -> None:
        op = parse_opening(opening)
        n = ctx.seats
        if op.scheme != COMMIT_REVEAL or len(op.commits) != n or len(op.seeds) != n:
            raise DealingFault(f"the opening is not a {COMMIT_REVEAL} opening for {n} seats", None)
        for seat, commit in (seen or {}).items():
            if op.commits[seat] != commit:
                raise DealingFault(f"the commitment of seat {seat} in the record is not the one sent "
                                   "during the hand", None)
        seeds: list[bytes] = []
        for seat in range(n):
            try:
                seed = bytes.fromhex(op.seeds[seat])
            except ValueError:
                raise DealingFault(f"the seed of seat {seat} is not hex", None) from None
            if len(seed) != SEED_BYTES or commitment(ctx, seat, seed) != op.commits[seat]:
                # The host checked every reveal against its commitment: a mismatch is the host's.
                raise DealingFault(f"the seed of seat {seat} does not match its commitment", None)
            seeds.append(seed)
        want = deal_from_seeds(ctx, layout, seeds)
        if ([sorted(h) for h in want[0]] != [sorted(h) for h in hands]
                or [list(p) for p in want[1]] != [list(p) for p in talon]):
            raise DealingFault("the hands in the record are not the deal the seeds imply", None)


SCHEMES: dict[str, DealingScheme] = {COMMIT_REVEAL: CommitReveal()}
"""The dealing schemes a node can run, by the name in ``TableInfo.dealing``."""


def find_scheme(name: str) -> DealingScheme:
    scheme = SCHEMES.get(name)
    if scheme is None:
        raise ValueError(f"unknown dealing scheme {name!r} (known: {', '.join(SCHEMES)})")
    return scheme
