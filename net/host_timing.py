"""The host's clocks, sans-IO: seats that stall or stay away, and when to look next."""

from __future__ import annotations

from tarock.net.dealing import HOST
from tarock.net.effects import Effect, Note
from tarock.net.host_run import Fault, Run
from tarock.net.host_seating import Seating
from tarock.net.protocol.limits import Timing


def stalled(run: Run, seating: Seating, timing: Timing, now: float) -> tuple[list[Effect], Fault | None]:
    """A step no person takes that a connected seat has not sent in time: it stalls the
    hand and is named, and from the next deal a bot plays it as for an away seat, until
    its node connects again (docs/protocol.md, "Seats that go quiet"): so a seat that
    stalls is named once, and never stops the table.  A seat away longer than the seat
    timeout: the hand is void (its cards cannot be opened without it), nobody is named."""
    authors, deciding = run.waiting
    away = _away(run, seating)
    for author in away:
        chair = seating.chairs[author]
        name = chair.info.name if chair.info is not None else "?"
        since = chair.away_since if chair.away_since is not None else run.since
        if now - max(since, run.since) >= timing.seat_timeout:
            return [], (f"seat {author} ({name}) is away: the hand cannot go on without it", "")
    if away:
        return [], None  # the others may wait for the away seat too (a dealing step): nobody is named
    for author in authors:
        if author == HOST or author in run.subs:
            continue
        chair = seating.chairs[author]
        name = chair.info.name if chair.info is not None else "?"
        node = chair.info.node if chair.info is not None else ""
        if not deciding and now - max(run.since, chair.back_since) >= timing.step:
            play = run.play
            step = ("kept back its opening at the hand's end (a refused reveal)" if play.over else
                    "stalled its step of the deal" if not play.dealer.fixed else
                    "stalled its step of the hand")
            chair.substituted = True
            note = Note(f"seat {author} ({name}) stalls: a bot of this node plays it from the next deal "
                        "until its node connects again")
            return [note], (f"seat {author} ({name}) {step} for {timing.step:g} s", node)
    return [], None


def next_tick(phase: str, seating: Seating, run: Run | None, timing: Timing, gather_until: float,
              now: float) -> float | None:
    """When the host's tick has something to do at the latest in ``phase`` (None: nothing
    timed); it gathers the table until ``gather_until``."""
    if phase in ("seating", "over", "resigned"):
        return None
    if phase == "paused" or not seating.quorum():
        return now + 1.0
    times = deadlines(seating, run, timing, checking=phase == "checking",
                      playing=phase in ("dealing", "playing"))
    if phase == "gathering":
        times.append(gather_until)
    return min(times) if times else None


def deadlines(seating: Seating, run: Run | None, timing: Timing, *, checking: bool,
              playing: bool) -> list[float]:
    """When an away seat gets a bot, the seats' checks run out, or a step stalls (``checking``,
    ``playing``: the hand's phase)."""
    times: list[float] = []
    for chair in seating.chairs:
        if chair.info is not None and not chair.connected and not chair.substituted \
                and chair.away_since is not None:
            times.append(chair.away_since + (0 if chair.info.local else timing.seat_timeout))
    if run is not None and checking:
        times.append(run.checks_until)
    if run is not None and playing and run.waiting[0]:
        wait = timing.seat_timeout if run.waiting[1] else min(timing.step, timing.seat_timeout)
        away = _away(run, seating)
        for author in away:
            since = seating.chairs[author].away_since
            times.append(max(run.since, since if since is not None else run.since) + timing.seat_timeout)
        for author in run.waiting[0] if not away else ():
            back = seating.chairs[author].back_since if 0 <= author < len(seating.chairs) else 0.0
            times.append(max(run.since, back) + wait)
    return times


def _away(run: Run, seating: Seating) -> list[int]:
    """The seats the hand waits for whose node is not connected (a bot does not play them)."""
    return [a for a in run.waiting[0] if a != HOST and a not in run.subs and 0 <= a < len(seating.chairs)
            and not seating.chairs[a].connected]
