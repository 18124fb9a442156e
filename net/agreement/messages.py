"""What the Raft core takes and hands out: log entries, the hard state, the messages between
members and the :class:`Ready` of one round (etcd-io/raft's ``raftpb`` and ``Ready``).

The messages travel as plain maps (:mod:`net.agreement.wire`); each class's ``tag`` is its
name on the wire.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tarock.net.protocol.messages import message
from tarock.net.values import value


@value
class Entry:
    """One log entry, the ``index``-th of the log, appended by the leader of ``term``;
    ``data`` is plain msgpack-able data, ``None`` for a leader's no-op."""

    term: int
    index: int
    data: Any


@value
class HardState:
    """What must be on disk before any message of the same :class:`Ready` is sent."""

    term: int = 0
    vote: str = ""
    commit: int = 0


@value
class Tagged:
    """Base of the messages between members; ``tag`` (set by ``@message``) is the name on the wire."""

    tag: ClassVar[str] = ""


@value
class Ballot(Tagged):
    """A request for a vote (:class:`PreVote` or :class:`Vote`): the candidate's term and last entry."""

    term: int
    last_index: int
    last_term: int


@message("raft-pre-vote")
class PreVote(Ballot):
    """Would you vote for me at ``term`` (my term + 1)? Never changes the voter's state."""


@message("raft-vote")
class Vote(Ballot):
    """A candidate's request for a vote in ``term``."""


@value
class BallotReply(Tagged):
    """The answer to a :class:`PreVote` (a :class:`PreVoteReply`) or a :class:`Vote` (a
    :class:`VoteReply`): ``term`` is the request's term when a pre-vote is granted, else the
    replier's own term."""

    term: int
    granted: bool


@message("raft-pre-vote-reply")
class PreVoteReply(BallotReply):
    """Granted or not: the answer to a :class:`PreVote`."""


@message("raft-vote-reply")
class VoteReply(BallotReply):
    """Granted or not: the answer to a :class:`Vote`."""


@message("raft-append")
class Append(Tagged):
    """Entries after ``prev_index`` (none: a heartbeat) and the leader's commit index."""

    term: int
    prev_index: int
    prev_term: int
    entries: tuple[Entry, ...]
    commit: int


@message("raft-append-reply")
class AppendReply(Tagged):
    """``index``: on success the last index now matched; on failure a hint where to resume.

    The hint is at most the follower's last index: that index when its log is
    shorter than the leader assumed, else (as etcd does) the last index at or
    before the rejected one whose term is not above the leader's ``prev_term``.
    """

    term: int
    success: bool
    index: int


@message("raft-forgot")
class Forgot(Tagged):
    """(Leader to a member) Your log is shorter than ``index``, which you acknowledged: your store
    lost entries.  Take no part in elections until you hold my committed log."""

    term: int
    index: int


RaftMessage = PreVote | PreVoteReply | Vote | VoteReply | Append | AppendReply | Forgot

MESSAGES: dict[str, type[RaftMessage]] = {
    cls.tag: cls for cls in (PreVote, PreVoteReply, Vote, VoteReply, Append, AppendReply, Forgot)
}


@value
class Envelope:
    """A message from ``frm`` to ``to``."""

    frm: str
    to: str
    msg: RaftMessage


@value
class Ready:
    """What happened since the last :meth:`Raft.ready`: persist, then send, then apply."""

    hard: HardState | None
    truncate_from: int | None
    entries: tuple[Entry, ...]
    committed: tuple[Entry, ...]
    messages: tuple[Envelope, ...]

    def empty(self) -> bool:
        """Nothing to persist, send or apply."""
        return (self.hard is None and self.truncate_from is None and not self.entries
                and not self.committed and not self.messages)
