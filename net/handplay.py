"""One hand as one node follows it: the hand's log, checked entry by entry, sans-IO.

Every message of a hand is an entry of its *log*: signed by its author (a
seat, or the host in its own role), bound to the table, epoch, deal, the
author's seat, its sequence number and previous message (a chain per author),
and to the log as the author last saw it (``head``, the running hash).  The
host orders the log and sends every entry to every node; every node runs a
:class:`HandPlay` over it and so arrives at the same state.  The host's and a
watcher's HandPlay know no hand (``me`` None); a seat's knows its own cards
through its dealer.

The hand goes: ``begin`` (host); the dealing scheme's entries until the deal is
fixed; step 0 (each contributor's shares of what each seat sees after the
deal); ``ready`` from every seat (or a redeal, shown); then for each action:
``act`` from the seat to move (with its shares and facts), and a ``step`` from
every contributor but the actor that owes one (:meth:`HandPlay._contribute`); at
the hand's end (or after a ``fault``) every opener's ``open``; then the audit
(:mod:`net.audit`) rebuilds the deal and replays the hand through the normal
engine.  A rule broken anywhere raises :class:`HandFault` naming the author at
fault.

This module is the state machine: which entry may come when (the ``_*_in_order``
checks) and what follows it.  Around it: :mod:`net.handlog` keeps the log (chains,
signatures, heads), :mod:`net.attempt` the state of each attempt at the deal and
what an entry records in it, :mod:`net.handvoice` writes what this node says.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from tarock.core.actions import Action
from tarock.core.observation import Observation
from tarock.net.attempt import Attempt, Attempts
from tarock.net.dealing import (
    HOST,
    DealContext,
    Dealer,
    DealingFault,
    Layout,
    PayloadError,
    RandomBytes,
)
from tarock.net.forward import Forward
from tarock.net.handlog import (
    Ask,
    Author,
    Entry,
    HandFault,
    HandLog,
    Out,
    Roster,
    entry_hash,
    next_head,
    roster_of,
    who,
)
from tarock.net.handvoice import Voice, key_of
from tarock.net.identity import Identity
from tarock.net.protocol.messages import (
    Act,
    Begin,
    Dealing,
    Fault,
    Inner,
    MessageError,
    Opened,
    Ready,
    Signed,
    Step,
    parse,
    plain,
)
from tarock.net.virtual import Saved, VirtualError, VirtualHand


@dataclass(frozen=True, slots=True)
class _Before:
    """What an entry may change, kept to undo it if it is refused half-way."""

    att: Attempt
    virtual: Saved | None
    attempts: Attempts
    voice: Voice
    fault: Entry | None
    tainted: tuple[Author | None, str] | None
    opens: dict[Author, Entry]
    done_at: int | None


@contextmanager
def _blamed(author: Author, *errors: type[Exception]) -> Iterator[None]:
    """One of ``errors`` raised for ``author``'s message as a HandFault naming it (a dealing
    fault names the seat it names)."""
    try:
        yield
    except errors as exc:
        raise HandFault(f"{who(author)}: {exc}", author) from None
    except DealingFault as exc:
        raise HandFault(exc.reason, exc.seat) from None


# -- the order of a hand: which entry may come now (checks only; the entry changes nothing yet) --
def _step_in_order(att: Attempt, author: Author, index: int, seen: int) -> int:
    """The step ``index`` from ``author`` (who saw the log up to ``seen``) is the one owed now:
    its number, or HandFault."""
    k = len(att.acts)
    if not att.dealer.fixed or att.virtual is None:
        raise HandFault(f"{who(author)} sent a step before the deal was fixed", author)
    if index != k:
        raise HandFault(f"{who(author)} sent step {index} at step {k}", author)
    if author not in att.expected_steps(k) or author in att.steps.get(k, {}):
        raise HandFault(f"{who(author)} may not send step {k} (again)", author)
    opened = att.acts[-1].index if att.acts else (att.fixed_at or 0)
    if seen < opened:
        raise HandFault(f"{who(author)} sent step {k} before it saw what opened it", author)
    return k


def _ready_in_order(att: Attempt, author: Author, seen: int) -> None:
    """``author`` may say ready (or claim a redeal) now, having seen every share of the deal."""
    if author == HOST or not att.step_complete(0) or att.acts or author in att.readies:
        raise HandFault(f"{who(author)} may not say ready now", author)
    last = max(e.index for e in att.steps[0].values()) if att.steps.get(0) else 0
    if seen < last:
        raise HandFault(f"{who(author)} said ready before it saw every share of the deal", author)


def _act_in_order(att: Attempt, author: Author, index: int, seen: int, ready: bool) -> int:
    """``author`` is to move, the action ``index`` is the hand's next and its author saw the
    hand's last step (``ready``: every seat said ready): the action's number, or HandFault."""
    k = len(att.acts)
    if author == HOST or not ready or att.virtual is None or not att.step_complete(k):
        raise HandFault(f"{who(author)} acted before the hand was ready for it", author)
    if index != k:
        raise HandFault(f"{who(author)} sent action {index} as the hand's action {k}", author)
    if att.virtual.hand.state.to_move != author:
        raise HandFault(f"{who(author)} acted out of turn", author)
    waited = [e.index for e in att.steps.get(k, {}).values()] + [e.index for e in att.readies.values()]
    if seen < max(waited, default=0):
        raise HandFault(f"{who(author)} acted before it saw the hand's last step", author)
    return k


def _open_in_order(att: Attempt, author: Author, seen: int, done_at: int | None,
                   opens: Mapping[Author, Entry]) -> None:
    """``author`` opens its secrets once, after it saw the hand end (at ``done_at``)."""
    if done_at is None or author in opens or author not in att.dealer.openers():
        raise HandFault(f"{who(author)} opened its secrets out of place", author)
    if seen < done_at:
        raise HandFault(f"{who(author)} opened before the hand was over", author)


class HandPlay:
    """One node's view of one hand (``me``: its seat; None for the host or a watcher).

    ``signer`` signs this node's entries as ``seat`` (its own seat, or for the host
    None, or a seat its bot plays); ``host``: this is the host's dealer in
    commit-reveal; ``checks``: verify every proof and point (seats), or only who may
    send what (the host and watchers follow the hand; the audit names a cheat).
    """

    def __init__(self, game: Any, ctx: DealContext, begin: Begin, roster: Roster, me: int | None, *,
                 signer: Identity | None = None, host: bool = False, checks: bool | None = None,
                 secret: Mapping[str, Any] | None = None, rand: RandomBytes = os.urandom) -> None:
        self.game = game
        self.rules = game.rules
        self.seats: int = game.seats
        self.begin = begin
        self.roster = replace(roster, bots=tuple(begin.bots))
        self.me = me
        self.signer = signer
        self.is_host = host
        self.book = HandLog(ctx, self.roster, self.seats, host, signer, None if host else me)
        self.voice = Voice(me, host, self.seats)
        self.attempts = Attempts(game, ctx, begin.active, None if host else me, host=host, rand=rand,
                                 checks=(me is not None) if checks is None else checks,
                                 secrets={int(k): v for k, v in (secret or {}).items()})
        self.att = self.attempts.start()
        self.fault: Entry | None = None
        self.tainted: tuple[Author | None, str] | None = None
        """The cheat this node found in an entry (the hand stops there; the accusation follows)."""
        self.opens: dict[Author, Entry] = {}
        self.done_at: int | None = None
        """The log index after which the hand was over (or stopped by a fault)."""

    # -- what the attempt and the log hold (read by the host, the seat, the audit) -------------
    ctx = Forward[DealContext]("att")
    layout = Forward[Layout]("att")
    dealer = Forward[Dealer]("att")
    virtual = Forward[VirtualHand | None]("att")
    acts = Forward[list[Entry]]("att")
    log = Forward[list[Entry]]("book", "entries")
    head = Forward[str]("book")

    @property
    def attempt(self) -> int:
        return self.att.ctx.attempt

    def secret(self) -> dict[str, Any]:
        """This seat's dealing secrets by attempt (kept in the store before they are used)."""
        return self.attempts.secret(self.att)

    def step_complete(self, k: int) -> bool:
        return self.att.step_complete(k)

    @property
    def ready(self) -> bool:
        return len(self.att.readies) == self.seats and not self.att.redeals

    @property
    def cards_owed(self) -> bool:
        """This seat would say ready but its private cards never came (commit-reveal: only
        the host sends them)."""
        return self.att.ready_owed and ("ready", self.attempt) not in self.book.posted

    @property
    def over(self) -> bool:
        return self.done_at is not None

    @property
    def opened(self) -> bool:
        return self.done_at is not None and all(a in self.opens for a in self.att.dealer.openers())

    @property
    def to_move(self) -> int | None:
        v = self.att.virtual
        if v is None or self.over or not self.ready:
            return None
        return v.hand.state.to_move

    def waiting(self) -> tuple[list[Author], bool]:
        """Whose entry the hand waits for now, and whether a player's decision is awaited
        (``True``) or a step no person takes (the deal, shares, readies, openings)."""
        if self.over:
            return [a for a in self.att.dealer.openers() if a not in self.opens], False
        return self.att.waiting(self.to_move)

    # -- the log ---------------------------------------------------------------------------
    def receive(self, env: Signed, send: bool = True) -> list[Out]:
        """The next entry of the log (HandFault if it breaks a rule; nothing changes then
        except that the hand cannot go on).  ``send`` False: keep what this node must send
        for :meth:`flush` (a snapshot, whose later entries may hold this node's own).

        An act, the hand's busiest entry, is carried out here (:meth:`Attempt.act` plays it on
        the virtual deal); every other entry goes to its handler."""
        author = self.book.author(env)
        entry, seen = self.book.entry(env, author)
        mine = self.book.mine_of(env, author, self.voice.author)
        msg = entry.msg
        key = key_of(msg, self.attempt)
        before = self._save()
        try:
            takes = self._takes(entry)
            if takes and isinstance(msg, Act):
                k = _act_in_order(self.att, author, msg.index, seen, self.ready)
                with _blamed(author, PayloadError, VirtualError):
                    self._acted(entry, k, self.att.act(entry, msg, k))
            elif takes and isinstance(msg, Opened):
                self._on_open(entry, seen)
            elif takes:
                handler = {Dealing: self._on_dealing, Step: self._on_step, Ready: self._on_ready}[type(msg)]
                with _blamed(author, PayloadError, VirtualError):
                    handler(entry, seen)
        except HandFault as exc:
            self._restore(before)  # a refused entry changes nothing, not even what it did half-way
            if exc.author == HOST or self.tainted is not None:
                raise
            # Well signed and in its place, but it cheats: the entry stays in this node's log
            # (the accusation and the openings that follow refer to it), and the hand stops.
            self.tainted = (exc.author, exc.reason)
            self.book.append(entry, key, mine)
            raise
        self.book.append(entry, key, mine)
        return self.flush() if send else []

    def receive_all(self, envs: Iterable[Signed]) -> list[Out]:
        """A snapshot: every entry so far; what this node must still send comes after."""
        for env in envs:
            self.receive(env, send=False)
        return self.flush()

    def _save(self) -> _Before:
        v = self.att.virtual
        return _Before(self.att.copy(), v.save() if v is not None else None, self.attempts.copy(),
                       self.voice.copy(), self.fault, self.tainted, dict(self.opens), self.done_at)

    def _restore(self, before: _Before) -> None:
        self.att = before.att
        if before.att.virtual is not None and before.virtual is not None:
            before.att.virtual.restore(before.virtual)
        self.attempts, self.voice, self.opens = before.attempts, before.voice, before.opens
        self.fault, self.tainted, self.done_at = before.fault, before.tainted, before.done_at

    def _takes(self, entry: Entry) -> bool:
        """Whether ``entry`` changes the hand (False: it is in the log, but changes nothing);
        HandFault for an entry out of place.  The begin and a fault are taken here."""
        msg, author = entry.msg, entry.author
        if not self.book.entries:
            if not isinstance(msg, Begin) or author != HOST or msg != self.begin:
                raise HandFault("a hand's log must start with the host's begin", HOST)
            self.voice.dealing(self.att, self.att.dealer.start())
            return False
        if isinstance(msg, Begin):
            raise HandFault("a second begin", HOST)
        if isinstance(msg, Fault):
            if self.fault is None:
                self.fault = entry
                if self.done_at is None:
                    self.done_at = entry.index
                self.voice.open(self.att)
            return False
        if isinstance(msg, Opened):
            return True
        if self.fault is not None or self.tainted is not None:
            return False  # sent before its author saw the hand stop: in the log, but it changes nothing
        if self.over:
            raise HandFault(f"{msg.tag!r} after the hand is over", author)
        if not isinstance(msg, Dealing | Step | Ready | Act):
            raise HandFault(f"{msg.tag!r} is no entry of a hand's log", author)
        return True

    # -- dealing ------------------------------------------------------------------------------
    def private(self, author: Author, env: Signed) -> list[Out]:
        """A dealing message sent to this node alone (commit-reveal: seeds to the host, cards
        to a seat); HandFault if it is not one."""
        self.book.private(env)
        att = self.att
        with _blamed(author, MessageError, PayloadError):
            msg = parse(env.body, "inner")
            if not isinstance(msg, Dealing):
                raise MessageError("only dealing messages are private")
            if isinstance(msg.payload, Mapping) and msg.payload.get("t") == "cards":
                if att.learn_cards(author, msg.payload):
                    self.voice.ready(att)
            else:
                self.voice.dealing(self.att, att.dealer.entry(author, msg.payload))
                self._fixed()
        return self.flush()

    def _on_dealing(self, entry: Entry, seen: int) -> None:
        assert isinstance(entry.msg, Dealing)
        if self.att.dealer.fixed:
            raise HandFault(f"{who(entry.author)} sent a dealing message after the deal was fixed",
                            entry.author)
        self.voice.dealing(self.att, self.att.dealer.entry(entry.author, entry.msg.payload))
        self._fixed(entry.index)

    def _fixed(self, index: int | None = None) -> None:
        att = self.att
        if not att.dealer.fixed or att.virtual is not None:
            return
        entries = self.book.entries
        att.fix(index if index is not None else (entries[-1].index if entries else 0),
                VirtualHand(self.rules, self.seats, self.begin.dealer, self.begin.active,
                            self.me if not self.is_host else None, dict(att.dealer.known())))
        self._contribute(0)

    # -- steps -----------------------------------------------------------------------------------
    def _contribute(self, k: int) -> None:
        """Open step ``k``: this node's shares and facts, if it is a contributor but not the actor."""
        self.voice.contribute(self.att, k)

    def _on_step(self, entry: Entry, seen: int) -> None:
        msg, author, att = entry.msg, entry.author, self.att
        assert isinstance(msg, Step)
        k = _step_in_order(att, author, msg.index, seen)
        att.step(entry, msg, k)
        if att.step_complete(k):
            self._step_done(k)

    def _step_done(self, k: int) -> None:
        """Every share of step ``k`` is in (a seat that withheld its share is named); after
        the deal's step, this seat says whether it is ready."""
        self.att.check_shown()
        if k == 0 and self.me is not None and not self.is_host and self.me < self.seats:
            self.voice.ready(self.att)

    # -- ready, redeal ----------------------------------------------------------------------------
    def _on_ready(self, entry: Entry, seen: int) -> None:
        msg, author, att = entry.msg, entry.author, self.att
        assert isinstance(msg, Ready)
        _ready_in_order(att, author, seen)
        att.readies[author] = entry
        att.redeal(author, msg.redeal, msg.share)
        if len(att.readies) == self.seats and att.redeals:
            self.att = self.attempts.redeal(att)
            self.voice.dealing(self.att, self.att.dealer.start())

    # -- actions --------------------------------------------------------------------------------
    def _acted(self, entry: Entry, k: int, shown: Mapping[int, frozenset[int]] | None) -> None:
        """The action ``k`` of ``entry`` was played: the hand is over (every secret is opened
        next), or the next step opens (``shown``: what each seat saw before a card played)."""
        att = self.att
        if att.done:
            self.done_at = entry.index
            self.voice.open(self.att)
            return
        att.open_step(k + 1, shown)
        if att.step_complete(k + 1):
            self._step_done(k + 1)  # nobody owes this step: the next action may follow at once
        self._contribute(k + 1)

    def decide(self, index: int, action: Action) -> tuple[list[Out], str | None]:
        """This node's player chose ``action`` for the decision ``index``: the act to send, or
        the reason it is refused ([] and None: the hand moved on)."""
        if self.voice.turn(self.att, self.to_move, self.book.posted) != index:
            return [], None
        refused = self.voice.act(self.att, index, action)
        return ([], refused) if refused is not None else (self.flush(), None)

    def ask(self) -> Ask | None:
        """The decision this node's player must make now, if any."""
        return self.voice.ask(self.att, self.to_move, self.book.posted)

    def observation(self) -> Observation | None:
        v = self.att.virtual
        return v.observation() if v is not None else None

    # -- faults, the end -------------------------------------------------------------------------
    def accuse(self, culprit: str, reason: str) -> list[Out]:
        """Tell every node that someone cheats (the hand stops; every secret is opened)."""
        if self.fault is None and self.voice.accuse(culprit, reason):
            return self.flush()
        return []

    def _on_open(self, entry: Entry, seen: int) -> None:
        msg, author = entry.msg, entry.author
        assert isinstance(msg, Opened)
        _open_in_order(self.att, author, seen, self.done_at, self.opens)
        with _blamed(author, PayloadError):
            self.att.dealer.open(author, msg.opening)
        self.opens[author] = entry

    # -- sending ----------------------------------------------------------------------------------
    def flush(self) -> list[Out]:
        """Sign and return what this node must send (what the log already holds of it is dropped)."""
        return [Out(self.sign(body, to), to) for body, to in self.voice.take(self.book.posted)]

    def sign(self, body: Inner, to: Author | None = None) -> Signed:
        """An envelope of this node: in the log (the next of its chain), or private."""
        return self.book.sign(body, to)


__all__ = ["Ask", "Entry", "HandFault", "HandPlay", "Out", "Roster", "entry_hash", "next_head", "plain",
           "roster_of"]
