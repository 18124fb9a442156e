"""What the mental-poker fuzzers share (tests/test_mp_fuzz.py and fuzz/): real hands to
start from, copies of a node's state to spoil, fingerprints of that state, forged but
well-signed log entries, and mutations of real payloads.

* :func:`dealer_stages`: four seats and a host dealing tarock54 honestly through
  :class:`~net.mental_poker.MentalDealer` (keys, shuffles, the deal's tokens, the
  openings): the dealers' states after each message, and the messages.
* :func:`hand_stages`: a whole tarock40 hand of the table cores
  (tests/net_pump.py), its log as seat 2 received it and seat 2's dealing secret, so
  a fresh HandPlay of seat 2 can be brought to any point of the hand.
* :func:`feed_dealer`, :func:`feed_entry`: the property every fuzzer checks, that a refused
  message changes nothing.
* :func:`forge`: an entry with a correct signature, chain and head from any seat (or
  the host), so random bodies get past the signature check to the handlers.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net_pump import CATALOGUE, identity, make_table, node_id

from tarock.net.dealing import HOST, DealContext, DealingFault, Layout, Payload, PayloadError
from tarock.net.game import Game
from tarock.net.handplay import HandFault, HandPlay
from tarock.net.identity import signed_bytes
from tarock.net.mental_poker import MENTAL_POKER, MentalDealer, MentalPoker
from tarock.net.protocol.messages import Signed, parse

SEATS = 4
SPIED = 2
"""The seat whose HandPlay the hand fuzzer feeds."""

Message = tuple[str, int, Payload]
"""(handler: "entry" | "take" | "open", author, payload)."""


# -- the dealers ----------------------------------------------------------------------------------

def clone_dealer(d: MentalDealer) -> MentalDealer:
    """A copy whose state is independent of ``d``'s (the points are immutable bytes)."""
    return d.copy()


def dealer_state(d: MentalDealer) -> tuple[Any, ...]:
    """Everything a message could change in a dealer."""
    return (d.x, d.seed, sorted(d.keys.items()), tuple(d.decks), tuple(d.commits),
            sorted((p, sorted(t.items())) for p, t in d.tokens.items()), sorted(d.cards.items()),
            sorted(d.opened.items()), sorted(d._given))


@dataclass(frozen=True)
class DealerStages:
    layout: Layout
    ctx: DealContext
    messages: tuple[Message, ...]
    states: tuple[tuple[MentalDealer, ...], ...]
    """states[k]: the four seats' and the host's dealers after the first k messages."""
    secrets: tuple[bytes, ...]
    """Every seat's per-hand secret (to tell an honest token from another)."""


@functools.cache
def dealer_stages(dealing: str = MENTAL_POKER) -> DealerStages:
    game = Game.make(CATALOGUE, "tarock54", {}, SEATS, 1, dealing)
    layout = game.layout(game.active(0))
    ctx = DealContext("f0" * 16, 1, 1, SEATS)
    scheme = MentalPoker(dealing)
    rand = _counter_bytes(b"fuzz dealers")
    dealers = [scheme.dealer(ctx, layout, s, rand=rand) for s in range(SEATS)]
    dealers.append(scheme.dealer(ctx, layout, None, host=True, rand=rand))
    messages: list[Message] = []
    states: list[tuple[MentalDealer, ...]] = [tuple(clone_dealer(d) for d in dealers)]

    def deliver(handler: str, author: int, payload: Payload) -> list[Message]:
        messages.append((handler, author, payload))
        out: list[Message] = []
        for d in dealers:
            if handler == "entry":
                out += [("entry", d.seat, o.payload) for o in d.entry(author, payload) if d.seat is not None]
            elif handler == "take":
                d.take(author, payload)
            else:
                d.open(author, payload)
        states.append(tuple(clone_dealer(d) for d in dealers))
        return out

    queue = [("entry", s, o.payload) for s, d in enumerate(dealers[:SEATS]) for o in d.start()]
    while queue:
        handler, author, payload = queue.pop(0)
        queue += deliver(handler, author, payload)
    visible = {s: set(layout.hands[s]) for s in range(SEATS)}
    for s, d in enumerate(dealers[:SEATS]):
        for o in d.shares(visible):
            deliver("take", s, o.payload)
    for s, d in enumerate(dealers[:SEATS]):
        opening = d.opening()
        assert opening is not None
        deliver("open", s, opening)
    secrets = tuple(d.x for d in dealers[:SEATS] if d.x is not None)
    return DealerStages(layout, ctx, tuple(messages), tuple(states), secrets)


