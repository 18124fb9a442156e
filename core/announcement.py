"""An announcement: the one part of a hand's state that its settlement reads too
(:mod:`core.state` holds it in ``HandState.announcements``, :mod:`core.settlement`
counts it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Announcement:
    """A premium or goal announced (angesagt) by ``seat``.

    ``name`` is the variant's word for it (``pagat``, ``trull``, ``valat``,
    ``absolut`` ...).  ``against`` marks an announcement made for the
    declarer's opponents ("Gegen das Spiel"); otherwise it is for the
    declarer's party.  ``kontra`` is the level of its own Kontra chain where
    a variant keeps one per announcement (0 otherwise).
    """

    name: str
    seat: int
    against: bool = False
    kontra: int = 0
