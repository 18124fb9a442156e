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
every contributor but the actor that owes one (:meth:`HandPlay._open_step`); at
the hand's end (or after a ``fault``) every opener's ``open``; then the audit
(:mod:`net.audit`) rebuilds the deal and replays the hand through the normal
engine.  A rule broken anywhere raises :class:`HandFault` naming the author at
fault.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tarock.core.actions import Action, Play
from tarock.core.engine import IllegalAction
from tarock.core.observation import Observation
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
from tarock.net.identity import Identity, envelope_hash, signed_bytes, verify
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
    dump,
    inner_of,
    parse,
    plain,
)
from tarock.net.virtual import VirtualError, VirtualHand

LOG_TAG = b"tarock-log/1\x00"
Author = int
"""A seat, or :data:`net.dealing.HOST`."""


class HandFault(Exception):
    """An entry that breaks the rules of the hand: ``author`` is at fault (HOST: the host;
    None: nobody can be named yet, the audit will)."""

    def __init__(self, reason: str, author: Author | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.author = author


def entry_hash(env: Signed) -> str:
    """The envelope's hash (:func:`net.identity.envelope_hash`), once per envelope."""
    return env.hash


def next_head(head: str, entry_hash: str) -> str:
    """The log's running hash after an entry: SHA-256(``"tarock-log/1" 0x00`` || the hash
    before (32 bytes; nothing for the first entry) || the entry's hash), hex."""
    before = bytes.fromhex(head) if head else b""
    return hashlib.sha256(LOG_TAG + before + bytes.fromhex(entry_hash)).hexdigest()


@dataclass(frozen=True, slots=True)
class Entry:
    index: int
    author: Author
    env: Signed
    msg: Inner
    hash: str
    head: str
    """The running hash after this entry."""


@dataclass(frozen=True, slots=True)
class Out:
    """A signed message of this node: for the log, or private (``to``: a seat or HOST)."""

    env: Signed
    to: Author | None = None


@dataclass(frozen=True, slots=True)
class Ask:
    """This node's player is to move: ``obs`` is its observation, ``index`` the action's."""

    obs: Observation
    index: int


@dataclass
class Roster:
    """Who may author what: every seat's node and key, the host's, the seats its bots play."""

    nodes: tuple[str, ...]
    keys: tuple[bytes, ...]
    host: str
    host_key: bytes
    bots: tuple[int, ...] = ()

    def key_of(self, author_node: str, seat: int | None) -> bytes | None:
        if seat is None:
            return self.host_key if author_node == self.host else None
        if not 0 <= seat < len(self.nodes):
            return None
        if seat in self.bots:
            return self.host_key if author_node == self.host else None
        return self.keys[seat] if author_node == self.nodes[seat] else None

    def node_of(self, seat: int) -> str:
        """The node that plays ``seat`` in this hand: the host's for a seat its bot plays (a
        private message to that seat goes to the host's node, where the bot is), else the seat's."""
        return self.host if seat in self.bots else self.nodes[seat]


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
        self.seats = game.seats
        self.base_ctx = ctx
        self.begin = begin
        self.roster = replace(roster, bots=tuple(begin.bots))
        self.me = me
        self.signer = signer
        self.is_host = host
        self.checks = (me is not None) if checks is None else checks
        self.rand = rand
        self.secrets: dict[int, Mapping[str, Any]] = {}
        if secret:
            self.secrets = {int(k): v for k, v in secret.items()}
        self.log: list[Entry] = []
        self.heads: dict[str, int] = {}
        self.chains: dict[tuple[str, int | None], tuple[int, str]] = {}
        """(author node, seat) -> (seq, hash) of its last entry in the log."""
        self._mine: tuple[int, str] = (0, "")
        """This node's last signed entry (sent; the log may not hold it yet)."""
        self.attempt = 1
        self._outbox: list[tuple[tuple[Any, ...], Inner, Author | None]] = []
        self._posted: set[tuple[Any, ...]] = set()
        self._new_attempt()
        self.fault: Entry | None = None
        self.tainted: tuple[Author | None, str] | None = None
        """The cheat this node found in an entry (the hand stops there; the accusation follows)."""
        self.opens: dict[Author, Entry] = {}
        self.done_at: int | None = None
        """The log index after which the hand was over (or stopped by a fault)."""
        self.result: Any = None

    # -- the deal's state, per attempt ---------------------------------------------------------
    def _new_attempt(self) -> None:
        self.ctx = DealContext(self.base_ctx.table, self.base_ctx.epoch, self.base_ctx.deal,
                               self.base_ctx.seats, self.attempt)
        self.layout: Layout = self.game.layout(self.begin.active)
        seat = self.me if not self.is_host else None
        self.dealer: Dealer = self.game.scheme.dealer(self.ctx, self.layout, seat, host=self.is_host,
                                                      secret=self.secrets.get(self.attempt), rand=self.rand,
                                                      checks=self.checks)
        self.virtual: VirtualHand | None = None
        self.steps: dict[int, dict[Author, Entry]] = {}
        self.share_log: list[tuple[Author, int, int, str]] = []
        """(author, position, step, kind) of every share, in log order."""
        self.acts: list[Entry] = []
        self.expected: dict[int, frozenset[Author]] = {}
        """Step -> the contributors that owe it an entry, fixed when the step opens."""
        self.readies: dict[int, Entry] = {}
        self.redeals: dict[int, str] = {}
        self.unknown_before: set[int] = set()
        self.fixed_at: int | None = None
        self._ready_owed = False
        self.facts: list[tuple[Author, int, dict[str, Any]]] = []

    def secret(self) -> dict[str, Any]:
        """This seat's dealing secrets by attempt (kept in the store before they are used)."""
        out = {str(a): v for a, v in self.secrets.items()}
        out[str(self.attempt)] = self.dealer.secret()
        return out

    # -- who contributes, who opens ------------------------------------------------------
    @property
    def contributors(self) -> tuple[Author, ...]:
        return self.dealer.contributors()

    def _expected_steps(self, k: int) -> set[Author]:
        owed = self.expected.get(k)
        if owed is not None:
            return set(owed)
        actor = self.acts[k - 1].author if k >= 1 else None
        return {a for a in self.contributors if a != actor}

    def _open_step(self, k: int, before: Mapping[int, set[int]] | None = None) -> None:
        """Fix who owes step ``k`` (docs/protocol.md, "The order of a hand"): every
        contributor but the actor, and the declarer of a contract that calls a card until it
        told the card (in every scheme: a card the rules call from its hand becomes public
        when it is called, and only the declarer can tell it; commit-reveal's seats are no
        contributors, so without this step they would tell it only with their next act,
        after others acted on a wrong card).  With public shares (mental poker), after a
        card played (``before``: what each seat saw before it) only one that has a share to
        give of a position the play showed, or that declarer, owes the step.  Every node
        decides this alike: the shares are in the log, what a play shows (the card, and
        what the rules show with it) does not hang on hidden cards, and the contract and
        its declarer are public.  After any other action every contributor but the actor
        owes the step: what it shows may hang on a hidden card (a discard the rules show if
        it is a tarock), so only the card's holder knows whether to give a share."""
        actor = self.acts[k - 1].author if k >= 1 else None
        everyone = {a for a in self.contributors if a != actor}
        teller = self._teller()
        if teller == actor:
            teller = None
        if before is None or not self.dealer.public_shares or self.virtual is None:
            self.expected[k] = frozenset(everyone | ({teller} if teller is not None else set()))
            return
        visible = self._visible()
        owing: set[Author] = {teller} if teller is not None else set()
        for c in everyone:
            new = {p for s, ps in visible.items() if s != c for p in ps - before.get(s, set())}
            if any(c not in self.dealer.shared(p) for p in new):
                owing.add(c)
        self.expected[k] = frozenset(owing)

    def _teller(self) -> int | None:
        """The declarer of a contract that calls a card, until it told the card (public: the
        contract and its declarer follow from the actions alone)."""
        if self.virtual is None:
            return None
        state = self.virtual.hand.state
        if state.contract is None or state.contract.spec.call is None or state.declarer is None \
                or state.declarer in self.virtual.rules.called:
            return None
        return state.declarer

    def step_complete(self, k: int) -> bool:
        return self._expected_steps(k) <= set(self.steps.get(k, {}))

    @property
    def ready(self) -> bool:
        return len(self.readies) == self.seats and not self.redeals

    @property
    def cards_owed(self) -> bool:
        """This seat would say ready but its private cards never came (commit-reveal: only
        the host sends them)."""
        return self._ready_owed and ("ready", self.attempt) not in self._posted

    @property
    def over(self) -> bool:
        return self.done_at is not None

    @property
    def to_move(self) -> int | None:
        if self.virtual is None or self.over or not self.ready:
            return None
        return self.virtual.hand.state.to_move

    def waiting(self) -> tuple[list[Author], bool]:
        """Whose entry the hand waits for now, and whether a player's decision is awaited
        (``True``) or a step no person takes (the deal, shares, readies, openings)."""
        if self.over:
            return [a for a in self.dealer.openers() if a not in self.opens], False
        if not self.dealer.fixed:
            return list(self.dealer.waiting()), False
        k = len(self.acts)
        if not self.step_complete(k):
            return sorted(self._expected_steps(k) - set(self.steps.get(k, {}))), False
        if len(self.readies) < self.seats:
            return [s for s in range(self.seats) if s not in self.readies], False
        seat = self.to_move
        return ([seat] if seat is not None else []), True

    # -- the log ---------------------------------------------------------------------------
    @property
    def head(self) -> str:
        return self.log[-1].head if self.log else ""

    def receive(self, env: Signed, send: bool = True) -> list[Out]:
        """The next entry of the log (HandFault if it breaks a rule; nothing changes then
        except that the hand cannot go on).  ``send`` False: keep what this node must send
        for :meth:`flush` (a snapshot, whose later entries may hold this node's own)."""
        self._entry(env)
        return self.flush() if send else []

    def receive_all(self, envs: Iterable[Signed]) -> list[Out]:
        """A snapshot: every entry so far; what this node must still send comes after."""
        for env in envs:
            self._entry(env)
        return self.flush()

    def _author(self, env: Signed) -> Author:
        if env.table != self.ctx.table or env.epoch != self.ctx.epoch or env.deal != self.ctx.deal or env.to:
            raise HandFault(f"an entry bound to {env.table[:8]}:{env.epoch}:{env.deal}, not this hand",
                            self._blame(env))
        key = self.roster.key_of(env.author, env.seat)
        if key is None:
            raise HandFault(f"{env.author[:8]} may not write as seat {env.seat}", self._blame(env))
        if not verify(key, env.signed, env.sig):
            raise HandFault(f"an entry of {env.author[:8]} with a bad signature", HOST)
        chain = self.chains.get((env.author, env.seat), (0, ""))
        if env.seq != chain[0] + 1 or env.prev != chain[1]:
            raise HandFault(f"seat {env.seat if env.seat is not None else 'host'} sent message {env.seq} "
                            f"after {chain[0]} (a replayed, dropped or reordered message)", self._blame(env))
        if env.head and env.head not in self.heads:
            raise HandFault("an entry that refers to log entries this node was not sent", HOST)
        return HOST if env.seat is None else env.seat

    def _blame(self, env: Signed) -> Author:
        """Who is at fault for an entry that does not belong where it is: at the host, its
        author's seat (it sent it); anywhere else the host, which checked it and logged it."""
        if not self.is_host or env.seat is None or not 0 <= env.seat < self.seats:
            return HOST
        return env.seat

    def _entry(self, env: Signed) -> None:
        author = self._author(env)
        try:
            msg = inner_of(env)
        except MessageError as exc:
            raise HandFault(f"a malformed entry: {exc}", author) from None
        assert isinstance(msg, Inner)
        digest = entry_hash(env)
        entry = Entry(len(self.log), author, env, msg, digest, next_head(self.head, digest))
        seen = self.heads[env.head] if env.head else -1
        mine = author == self.me_author and self.signer is not None and env.author == self.signer.node
        key = self._key(msg, author)
        saved = self._saved()
        try:
            self._apply(entry, seen)
        except HandFault as exc:
            self._restore(saved)  # a refused entry changes nothing, not even what it did half-way
            if exc.author == HOST or self.tainted is not None:
                raise
            # Well signed and in its place, but it cheats: the entry stays in this node's log
            # (the accusation and the openings that follow refer to it), and the hand stops.
            self.tainted = (exc.author, exc.reason)
            self._append(entry, key, mine)
            raise
        self._append(entry, key, mine)

    def _append(self, entry: Entry, key: tuple[Any, ...], mine: bool) -> None:
        env = entry.env
        self.log.append(entry)
        self.heads[entry.head] = entry.index
        self.chains[(env.author, env.seat)] = (env.seq, entry.hash)
        if mine:
            self._posted.add(key)
            if env.seq > self._mine[0]:
                self._mine = (env.seq, entry.hash)

    _KEPT = frozenset({"log", "heads", "chains", "_posted", "game", "rules", "roster", "signer"})
    """Fields an entry changes only once it is taken (after _apply): saved by reference."""

    def _saved(self) -> tuple[Any, ...]:
        """What an entry may change: this object's, its dealer's and its virtual deal's fields."""
        v = self.virtual
        virtual = None if v is None else (v, _copied(vars(v)), dict(v.rules.called))
        mine = {k: val for k, val in vars(self).items() if k in self._KEPT}
        mine.update(_copied({k: val for k, val in vars(self).items() if k not in self._KEPT}))
        return mine, self.dealer, _copied(vars(self.dealer)), virtual

    def _restore(self, saved: tuple[Any, ...]) -> None:
        mine, dealer, dealer_fields, virtual = saved
        vars(self).clear()
        vars(self).update(mine)
        vars(dealer).clear()
        vars(dealer).update(dealer_fields)
        if virtual is not None:
            v, fields, called = virtual
            same = v.rules.called == called and all(vars(v).get(k) == fields[k]
                                                    for k in ("known", "cards", "log"))
            hand = v._hand
            vars(v).clear()
            vars(v).update(fields)
            v.rules.called.clear()
            v.rules.called.update(called)
            v._hand = hand if same and hand is fields["_hand"] else None  # the engine is rebuilt if touched

    @property
    def me_author(self) -> Author | None:
        return HOST if self.is_host else self.me

    def _key(self, msg: Inner, author: Author) -> tuple[Any, ...]:
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
        if not self.log:
            if not isinstance(msg, Begin) or author != HOST or msg != self.begin:
                raise HandFault("a hand's log must start with the host's begin", HOST)
            self._queue_dealing(self.dealer.start())
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
        try:
            if isinstance(msg, Dealing):
                self._on_dealing(entry)
            elif isinstance(msg, Step):
                self._on_step(entry, seen)
            elif isinstance(msg, Ready):
                self._on_ready(entry, seen)
            elif isinstance(msg, Act):
                self._on_act(entry, seen)
            else:
                raise HandFault(f"{msg.tag!r} is no entry of a hand's log", author)
        except (PayloadError, VirtualError) as exc:
            raise HandFault(f"{self._who(author)}: {exc}", author) from None
        except DealingFault as exc:
            raise HandFault(exc.reason, exc.seat) from None

    @staticmethod
    def _who(author: Author) -> str:
        return "the host" if author == HOST else f"seat {author}"

    # -- dealing ------------------------------------------------------------------------------
    def _queue_dealing(self, items: Sequence[Outgoing]) -> None:
        for item in items:
            if self.me_author is None:
                continue
            body = Dealing(item.payload)
            key = self._key(body, self.me_author) if item.to is None else ("private", self.attempt,
                                                                              item.payload.get("t"), item.to)
            self._outbox.append((key, body, item.to))

    def private(self, author: Author, env: Signed) -> list[Out]:
        """A dealing message sent to this node alone (commit-reveal: seeds to the host, cards
        to a seat); HandFault if it is not one."""
        if env.to != (self.signer.node if self.signer is not None else "") or env.table != self.ctx.table \
                or env.deal != self.ctx.deal or env.epoch != self.ctx.epoch:
            raise HandFault("a private message for another node or hand", HOST)
        key = self.roster.key_of(env.author, env.seat)
        if key is None or not verify(key, signed_bytes(dump(env)), env.sig):
            raise HandFault("a private message that its sender did not sign", HOST)
        try:
            msg = parse(env.body, "inner")
            if not isinstance(msg, Dealing):
                raise MessageError("only dealing messages are private")
            if isinstance(msg.payload, Mapping) and msg.payload.get("t") == "cards":
                learned, _ = self.dealer.take(author, msg.payload, public=False)
                if self.virtual is not None:
                    self.virtual.learn(learned)
                    if self._ready_owed and self.step_complete(0) and not self.acts:
                        self._ready()
            else:
                self._queue_dealing(self.dealer.entry(author, msg.payload))
                self._fixed()
        except (MessageError, PayloadError) as exc:
            raise HandFault(f"{self._who(author)}: {exc}", author) from None
        except DealingFault as exc:
            raise HandFault(exc.reason, exc.seat) from None
        return self.flush()

    def _on_dealing(self, entry: Entry) -> None:
        assert isinstance(entry.msg, Dealing)
        if self.dealer.fixed:
            raise HandFault(f"{self._who(entry.author)} sent a dealing message after the deal was fixed",
                            entry.author)
        self._queue_dealing(self.dealer.entry(entry.author, entry.msg.payload))
        self._fixed(entry.index)

    def _fixed(self, index: int | None = None) -> None:
        if not self.dealer.fixed or self.virtual is not None:
            return
        self.fixed_at = index if index is not None else (self.log[-1].index if self.log else 0)
        self.virtual = VirtualHand(self.rules, self.seats, self.begin.dealer, self.begin.active,
                                   self.me if not self.is_host else None, dict(self.dealer.known()))
        self.unknown_before = set(range(len(self.layout.deck))) - self._readable_by_someone()
        self._open_step(0)
        self._contribute(0)

    def _readable_by_someone(self, among: Iterable[int] | None = None) -> set[int]:
        """The positions (of ``among``, default all) that some seat can read with the shares so far."""
        contributors = set(self.contributors)
        out: set[int] = set()
        for p in range(len(self.layout.deck)) if among is None else among:
            shared = self.dealer.shared(p)
            if any(contributors - {s} <= shared for s in range(self.seats)):
                out.add(p)
        return out

    # -- shares ---------------------------------------------------------------------------------
    def _visible(self) -> dict[int, set[int]]:
        assert self.virtual is not None
        return {s: self.virtual.visible(s) for s in range(self.seats)}

    def _contribute(self, k: int) -> None:
        """Open step ``k``: this node's shares and facts, if it is a contributor but not the actor."""
        me = self.me_author
        if me is None or me not in self._expected_steps(k) or self.virtual is None:
            return
        share: Any = None
        for item in self.dealer.shares(self._visible()):
            if item.to is None:
                share = item.payload
            else:
                self._outbox.append((("private", self.attempt, "cards", k, item.to), Dealing(item.payload),
                                     item.to))
        facts = self.virtual.facts() if me != HOST else {}
        self._outbox.append((("step", self.attempt, k), Step(k, share, facts), None))

    def _take(self, author: Author, share: Any, k: int, kind: str) -> None:
        if share is None:
            return
        learned, covered = self.dealer.take(author, share)
        for p in sorted(covered):
            self.share_log.append((author, p, k, kind))
        if self.virtual is not None:
            self.virtual.learn(learned)

    def _vouch(self, author: Author, facts: Any, k: int) -> None:
        if facts is None or facts == {}:
            return
        if not isinstance(facts, Mapping) or author == HOST or self.virtual is None:
            raise HandFault(f"{self._who(author)} told facts it cannot tell", author)
        self.virtual.vouch(author, facts)
        self.facts.append((author, k, dict(facts)))

    def _on_step(self, entry: Entry, seen: int) -> None:
        msg = entry.msg
        assert isinstance(msg, Step)
        author = entry.author
        k = len(self.acts)
        if not self.dealer.fixed or self.virtual is None:
            raise HandFault(f"{self._who(author)} sent a step before the deal was fixed", author)
        if msg.index != k:
            raise HandFault(f"{self._who(author)} sent step {msg.index} at step {k}", author)
        if author not in self._expected_steps(k) or author in self.steps.get(k, {}):
            raise HandFault(f"{self._who(author)} may not send step {k} (again)", author)
        opened = self.acts[-1].index if self.acts else (self.fixed_at or 0)
        if seen < opened:
            raise HandFault(f"{self._who(author)} sent step {k} before it saw what opened it", author)
        self._take(author, msg.share, k, "step")
        self._vouch(author, msg.facts, k)
        self.steps.setdefault(k, {})[author] = entry
        if self.step_complete(k):
            self._step_done(k)

    def _step_done(self, k: int) -> None:
        """Every share of step ``k`` is in: positions nobody could read before must now be
        readable by every seat that sees them (a seat that withheld its share is named)."""
        assert self.virtual is not None
        if self.dealer.public_shares:
            contributors = set(self.contributors)
            for s, positions in sorted(self._visible().items()):
                for p in sorted(positions & self.unknown_before):
                    missing = sorted(contributors - {s} - self.dealer.shared(p))
                    if missing:
                        raise HandFault(f"{self._who(missing[0])} did not show position {p} to seat {s}",
                                        missing[0])
        if k == 0 and self.me is not None and not self.is_host and self.me < self.seats:
            self._ready()

    # -- ready, redeal ----------------------------------------------------------------------------
    def _ready(self) -> None:
        assert self.virtual is not None and self.me is not None
        mine = [self.virtual.known[p] for p in self.layout.hands[self.me] if p in self.virtual.known]
        if len(mine) != len(self.layout.hands[self.me]):
            # Its cards are private and not here yet (commit-reveal, a node that restarts and is
            # sent the log before them): ready follows when they come (:meth:`private`).
            self._ready_owed = True
            return
        self._ready_owed = False
        reason = self._redeal_reason(self.me, mine) or ""
        share: Any = None
        if reason:
            shown = {s: set(self.layout.hands[self.me]) for s in range(self.seats) if s != self.me}
            items = self.dealer.shares(shown)
            share = items[0].payload if items else None
        self._outbox.append((("ready", self.attempt), Ready(reason[:200], share), None))

    def _redeal_reason(self, seat: int, cards: Sequence[int]) -> str | None:
        if self.layout.redeal is None:
            return None
        hands = [list(cards) if s == seat else [] for s in range(self.seats)]
        return self.layout.redeal(hands)

    def _on_ready(self, entry: Entry, seen: int) -> None:
        msg = entry.msg
        assert isinstance(msg, Ready)
        author = entry.author
        if author == HOST or not self.step_complete(0) or self.acts or author in self.readies:
            raise HandFault(f"{self._who(author)} may not say ready now", author)
        last = max(e.index for e in self.steps[0].values()) if self.steps.get(0) else 0
        if seen < last:
            raise HandFault(f"{self._who(author)} said ready before it saw every share of the deal", author)
        self.readies[author] = entry
        if msg.redeal:
            self._take(author, msg.share, 0, "redeal")
            assert self.virtual is not None
            where = self.layout.hands[author]
            if any(p not in self.virtual.known for p in where):
                raise HandFault(f"seat {author} claims a redeal without showing its hand", author)
            hand = [self.virtual.known[p] for p in where]
            if self._redeal_reason(author, hand) is None:
                raise HandFault(f"seat {author} claims a redeal its hand does not call for", author)
            self.redeals[author] = msg.redeal
        elif msg.share is not None:
            raise HandFault(f"seat {author} showed its hand without a redeal", author)
        if len(self.readies) == self.seats and self.redeals:
            if self.attempt >= 1000:
                raise HandFault("no acceptable deal in 1000 attempts", None)
            self.secrets[self.attempt] = self.dealer.secret()
            self.attempt += 1
            self._new_attempt()
            self._queue_dealing(self.dealer.start())

    # -- actions --------------------------------------------------------------------------------
    def _on_act(self, entry: Entry, seen: int) -> None:
        msg = entry.msg
        assert isinstance(msg, Act)
        author = entry.author
        k = len(self.acts)
        if author == HOST or not self.ready or self.virtual is None or not self.step_complete(k):
            raise HandFault(f"{self._who(author)} acted before the hand was ready for it", author)
        if msg.index != k:
            raise HandFault(f"{self._who(author)} sent action {msg.index} as the hand's action {k}", author)
        if self.virtual.hand.state.to_move != author:
            raise HandFault(f"{self._who(author)} acted out of turn", author)
        waited = [e.index for e in self.steps.get(k, {}).values()] + [e.index for e in self.readies.values()]
        if seen < max(waited, default=0):
            raise HandFault(f"{self._who(author)} acted before it saw the hand's last step", author)
        # Shares only accumulate: a position someone could read stays readable, so only the
        # positions nobody could read at the last act need asking again.
        self.unknown_before -= self._readable_by_someone(self.unknown_before)
        self._take(author, msg.share, k + 1, "act")
        before = self._visible() if self.dealer.public_shares else None
        action = self.virtual.play_other(author, msg.action)
        self._vouch(author, msg.facts, k + 1)
        self.acts.append(entry)
        if self.virtual.hand.done:
            self.done_at = entry.index
            self._open()
            return
        self._open_step(k + 1, before if isinstance(action, Play) else None)
        if self.step_complete(k + 1):
            self._step_done(k + 1)  # nobody owes this step: the next action may follow at once
        self._contribute(k + 1)

    def decide(self, index: int, action: Action) -> tuple[list[Out], str | None]:
        """This node's player chose ``action`` for the decision ``index``: the act to send, or
        the reason it is refused ([] and None: the hand moved on)."""
        v = self.virtual
        if self.me is None or v is None or self.to_move != self.me or index != len(self.acts) \
                or ("act", index) in self._posted or not self.step_complete(index):
            return [], None
        trial = v.fork()
        try:
            plain_action = trial.play_own(action)
        except IllegalAction as exc:
            return [], f"{exc.reason.code}: {exc.reason.message}"
        share: Any = None
        if not trial.hand.done:
            visible = {s: trial.visible(s) for s in range(self.seats)}
        else:
            visible = {s: {trial.position_of[c] for t in trial.hand.state.tricks for c in t.cards}
                       for s in range(self.seats)}
        items = self.dealer.shares(visible)
        share = items[0].payload if items else None
        self._outbox.append((("act", index), Act(index, plain_action, share, trial.facts()), None))
        return self.flush(), None

    def ask(self) -> Ask | None:
        """The decision this node's player must make now, if any."""
        v = self.virtual
        if self.me is None or v is None or self.is_host or self.to_move != self.me:
            return None
        k = len(self.acts)
        if ("act", k) in self._posted or not self.step_complete(k):
            return None
        return Ask(v.observation(), k)

    def observation(self) -> Observation | None:
        return self.virtual.observation() if self.virtual is not None else None

    # -- faults, the end -------------------------------------------------------------------------
    def accuse(self, culprit: str, reason: str) -> list[Out]:
        """Tell every node that someone cheats (the hand stops; every secret is opened)."""
        if self.me_author is None or self.fault is not None:
            return []
        self._outbox.append((("fault",), Fault(culprit, reason[:200]), None))
        return self.flush()

    def _open(self) -> None:
        me = self.me_author
        if me is None or me not in self.dealer.openers():
            return
        opening = self.dealer.opening()
        if opening is not None:
            self._outbox.append((("open",), Opened(opening), None))

    def _on_open(self, entry: Entry, seen: int) -> None:
        msg = entry.msg
        assert isinstance(msg, Opened)
        author = entry.author
        if self.done_at is None or author in self.opens or author not in self.dealer.openers():
            raise HandFault(f"{self._who(author)} opened its secrets out of place", author)
        if seen < self.done_at:
            raise HandFault(f"{self._who(author)} opened before the hand was over", author)
        try:
            self.dealer.open(author, msg.opening)
        except PayloadError as exc:
            raise HandFault(f"{self._who(author)}: {exc}", author) from None
        except DealingFault as exc:
            raise HandFault(exc.reason, exc.seat) from None
        self.opens[author] = entry

    @property
    def opened(self) -> bool:
        return self.done_at is not None and all(a in self.opens for a in self.dealer.openers())

    # -- sending ----------------------------------------------------------------------------------
    def flush(self) -> list[Out]:
        """Sign and return what this node must send (what the log already holds of it is dropped)."""
        out: list[Out] = []
        queue, self._outbox = self._outbox, []
        for key, body, to in queue:
            if key in self._posted:
                continue
            self._posted.add(key)
            out.append(Out(self.sign(body, to), to))
        return out

    def sign(self, body: Inner, to: Author | None = None) -> Signed:
        """An envelope of this node: in the log (the next of its chain), or private."""
        assert self.signer is not None
        seat = None if self.is_host else self.me
        to_node = ""
        seq, prev = 0, ""
        if to is None:
            seq, prev = self._mine
            seq += 1
        else:
            to_node = self.roster.host if to == HOST else self.roster.node_of(to)
        fields: dict[str, Any] = {"t": Signed.tag, "table": self.ctx.table, "epoch": self.ctx.epoch,
                                  "deal": self.ctx.deal, "author": self.signer.node, "seat": seat,
                                  "seq": seq, "prev": prev, "head": self.head,
                                  "to": to_node, "body": dump(body), "sig": "0" * 128}
        fields["sig"] = self.signer.sign(signed_bytes(fields))
        if to is None:
            self._mine = (seq, envelope_hash(fields))
        env = parse(fields, "body")
        assert isinstance(env, Signed)
        return env


def _copied(fields: Mapping[str, Any]) -> dict[str, Any]:
    """``fields`` with every dict, list and set copied, and those inside a dict too (the
    values of one dict here are all of one kind: the first tells)."""
    return {k: _one(v) for k, v in fields.items()}


def _one(value: Any) -> Any:
    # Called for every field of every entry (the state saved before the entry): the common
    # kinds go by their exact type, the copies are made by the containers themselves.
    kind = type(value)
    if kind is list or kind is set:
        return value.copy()
    if kind is dict or isinstance(value, dict):
        if not value:
            return {}
        first = type(next(iter(value.values())))
        if first is list or first is set:
            return {k: v.copy() for k, v in value.items()}
        if first is dict:
            # A dict of dicts (the dealer's tokens by position): one level down, the first
            # inner dict that holds anything tells whether its values hold containers too.
            inner = next((type(next(iter(v.values()))) for v in value.values() if v), None)
            if inner is None or not issubclass(inner, dict | list | set):
                return {k: dict(v) for k, v in value.items()}
            return {k: _one(v) for k, v in value.items()}
        if issubclass(first, dict | list | set):
            return {k: _one(v) for k, v in value.items()}
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, set):
        return set(value)
    return value


def roster_of(seat_infos: Sequence[Any], host: str, bots: Sequence[int] = ()) -> Roster:
    """The Roster of a table's SeatInfo list and its host."""
    by_seat = sorted(seat_infos, key=lambda s: s.seat)
    keys = tuple(bytes.fromhex(s.key) for s in by_seat)
    nodes = tuple(s.node for s in by_seat)
    host_key = next((bytes.fromhex(s.key) for s in by_seat if s.node == host), b"")
    return Roster(nodes, keys, host, host_key, tuple(bots))


__all__ = ["Ask", "Entry", "HandFault", "HandPlay", "Out", "Roster", "next_head", "plain", "roster_of"]