def _counter_bytes(tag: bytes) -> Callable[[int], bytes]:
    """Deterministic 'random' bytes (SHA-256 of a tag and a counter)."""
    state = [0]

    def rand(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(tag + state[0].to_bytes(8, "big")).digest()
            state[0] += 1
        return out[:n]
    return rand


# -- a hand's log --------------------------------------------------------------------------------

@dataclass(frozen=True)
class HandStages:
    game: Any
    envs: tuple[Signed, ...]
    secret: Mapping[str, Any]
    template: HandPlay
    """Seat 2's HandPlay at the start (its constructor's arguments are copied from it)."""


@functools.cache
def hand_stages() -> HandStages:
    with tempfile.TemporaryDirectory(prefix="tarock-fuzz-") as tmp:
        pump = make_table(Path(tmp), variant="tarock40", rounds=1, seed=1)
        seat = pump.seats[node_id(SPIED)]
        kept: list[HandPlay] = []
        receive = seat.receive

        def spied(body: object) -> Any:
            out = receive(body)
            if seat.run is not None and (not kept or kept[-1] is not seat.run.play):
                kept.append(seat.run.play)
            return out

        seat.receive = spied  # type: ignore[method-assign]
        for i in range(SEATS):
            pump.join(node_id(i))
        assert pump.done and len(kept) == 1
    play = kept[0]
    assert play.opened and play.attempt == 1
    return HandStages(play.game, tuple(e.env for e in play.log), play.secret(), play)


def fresh_play(stages: HandStages, host: bool = False) -> HandPlay:
    """A new HandPlay of seat 2 (checking every proof), or of the host (``host``: no seat,
    checking who may send what)."""
    t = stages.template
    if host:
        return HandPlay(t.game, t.attempts.ctx, t.begin, t.roster, None, signer=identity(0), host=True,
                        checks=False)
    return HandPlay(t.game, t.attempts.ctx, t.begin, t.roster, SPIED, signer=identity(SPIED), checks=True,
                    secret=stages.secret)


@functools.cache
def _play_at(k: int, host: bool) -> HandPlay:
    stages = hand_stages()
    play = fresh_play(stages, host)
    play.receive_all(stages.envs[:k])
    return play


def play_at(k: int, host: bool = False) -> HandPlay:
    """A fresh copy of seat 2's (or the host's) HandPlay after the first ``k`` entries of the log."""
    return clone_play(_play_at(k, host))


def clone_play(p: HandPlay) -> HandPlay:
    """A copy of ``p`` whose state is independent of it: the log, the attempt (its dealer
    and virtual deal by their own copies) and every container of the hand copied."""
    out = copy.copy(p)
    out.book = p.book.copy()
    out.att = p.att.copy()
    out.att.virtual = p.att.virtual.copy() if p.att.virtual is not None else None
    out.attempts = p.attempts.copy()
    out.voice = p.voice.copy()
    out.opens = dict(p.opens)
    return out


def _fingerprint(value: Any) -> Any:
    if isinstance(value, dict):
        return sorted(((repr(k), _fingerprint(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return [_fingerprint(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(repr(v) for v in value)
    return repr(value)


def play_state(p: HandPlay, logged: bool = True) -> tuple[Any, ...]:
    """Everything an entry could change in a HandPlay (``logged`` False: but the log and
    this node's place in it, and the cheat it marks)."""
    v = p.virtual
    virtual = None if v is None else (sorted(v.known.items()), tuple(v.cards), repr(v.log),
                                      sorted(v.called.items()))
    assert isinstance(p.dealer, MentalDealer)
    a = p.att
    fields: list[Any] = [p.attempt, p.attempts.secrets, p.voice.outbox, p.fault, p.opens, p.done_at, a.ctx,
                         a.steps, a.share_log, a.acts, a.expected, a.readies, a.redeals, a.unknown_before,
                         a.fixed_at, a.ready_owed, a.facts]
    if logged:
        b = p.book
        fields += [b.entries, b.heads, b.chains, b.mine, b.posted, p.tainted]
    return (dealer_state(p.dealer), virtual, _fingerprint(fields))


def refused_cleanly(before: tuple[Any, ...], before_unlogged: tuple[Any, ...], before_len: int,
                    p: HandPlay) -> bool:
    """After a HandFault: nothing changed, or (a cheat well signed and in its place) only the
    log grew by that one entry, marked as the cheat that stops the hand."""
    if play_state(p) == before:
        return True
    return (getattr(p, "tainted", None) is not None and len(p.log) == before_len + 1
            and play_state(p, logged=False) == before_unlogged)


def feed_dealer(dealer: MentalDealer, handler: str, author: int, payload: Payload) -> bool:
    """Give ``payload`` from ``author`` to the dealer's ``handler`` (``entry``, ``take``,
    ``open``): True if taken.  A refusal (PayloadError, DealingFault) must leave the dealer as
    it was: AssertionError otherwise; any other exception escapes."""
    before = dealer_state(dealer)
    try:
        getattr(dealer, handler)(author, payload)
    except (PayloadError, DealingFault):
        assert dealer_state(dealer) == before, "a refused dealing message changed the dealer"
        return False
    return True


def feed_entry(p: HandPlay, env: Signed) -> bool:
    """``p.receive(env)``: True if taken.  A refusal (HandFault) must leave the hand as
    :func:`refused_cleanly` says: AssertionError otherwise; any other exception escapes."""
    before, unlogged, length = play_state(p), play_state(p, logged=False), len(p.log)
    try:
        p.receive(env)
    except HandFault:
        assert refused_cleanly(before, unlogged, length, p), "a refused entry changed the hand"
        return False
    return True


def forge(p: HandPlay, seat: int | None, body: object, **change: Any) -> Signed:
    """An entry of ``seat`` (None: the host) carrying ``body``, signed with the right
    chain and the log's head as ``p`` has them; ``change`` overrides envelope fields
    (before signing, except ``sig``)."""
    author = node_id(0) if seat is None or not 0 <= seat < SEATS else node_id(seat)
    signer = identity(0) if seat is None or not 0 <= seat < SEATS else identity(seat)
    seq, prev = p.book.chains.get((author, seat), (0, ""))
    fields: dict[str, Any] = {"t": Signed.tag, "table": p.ctx.table, "epoch": p.ctx.epoch, "deal": p.ctx.deal,
                              "author": author, "seat": seat, "seq": seq + 1, "prev": prev, "head": p.head,
                              "to": "", "body": body, "sig": "0" * 128}
    sig = change.pop("sig", None)
    fields.update(change)
    fields["sig"] = sig if sig is not None else signer.sign(signed_bytes(fields))
    env = parse(fields, "body")
    assert isinstance(env, Signed)
    return env


__all__ = ["HOST", "SEATS", "SPIED", "DealerStages", "HandStages", "Message", "clone_dealer", "clone_play",
           "dealer_stages", "dealer_state", "forge", "fresh_play", "hand_stages", "play_at", "play_state",
           "refused_cleanly"]
