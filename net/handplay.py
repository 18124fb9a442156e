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
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tarock.core.actions import Action, Play
from tarock.core.engine import IllegalAction
from tarock.core.observation import Observation
from tarock.net.attempt import Attempt
from tarock.net.dealing import (
    HOST,
    DealContext,
    Dealer,
    DealingFault,
    Layout,
    Outgoing,
    PayloadError,
    RandomBytes,
)
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
    inner_of,
    parse,
    plain,
)
from tarock.net.virtual import Saved, VirtualError, VirtualHand

Key = tuple[Any, ...]
"""What one message of this node is (each is sent once): ("act", index), ("ready", attempt), ..."""


@dataclass(frozen=True, slots=True)
class _Before:
    """What an entry may change, kept to undo it if it is refused half-way."""

    attempt: int
    att: Attempt
    virtual: Saved | None
    secrets: dict[int, Mapping[str, Any]]
    outbox: list[tuple[Key, Inner, Author | None]]
    fault: Entry | None
    tainted: tuple[Author | None, str] | None
    opens: dict[Author, Entry]
    done_at: int | None


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
        self.base_ctx = ctx
        self.begin = begin
        self.roster = replace(roster, bots=tuple(begin.bots))
        self.me = me
        self.signer = signer
        self.is_host = host
        self.checks = (me is not None) if checks is None else checks
        self.rand = rand
        self.secrets: dict[int, Mapping[str, Any]] = {int(k): v for k, v in (secret or {}).items()}
        self.book = HandLog(ctx, self.roster, self.seats, host, signer, None if host else me)
        self.attempt = 1
        self._outbox: list[tuple[Key, Inner, Author | None]] = []
        self.att = self._new_attempt()
        self.fault: Entry | None = None
        self.tainted: tuple[Author | None, str] | None = None
        """The cheat this node found in an entry (the hand stops there; the accusation follows)."""
        self.opens: dict[Author, Entry] = {}
        self.done_at: int | None = None
        """The log index after which the hand was over (or stopped by a fault)."""

    def _new_attempt(self) -> Attempt:
        base = self.base_ctx
        ctx = DealContext(base.table, base.epoch, base.deal, base.seats, self.attempt)
        layout: Layout = self.game.layout(self.begin.active)
        dealer: Dealer = self.game.scheme.dealer(ctx, layout, self.me if not self.is_host else None,
                                                 host=self.is_host, secret=self.secrets.get(self.attempt),
                                                 rand=self.rand, checks=self.checks)
        return Attempt(ctx, layout, dealer, self.seats)

    # -- what the attempt and the log hold (read by the host, the seat, the audit) -------------
    @property
    def ctx(self) -> DealContext:
        return self.att.ctx

    @property
    def layout(self) -> Layout:
        return self.att.layout

    @property
    def dealer(self) -> Dealer:
        return self.att.dealer

    @property
    def virtual(self) -> VirtualHand | None:
        return self.att.virtual

    @property
    def acts(self) -> list[Entry]:
        return self.att.acts

    @property
    def log(self) -> list[Entry]:
        return self.book.entries

    @property
    def head(self) -> str:
        return self.book.head

    def secret(self) -> dict[str, Any]:
        """This seat's dealing secrets by attempt (kept in the store before they are used)."""
        out = {str(a): v for a, v in self.secrets.items()}
        out[str(self.attempt)] = self.att.dealer.secret()
        return out

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
    def me_author(self) -> Author | None:
        return HOST if self.is_host else self.me

    @property
    def to_move(self) -> int | None:
        v = self.att.virtual
        if v is None or self.over or not self.ready:
            return None
        return v.hand.state.to_move

    def waiting(self) -> tuple[list[Author], bool]:
        """Whose entry the hand waits for now, and whether a player's decision is awaited
        (``True``) or a step no person takes (the deal, shares, readies, openings)."""
        att = self.att
        if self.over:
            return [a for a in att.dealer.openers() if a not in self.opens], False
        if not att.dealer.fixed:
            return list(att.dealer.waiting()), False
        k = len(att.acts)
        if not att.step_complete(k):
            return sorted(att.expected_steps(k) - set(att.steps.get(k, {}))), False
        if len(att.readies) < self.seats:
            return [s for s in range(self.seats) if s not in att.readies], False
        seat = self.to_move
        return ([seat] if seat is not None else []), True

    # -- the log ---------------------------------------------------------------------------
    def receive(self, env: Signed, send: bool = True) -> list[Out]:
        """The next entry of the log (HandFault if it breaks a rule; nothing changes then
        except that the hand cannot go on).  ``send`` False: keep what this node must send
        for :meth:`flush` (a snapshot, whose later entries may hold this node's own)."""
        author = self.book.author(env)
        try:
            msg = inner_of(env)
        except MessageError as exc:
            raise HandFault(f"a malformed entry: {exc}", author) from None
        assert isinstance(msg, Inner)
        entry, seen = self.book.entry(env, author, msg)
        mine = self.book.mine_of(env, author, self.me_author)
        key = self._key(msg)
        before = self._save()
        try:
            self._apply(entry, seen)
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
        return _Before(self.attempt, self.att.copy(), v.save() if v is not None else None, dict(self.secrets),
                       list(self._outbox), self.fault, self.tainted, dict(self.opens), self.done_at)

    def _restore(self, before: _Before) -> None:
        self.attempt, self.att = before.attempt, before.att
        if before.att.virtual is not None and before.virtual is not None:
            before.att.virtual.restore(before.virtual)
        self.secrets, self._outbox, self.opens = before.secrets, before.outbox, before.opens
        self.fault, self.tainted, self.done_at = before.fault, before.tainted, before.done_at

    def _key(self, msg: Inner) -> Key:
        if isinstance(msg, Dealing):
            t = msg.payload.get("t") if isinstance(msg.payload, Mapping) else None
            return ("dealing", self.attempt, t)
        if isinstance(msg, Step):
            return ("step", self.attempt, msg.index)
        if isinstance(msg, Act):
            return ("act", msg.index)
        if isinstance(msg, Ready):
            return ("ready", self.attempt)
        return (msg.tag,)

    def _apply(self, entry: Entry, seen: int) -> None:
        msg, author = entry.msg, entry.author
        if not self.book.entries:
            if not isinstance(msg, Begin) or author != HOST or msg != self.begin:
                raise HandFault("a hand's log must start with the host's begin", HOST)
            self._queue_dealing(self.att.dealer.start())
            return
        if isinstance(msg, Begin):
            raise HandFault("a second begin", HOST)
        if isinstance(msg, Fault):
            if self.fault is None:
                self.fault = entry
                if self.done_at is None:
                    self.done_at = entry.index
                self._open()
            return
        if isinstance(msg, Opened):
            self._on_open(entry, seen)
            return
        if self.fault is not None or self.tainted is not None:
            return  # sent before its author saw the hand stop: in the log, but it changes nothing
        if self.over:
            raise HandFault(f"{msg.tag!r} after the hand is over", author)
        handler = {Dealing: self._on_dealing, Step: self._on_step, Ready: self._on_ready,
                   Act: self._on_act}.get(type(msg))
        if handler is None:
            raise HandFault(f"{msg.tag!r} is no entry of a hand's log", author)
        try:
            handler(entry, seen)
        except (PayloadError, VirtualError) as exc:
            raise HandFault(f"{who(author)}: {exc}", author) from None
        except DealingFault as exc:
            raise HandFault(exc.reason, exc.seat) from None

    # -- dealing ------------------------------------------------------------------------------
    def _queue_dealing(self, items: Sequence[Outgoing]) -> None:
        if self.me_author is None:
            return
        for item in items:
            body = Dealing(item.payload)
            key = (self._key(body) if item.to is None
                   else ("private", self.attempt, item.payload.get("t"), item.to))
            self._outbox.append((key, body, item.to))

    def private(self, author: Author, env: Signed) -> list[Out]:
        """A dealing message sent to this node alone (commit-reveal: seeds to the host, cards
        to a seat); HandFault if it is not one."""
        self.book.private(env)
        att = self.att
        try:
            msg = parse(env.body, "inner")
            if not isinstance(msg, Dealing):
                raise MessageError("only dealing messages are private")
            if isinstance(msg.payload, Mapping) and msg.payload.get("t") == "cards":
                learned, _ = att.dealer.take(author, msg.payload, public=False)
                if att.virtual is not None:
                    att.virtual.learn(learned)
                    if att.ready_owed and att.step_complete(0) and not att.acts:
                        self._ready()
            else:
                self._queue_dealing(att.dealer.entry(author, msg.payload))
                self._fixed()
        except (MessageError, PayloadError) as exc:
            raise HandFault(f"{who(author)}: {exc}", author) from None
        except DealingFault as exc:
            raise HandFault(exc.reason, exc.seat) from None
        return self.flush()

    def _on_dealing(self, entry: Entry, seen: int) -> None:
        assert isinstance(entry.msg, Dealing)
        if self.att.dealer.fixed:
            raise HandFault(f"{who(entry.author)} sent a dealing message after the deal was fixed",
                            entry.author)
        self._queue_dealing(self.att.dealer.entry(entry.author, entry.msg.payload))
        self._fixed(entry.index)

    def _fixed(self, index: int | None = None) -> None:
        att = self.att
        if not att.dealer.fixed or att.virtual is not None:
            return
        entries = self.book.entries
        att.fixed_at = index if index is not None else (entries[-1].index if entries else 0)
        att.virtual = VirtualHand(self.rules, self.seats, self.begin.dealer, self.begin.active,
                                  self.me if not self.is_host else None, dict(att.dealer.known()))
        att.unknown_before = set(range(len(att.layout.deck))) - att.readable_by_someone()
        att.open_step(0)
        self._contribute(0)

    # -- steps -----------------------------------------------------------------------------------
    def _contribute(self, k: int) -> None:
        """Open step ``k``: this node's shares and facts, if it is a contributor but not the actor."""
        me, att = self.me_author, self.att
        if me is None or me not in att.expected_steps(k) or att.virtual is None:
            return
        share: Any = None
        for item in att.dealer.shares(att.virtual.visible_all()):
            if item.to is None:
                share = item.payload
            else:
                self._outbox.append((("private", self.attempt, "cards", k, item.to), Dealing(item.payload),
                                     item.to))
        facts = att.virtual.facts() if me != HOST else {}
        self._outbox.append((("step", self.attempt, k), Step(k, share, facts), None))

    def _on_step(self, entry: Entry, seen: int) -> None:
        msg, author, att = entry.msg, entry.author, self.att
        assert isinstance(msg, Step)
        k = len(att.acts)
        if not att.dealer.fixed or att.virtual is None:
            raise HandFault(f"{who(author)} sent a step before the deal was fixed", author)
        if msg.index != k:
            raise HandFault(f"{who(author)} sent step {msg.index} at step {k}", author)
        if author not in att.expected_steps(k) or author in att.steps.get(k, {}):
            raise HandFault(f"{who(author)} may not send step {k} (again)", author)
        opened = att.acts[-1].index if att.acts else (att.fixed_at or 0)
        if seen < opened:
            raise HandFault(f"{who(author)} sent step {k} before it saw what opened it", author)
        att.take(author, msg.share, k, "step")
        att.vouch(author, msg.facts, k)
        att.steps.setdefault(k, {})[author] = entry
        if att.step_complete(k):
            self._step_done(k)

    def _step_done(self, k: int) -> None:
        """Every share of step ``k`` is in (a seat that withheld its share is named); after
        the deal's step, this seat says whether it is ready."""
        self.att.check_shown()
        if k == 0 and self.me is not None and not self.is_host and self.me < self.seats:
            self._ready()

    # -- ready, redeal ----------------------------------------------------------------------------
    def _ready(self) -> None:
        att = self.att
        assert att.virtual is not None and self.me is not None
        mine = att.hand_of(self.me)
        if mine is None:
            # Its cards are private and not here yet (commit-reveal, a node that restarts and is
            # sent the log before them): ready follows when they come (:meth:`private`).
            att.ready_owed = True
            return
        att.ready_owed = False
        reason = att.redeal_reason(self.me, mine) or ""
        share: Any = None
        if reason:
            shown = {s: set(att.layout.hands[self.me]) for s in range(self.seats) if s != self.me}
            items = att.dealer.shares(shown)
            share = items[0].payload if items else None
        self._outbox.append((("ready", self.attempt), Ready(reason[:200], share), None))

    def _on_ready(self, entry: Entry, seen: int) -> None:
        msg, author, att = entry.msg, entry.author, self.att
        assert isinstance(msg, Ready)
        if author == HOST or not att.step_complete(0) or att.acts or author in att.readies:
            raise HandFault(f"{who(author)} may not say ready now", author)
        last = max(e.index for e in att.steps[0].values()) if att.steps.get(0) else 0
        if seen < last:
            raise HandFault(f"{who(author)} said ready before it saw every share of the deal", author)
        att.readies[author] = entry
        if msg.redeal:
            att.take(author, msg.share, 0, "redeal")
            hand = att.hand_of(author)
            if hand is None:
                raise HandFault(f"seat {author} claims a redeal without showing its hand", author)
            if att.redeal_reason(author, hand) is None:
                raise HandFault(f"seat {author} claims a redeal its hand does not call for", author)
            att.redeals[author] = msg.redeal
        elif msg.share is not None:
            raise HandFault(f"seat {author} showed its hand without a redeal", author)
        if len(att.readies) == self.seats and att.redeals:
            if self.attempt >= 1000:
                raise HandFault("no acceptable deal in 1000 attempts", None)
            self.secrets[self.attempt] = att.dealer.secret()
            self.attempt += 1
            self.att = self._new_attempt()
            self._queue_dealing(self.att.dealer.start())

    # -- actions --------------------------------------------------------------------------------
    def _on_act(self, entry: Entry, seen: int) -> None:
        msg, author, att = entry.msg, entry.author, self.att
        assert isinstance(msg, Act)
        k = len(att.acts)
        if author == HOST or not self.ready or att.virtual is None or not att.step_complete(k):
            raise HandFault(f"{who(author)} acted before the hand was ready for it", author)
        if msg.index != k:
            raise HandFault(f"{who(author)} sent action {msg.index} as the hand's action {k}", author)
        if att.virtual.hand.state.to_move != author:
            raise HandFault(f"{who(author)} acted out of turn", author)
        waited = [e.index for e in att.steps.get(k, {}).values()] + [e.index for e in att.readies.values()]
        if seen < max(waited, default=0):
            raise HandFault(f"{who(author)} acted before it saw the hand's last step", author)
        # Shares only accumulate: a position someone could read stays readable, so only the
        # positions nobody could read at the last act need asking again.
        att.unknown_before -= att.readable_by_someone(att.unknown_before)
        att.take(author, msg.share, k + 1, "act")
        before = att.virtual.visible_all() if att.dealer.public_shares else None
        action = att.virtual.play_other(author, msg.action)
        att.vouch(author, msg.facts, k + 1)
        att.acts.append(entry)
        if att.virtual.hand.done:
            self.done_at = entry.index
            self._open()
            return
        att.open_step(k + 1, before if isinstance(action, Play) else None)
        if att.step_complete(k + 1):
            self._step_done(k + 1)  # nobody owes this step: the next action may follow at once
        self._contribute(k + 1)

    def decide(self, index: int, action: Action) -> tuple[list[Out], str | None]:
        """This node's player chose ``action`` for the decision ``index``: the act to send, or
        the reason it is refused ([] and None: the hand moved on)."""
        v = self.att.virtual
        if self.me is None or v is None or self.to_move != self.me or index != len(self.att.acts) \
                or ("act", index) in self.book.posted or not self.att.step_complete(index):
            return [], None
        trial = v.copy()
        try:
            plain_action = trial.play_own(action)
        except IllegalAction as exc:
            return [], f"{exc.reason.code}: {exc.reason.message}"
        visible: Mapping[int, Iterable[int]]
        if not trial.hand.done:
            visible = trial.visible_all()
        else:
            at = trial.position_of
            played = {at[c] for t in trial.hand.state.tricks for c in t.cards}
            visible = {s: played for s in range(self.seats)}
        items = self.att.dealer.shares(visible)
        share = items[0].payload if items else None
        self._outbox.append((("act", index), Act(index, plain_action, share, trial.facts()), None))
        return self.flush(), None

    def ask(self) -> Ask | None:
        """The decision this node's player must make now, if any."""
        v = self.att.virtual
        if self.me is None or v is None or self.is_host or self.to_move != self.me:
            return None
        k = len(self.att.acts)
        if ("act", k) in self.book.posted or not self.att.step_complete(k):
            return None
        return Ask(v.observation(), k)

    def observation(self) -> Observation | None:
        v = self.att.virtual
        return v.observation() if v is not None else None

    # -- faults, the end -------------------------------------------------------------------------
    def accuse(self, culprit: str, reason: str) -> list[Out]:
        """Tell every node that someone cheats (the hand stops; every secret is opened)."""
        if self.me_author is None or self.fault is not None:
            return []
        self._outbox.append((("fault",), Fault(culprit, reason[:200]), None))
        return self.flush()

    def _open(self) -> None:
        me = self.me_author
        if me is None or me not in self.att.dealer.openers():
            return
        opening = self.att.dealer.opening()
        if opening is not None:
            self._outbox.append((("open",), Opened(opening), None))

    def _on_open(self, entry: Entry, seen: int) -> None:
        msg, author = entry.msg, entry.author
        assert isinstance(msg, Opened)
        if self.done_at is None or author in self.opens or author not in self.att.dealer.openers():
            raise HandFault(f"{who(author)} opened its secrets out of place", author)
        if seen < self.done_at:
            raise HandFault(f"{who(author)} opened before the hand was over", author)
        try:
            self.att.dealer.open(author, msg.opening)
        except PayloadError as exc:
            raise HandFault(f"{who(author)}: {exc}", author) from None
        except DealingFault as exc:
            raise HandFault(exc.reason, exc.seat) from None
        self.opens[author] = entry

    # -- sending ----------------------------------------------------------------------------------
    def flush(self) -> list[Out]:
        """Sign and return what this node must send (what the log already holds of it is dropped)."""
        out: list[Out] = []
        queue, self._outbox = self._outbox, []
        for key, body, to in queue:
            if key in self.book.posted:
                continue
            self.book.posted.add(key)
            out.append(Out(self.sign(body, to), to))
        return out

    def sign(self, body: Inner, to: Author | None = None) -> Signed:
        """An envelope of this node: in the log (the next of its chain), or private."""
        return self.book.sign(body, to)


__all__ = ["Ask", "Entry", "HandFault", "HandPlay", "Out", "Roster", "entry_hash", "next_head", "plain",
           "roster_of"]
