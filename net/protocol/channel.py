"""A durable channel: sequence numbers, cumulative acks and resending.

One :class:`Channel` per session and peer outlives the connections it runs
over (magic-wormhole's dilation, shared/NETWORK.md).  Every body sent gets the
next sequence number and stays queued until an ack covers it; after a
reconnect the sender resends what the peer has not acknowledged, in order.
The receiver acknowledges everything, duplicates too, and drops what it has
already seen, so each body is delivered exactly once and in order.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from tarock.net.protocol.limits import MAX_UNACKED
from tarock.net.protocol.messages import Data


class ChannelError(ValueError):
    """The peer broke the sequencing (a gap, or an ack of something never sent)."""


class QueueFull(RuntimeError):
    """More unacknowledged bodies than :data:`MAX_UNACKED`: the session must be dropped."""


class Channel:
    """Sequencing state of one session in both directions."""

    def __init__(self, session: str, limit: int = MAX_UNACKED) -> None:
        self.session = session
        self.sent = 0
        """The sequence number of the last body sent."""
        self.received = 0
        """The sequence number of the last body received and delivered."""
        self.acked = 0
        """The highest sequence number the peer acknowledged."""
        self._queue: deque[Data] = deque()
        self._limit = limit
        self.ack_due = False
        """Something was received that the peer has not been told about yet."""
        self.told = 0
        """The highest sequence number received that the peer was told of (by an ack, or the
        ack field of a data frame)."""

    def wrap(self, body: Any) -> Data:
        """The data frame carrying ``body`` (plain data), queued until acknowledged."""
        if len(self._queue) >= self._limit:
            raise QueueFull(f"{len(self._queue)} bodies unacknowledged")
        self.sent += 1
        frame = Data(self.sent, self.received, body)
        self._queue.append(frame)
        self.acknowledged()
        return frame

    def acknowledged(self) -> None:
        """The peer is being told everything received so far."""
        self.ack_due = False
        self.told = self.received

    def receive(self, frame: Data) -> Any | None:
        """The body of ``frame`` if it is new; None for a duplicate.  A gap is an error."""
        self.on_ack(frame.ack)
        self.ack_due = True
        if frame.seq <= self.received:
            return None
        if frame.seq != self.received + 1:
            raise ChannelError(f"data {frame.seq} arrived after {self.received}: a gap")
        self.received = frame.seq
        return frame.body

    def on_ack(self, ack: int) -> None:
        """The peer has everything up to ``ack``; forget those bodies."""
        if ack > self.sent:
            raise ChannelError(f"ack {ack} of a body never sent (last sent: {self.sent})")
        if ack > self.acked:
            self.acked = ack
        while self._queue and self._queue[0].seq <= ack:
            self._queue.popleft()

    def resend(self, peer_received: int) -> list[Data]:
        """After a reconnect: the frames the peer lacks, given how far it received.

        The ack field is refreshed to what this side has received by now.
        """
        self.on_ack(peer_received)
        out = [Data(f.seq, self.received, f.body) for f in self._queue]
        if out:
            self.acknowledged()
        return out

    @property
    def unacked(self) -> int:
        return len(self._queue)
