"""Dealing without a trusted dealer, behind one interface.

A :class:`DealingScheme` makes, for one node and one deal, a :class:`Dealer`:
the node's part of the exchange that fixes the deal (``dealing`` entries of
the hand's log), of every later *share* that shows a position of the deck to
the seats that may see it, and of the *opening* at the hand's end, from which
every node rebuilds the whole deal and checks it.  The table (net/handplay.py)
decides from its engine which positions each seat sees after each step and asks
the dealer for this node's shares; it never handles the secrets itself.

Two schemes (docs/protocol.md, "Dealing"):

* ``mental-poker/2`` (the default, :mod:`net.mental_poker`): Barnett–Smart in
  secp256k1; no node, the host included, learns a card before the rules show it
  to its seat.  ``mental-poker/1`` is the same exchange in edwards25519.
* ``commit-reveal/1`` (:mod:`net.commit_reveal`): the host deals from seeds every
  seat committed to; fair, but the host learns every hand.  The cheap mode and
  the benchmark's baseline.

Positions are the slots of the final deck, laid out by ``core.deal.split``:
the seats that play, in seat order, take ``hand_size`` positions each, then
each talon pile.  An *author* is a seat (0..n-1) or :data:`HOST`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tarock.core.cards import Card
from tarock.core.codec import Codec, RecordError

HOST = -1
"""The host as the author of a dealing entry or a share (commit-reveal's dealer)."""

Cards = list[list[int]]
RandomBytes = Callable[[int], bytes]
Payload = dict[str, Any]
Redeal = Callable[[Sequence[Sequence[Card]]], str | None]
"""The rules' redeal verdict on a deal's hands (why it is dealt again, or None)."""

MAX_ATTEMPTS = 1000
"""Deals tried before a deal is given up (core.deal.MAX_REDEALS)."""


class DealingFault(Exception):
    """A dealing step or check that failed: ``seat`` is at fault (:data:`HOST`: the host;
    None: nobody can be named); the hand is void."""

    def __init__(self, reason: str, seat: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


class PayloadError(ValueError):
    """A dealing payload that is not well formed (its author is at fault)."""


class TaggedPayloads:
    """A scheme's payload types as maps with their tag under ``t``, through one codec."""

    def __init__(self, types: Iterable[type[Any]], codec: Codec) -> None:
        self.codec = codec
        self.by_tag: dict[str, type[Any]] = {cls.tag: cls for cls in types}

    def parse(self, raw: object, allowed: Sequence[type[Any]] = ()) -> Any:
        """The payload ``raw`` holds, of one of ``allowed`` (empty: any); PayloadError if not."""
        if not isinstance(raw, Mapping) or not isinstance(raw.get("t"), str):
            raise PayloadError("a dealing payload must be a map with a string 't'")
        cls = self.by_tag.get(raw["t"])
        if cls is None or (allowed and cls not in allowed):
            raise PayloadError(f"{raw['t']!r} is not allowed here")
        try:
            return self.codec.decode({k: v for k, v in raw.items() if k != "t"}, cls, cls.tag)
        except RecordError as exc:
            raise PayloadError(str(exc)) from None

    def dump(self, value: Any) -> Payload:
        out: Payload = {"t": value.tag}
        out.update(self.codec.encode(value))
        return out


@dataclass(frozen=True, slots=True)
class DealContext:
    """What a deal is bound to: the table, the host's epoch, the deal number, the seats,
    and the attempt (a deal dealt again under its redeal rule starts a new attempt)."""

    table: str
    epoch: int
    deal: int
    seats: int
    attempt: int = 1

    @property
    def hand_id(self) -> str:
        """``TABLE:EPOCH:DEAL``, the text every hash of this deal includes (``:ATTEMPT``
        added from the second attempt on)."""
        base = f"{self.table}:{self.epoch}:{self.deal}"
        return base if self.attempt == 1 else f"{base}:{self.attempt}"


@dataclass(frozen=True, slots=True)
class Layout:
    """The deck in the variant's order (``rules.deck``) and where each position is dealt:
    ``hands[s]`` the positions of seat ``s``, ``talon[i]`` those of pile ``i``."""

    deck: tuple[Card, ...]
    hands: tuple[tuple[int, ...], ...]
    talon: tuple[tuple[int, ...], ...]
    redeal: Redeal | None = None

    def owner(self, position: int) -> int | None:
        for seat, where in enumerate(self.hands):
            if position in where:
                return seat
        return None

    def deal_of(self, cards: Sequence[Card]) -> tuple[Cards, Cards]:
        """Hands and talon of an arrangement (position -> card)."""
        return ([[cards[p] for p in where] for where in self.hands],
                [[cards[p] for p in where] for where in self.talon])


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A payload for the log (``to`` None) or for one seat only (``to``: private)."""

    to: int | None
    payload: Payload


class Dealer(Protocol):
    """One node's part of one deal (``seat`` None: the host or a watcher)."""

    def start(self) -> list[Outgoing]:
        """What this node sends once the deal begins."""
        ...

    def entry(self, author: int, payload: object) -> list[Outgoing]:
        """A ``dealing`` entry of the log (or a private one for this node); returns what
        this node sends next.  PayloadError: malformed; DealingFault: someone cheats."""
        ...

    @property
    def fixed(self) -> bool:
        """Whether the deal is fixed (shares can be made)."""
        ...

    def waiting(self) -> tuple[int, ...]:
        """The authors whose dealing step the deal waits for."""
        ...

    def known(self) -> Mapping[int, Card]:
        """The positions whose card this node knows."""
        ...

    def shares(self, visible: Mapping[int, Iterable[int]]) -> list[Outgoing]:
        """This node's shares for every position another seat sees now (``visible``:
        seat -> positions), each made once; [] when it owes none."""
        ...

    public_shares: bool
    """Whether every share is in the log, so every node can tell who withheld one."""

    def take(self, author: int, payload: object, public: bool = True) -> tuple[dict[int, Card], set[int]]:
        """Shares of ``author`` (``public``: from the log, else sent to this node alone): the
        cards this node learns by them and the positions they cover.  PayloadError /
        DealingFault as for :meth:`entry`."""
        ...

    def shared(self, position: int) -> set[int]:
        """The authors whose share of ``position`` has been taken."""
        ...

    def contributors(self) -> tuple[int, ...]:
        """Who makes shares (the seats; commit-reveal: the host)."""
        ...

    def resend(self, seat: int) -> list[Outgoing]:
        """What a seat that comes back needs of this node's private messages (the host's)."""
        ...

    def secret(self) -> Payload:
        """What this node keeps in its crash-safe store to go on after a restart."""
        ...

    def opening(self) -> Payload | None:
        """What this node opens at the hand's end (None: nothing)."""
        ...

    def open(self, author: int, payload: object) -> None:
        """Another node's opening (PayloadError / DealingFault)."""
        ...

    def openers(self) -> tuple[int, ...]:
        """Who opens at the hand's end."""
        ...

    def audit(self) -> list[Card]:
        """After every opening: the card at every position, checked against everything
        the deal published; DealingFault names who cheated."""
        ...

    def summary(self) -> Payload:
        """The opening for the record: enough to recompute the deal (:meth:`DealingScheme.verify`)."""
        ...

    def copy(self) -> Dealer:
        """A copy whose state no later message changes (to undo a refused log entry)."""
        ...


class DealingScheme(Protocol):
    name: str

    def dealer(self, ctx: DealContext, layout: Layout, seat: int | None, *, host: bool = False,
               secret: Mapping[str, Any] | None = None, rand: RandomBytes = os.urandom,
               checks: bool | None = None) -> Dealer:
        """This node's dealer (``host``: the host's, which deals in commit-reveal;
        ``checks``: verify every proof, by default for a seat only)."""
        ...

    def verify(self, ctx: DealContext, layout: Layout, opening: object, hands: Cards,
               talon: Cards) -> None:
        """Raise DealingFault unless the record's ``opening`` gives the deal (hands, talon)."""
        ...


# Names the table and the commands use (net.mental_poker takes its own from here; net.commit_reveal
# defines its name too).
COMMIT_REVEAL = "commit-reveal/1"
MENTAL_POKER = "mental-poker/2"
"""The default: Barnett–Smart in secp256k1."""
MENTAL_POKER_ED25519 = "mental-poker/1"
"""The same exchange in edwards25519 (libsodium)."""
DEFAULT_DEALING = MENTAL_POKER
SCHEMES = (MENTAL_POKER, MENTAL_POKER_ED25519, COMMIT_REVEAL)
