"""What one node says in a hand: its own entries of the log and its private messages.

The hand-play state machine (:mod:`net.handplay`) decides *when* this node must
speak; :class:`Voice` writes *what* it says (the shares and facts of a step, a
ready or a redeal, an act, a dealing message, an accusation, an opening) and
queues it under a :data:`Key` naming what it is, so each is sent once.
:meth:`HandPlay.flush <net.handplay.HandPlay.flush>` signs the queue.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tarock.core.actions import Action
from tarock.core.engine import IllegalAction
from tarock.net.attempt import Attempt
from tarock.net.dealing import HOST, Outgoing
from tarock.net.handlog import Ask, Author
from tarock.net.protocol.messages import Act, Dealing, Fault, Inner, Opened, Ready, Step

Key = tuple[Any, ...]
"""What one message of this node is (each is sent once): ("act", index), ("ready", attempt), ..."""


def key_of(msg: Inner, attempt: int) -> Key:
    """The key of an entry of the log in the deal's ``attempt``."""
    if isinstance(msg, Dealing):
        t = msg.payload.get("t") if isinstance(msg.payload, Mapping) else None
        return ("dealing", attempt, t)
    if isinstance(msg, Step):
        return ("step", attempt, msg.index)
    if isinstance(msg, Act):
        return ("act", msg.index)
    if isinstance(msg, Ready):
        return ("ready", attempt)
    return (msg.tag,)


class Voice:
    """This node's own messages in one hand, queued until they are signed.

    ``me``: the seat this node plays (None: the host or a watcher); ``host``: this is the
    host's node (it writes as HOST); ``seats``: the table's."""

    def __init__(self, me: int | None, host: bool, seats: int) -> None:
        self.me = me
        self.host = host
        self.seats = seats
        self.outbox: list[tuple[Key, Inner, Author | None]] = []

    @property
    def author(self) -> Author | None:
        """Who this node writes as (None: a watcher, which writes nothing)."""
        return HOST if self.host else self.me

    def copy(self) -> Voice:
        out = Voice(self.me, self.host, self.seats)
        out.outbox = list(self.outbox)
        return out

    def take(self, posted: set[Key]) -> list[tuple[Inner, Author | None]]:
        """Empty the queue: what is still to send (``posted``: the keys sent or in the log, to
        which these are added)."""
        out: list[tuple[Inner, Author | None]] = []
        queue, self.outbox = self.outbox, []
        for key, body, to in queue:
            if key in posted:
                continue
            posted.add(key)
            out.append((body, to))
        return out

    # -- the deal ----------------------------------------------------------------------------------
    def dealing(self, att: Attempt, items: Sequence[Outgoing]) -> None:
        """The dealing scheme's messages of this node (in the log, or to one node alone)."""
        if self.author is None:
            return
        attempt = att.ctx.attempt
        for item in items:
            body = Dealing(item.payload)
            key = (key_of(body, attempt) if item.to is None
                   else ("private", attempt, item.payload.get("t"), item.to))
            self.outbox.append((key, body, item.to))

    def contribute(self, att: Attempt, k: int) -> None:
        """Step ``k``: this node's shares and facts, if it is a contributor but not the actor."""
        me = self.author
        if me is None or me not in att.expected_steps(k) or att.virtual is None:
            return
        share: Any = None
        for item in att.dealer.shares(att.virtual.visible_all()):
            if item.to is None:
                share = item.payload
            else:
                self.outbox.append((("private", att.ctx.attempt, "cards", k, item.to), Dealing(item.payload),
                                    item.to))
        facts = att.virtual.facts() if me != HOST else {}
        self.outbox.append((("step", att.ctx.attempt, k), Step(k, share, facts), None))

    def ready(self, att: Attempt) -> None:
        """This seat has every share of the deal: ready, or a redeal with its hand shown."""
        assert att.virtual is not None and self.me is not None
        mine = att.hand_of(self.me)
        if mine is None:
            # Its cards are private and not here yet (commit-reveal, a node that restarts and is
            # sent the log before them): ready follows when they come (HandPlay.private).
            att.ready_owed = True
            return
        att.ready_owed = False
        reason = att.redeal_reason(self.me, mine) or ""
        share: Any = None
        if reason:
            shown = {s: set(att.layout.hands[self.me]) for s in range(self.seats) if s != self.me}
            items = att.dealer.shares(shown)
            share = items[0].payload if items else None
        self.outbox.append((("ready", att.ctx.attempt), Ready(reason[:200], share), None))

    # -- the player's decisions --------------------------------------------------------------------
    def turn(self, att: Attempt, to_move: int | None, posted: set[Key]) -> int | None:
        """The index of the decision this node's player owes now (None: none)."""
        k = len(att.acts)
        if self.me is None or att.virtual is None or to_move != self.me or ("act", k) in posted \
                or not att.step_complete(k):
            return None
        return k

    def ask(self, att: Attempt, to_move: int | None, posted: set[Key]) -> Ask | None:
        """The decision this node's player must make now, if any."""
        k = None if self.host else self.turn(att, to_move, posted)
        if k is None or att.virtual is None:
            return None
        return Ask(att.virtual.observation(), k)

    def act(self, att: Attempt, index: int, action: Action) -> str | None:
        """Queue the act of ``action`` as the decision ``index`` (its turn checked by
        :meth:`turn`), or the reason the rules refuse it."""
        assert att.virtual is not None
        trial = att.virtual.copy()
        try:
            plain_action = trial.play_own(action)
        except IllegalAction as exc:
            return f"{exc.reason.code}: {exc.reason.message}"
        visible: Mapping[int, Iterable[int]]
        if not trial.hand.done:
            visible = trial.visible_all()
        else:
            at = trial.position_of
            played = {at[c] for t in trial.hand.state.tricks for c in t.cards}
            visible = {s: played for s in range(self.seats)}
        items = att.dealer.shares(visible)
        share = items[0].payload if items else None
        self.outbox.append((("act", index), Act(index, plain_action, share, trial.facts()), None))
        return None

    # -- faults, the end ---------------------------------------------------------------------------
    def accuse(self, culprit: str, reason: str) -> bool:
        """Queue a fault naming ``culprit`` (False: this node writes nothing)."""
        if self.author is None:
            return False
        self.outbox.append((("fault",), Fault(culprit, reason[:200]), None))
        return True

    def open(self, att: Attempt) -> None:
        """The hand is over or stopped: this node's opening of its secrets, if it is an opener."""
        me = self.author
        if me is None or me not in att.dealer.openers():
            return
        opening = att.dealer.opening()
        if opening is not None:
            self.outbox.append((("open",), Opened(opening), None))
