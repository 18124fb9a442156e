"""A wall-clock bound for synchronous tests (the sans-IO pumps and the crypto loops
have no trio clock to put a ``fail_after`` on): SIGALRM raises TimeoutError in
the main thread once the bound is past, and the previous handler comes back."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def bounded(seconds: float, what: str = "the test") -> Iterator[None]:
    def expired(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"{what} took longer than {seconds:g} s")

    before = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
