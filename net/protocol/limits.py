"""Hard limits of the wire format and the default timings (docs/protocol.md, "Limits")."""

from __future__ import annotations

from dataclasses import dataclass

PROTOCOL_MIN = 4
PROTOCOL_MAX = 4
"""The protocol versions this implementation speaks."""

LENGTH_BYTES = 4
"""Every frame starts with its body length as an unsigned big-endian integer."""
MAX_FRAME = 128 * 1024
"""Largest frame body in bytes (a full observation is about 1-7 KiB)."""
MAX_STR = 4096
"""Longest msgpack str in bytes."""
MAX_BIN = 0
"""The protocol sends no msgpack bin; any non-empty bin is refused."""
MAX_ARRAY = 2048
"""Most items in one msgpack array."""
MAX_MAP = 64
"""Most entries in one msgpack map."""
MAX_DEPTH = 16
"""Deepest nesting of arrays and maps (the top-level map is depth 1)."""
MAX_UNACKED = 512
"""Most sequenced messages a sender keeps for resending; beyond, the session
is dropped and the peer gets a snapshot when it returns."""


@dataclass(frozen=True, slots=True)
class Timing:
    """The timeouts of a node, in seconds (all configurable from the command line)."""

    heartbeat: float = 1.0
    """A ping is sent when nothing was sent for this long."""
    dead_after: float = 4.0
    """A connection that received nothing for this long is dead."""
    handshake: float = 5.0
    """Longest wait for the answer to a hello."""
    connect: float = 3.0
    """Longest wait for a TCP connection."""
    host_grace: float = 3.0
    """How long a seat tries to reach its host again before it goes to the next in succession."""
    seat_timeout: float = 20.0
    """How long a seat may be away before a bot plays it (until the player returns)."""
    check: float = 20.0
    """Longest wait of the host for the seats' checks of a finished hand."""
    gather: float = 3.0
    """Longest wait of a new host for the seats to come back before it deals."""
    tick: float = 0.1
    """One tick of the host agreement's clock (docs/protocol.md, "Host agreement")."""
    election: float = 1.5
    """A member that heard nothing from a host for a random time between this and twice this
    asks the others whether it could host (pre-vote); a host that heard from no majority
    for this long stops hosting (check-quorum)."""
    beat: float = 0.2
    """A host's heartbeat to the other members (several within the shortest election timeout,
    so one or two lost do not start an election)."""
    step: float = 10.0
    """Longest wait for a connected seat's step of the deal or of a reveal (no person
    decides there): a seat that takes longer stalls the hand and is named."""
