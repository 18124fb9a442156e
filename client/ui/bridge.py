"""The one place where the event loops meet: trio runs as a guest of asyncio.

prompt-toolkit runs on asyncio; the network layer (``net/``) is trio.  With
``trio.lowlevel.start_guest_run`` trio runs inside the asyncio loop's
thread, its I/O waits in a helper thread of its own, so a trio task may
touch the screen's model directly and asyncio code may start trio tasks.

- :func:`trio_guest` starts the guest on the running asyncio loop and
  yields a :class:`Portal`; leaving it cancels every trio task and waits
  (bounded) until trio has finished, re-raising what trio raised.
- :meth:`Portal.run` runs a trio function from asyncio and awaits its
  result there; cancelling that await cancels the trio task.
- :meth:`Portal.start_soon` starts a trio task and forgets it.
- :meth:`Portal.wait_asyncio` (called in trio) awaits an asyncio awaitable,
  such as the player's answer to a dialog.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import trio
from outcome import Error, Outcome, Value

T = TypeVar("T")

CLOSE_TIMEOUT = 5.0
"""Seconds trio gets to finish after its tasks are cancelled."""


class GuestError(RuntimeError):
    """The trio guest did not finish in time, or is not running."""


class Portal:
    """Starts trio tasks from asyncio, and awaits asyncio from trio (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.token: trio.lowlevel.TrioToken | None = None
        self.nursery: trio.Nursery | None = None
        self.closed = False

    def _call_in_trio(self, fn: Callable[[], object]) -> None:
        if self.token is None or self.closed:
            raise GuestError("trio is not running")
        self.token.run_sync_soon(fn)

    def start_soon(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Start the trio task ``fn(*args)``; an error in it ends the guest (and is raised on leaving)."""

        def start() -> None:
            assert self.nursery is not None
            self.nursery.start_soon(fn, *args)

        self._call_in_trio(start)

    async def run(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run the trio function ``fn(*args)`` and return its result (or raise its error) in asyncio."""
        answer: asyncio.Future[T] = self.loop.create_future()
        scope = trio.CancelScope()

        def settle(result: Outcome[T]) -> None:
            if answer.done():
                return
            if isinstance(result, Value):
                answer.set_result(result.value)
            else:
                assert isinstance(result, Error)
                error = result.error
                if isinstance(error, trio.Cancelled):
                    answer.cancel()
                else:
                    answer.set_exception(error)

        async def task() -> None:
            with scope:
                try:
                    value = await fn(*args)
                except trio.Cancelled:
                    self.loop.call_soon_threadsafe(answer.cancel)
                    raise
                except BaseException as exc:
                    self.loop.call_soon_threadsafe(settle, Error(exc))
                    return
                self.loop.call_soon_threadsafe(settle, Value(value))
            if scope.cancelled_caught:
                self.loop.call_soon_threadsafe(answer.cancel)

        self.start_soon(task)
        try:
            return await answer
        except asyncio.CancelledError:
            with contextlib.suppress(GuestError):
                self._call_in_trio(scope.cancel)
            raise

    async def wait_asyncio(self, awaitable: Awaitable[T]) -> T:
        """In trio: await an asyncio awaitable (run as an asyncio task) and return its result."""
        done = trio.Event()
        task = asyncio.ensure_future(awaitable, loop=self.loop)
        token = trio.lowlevel.current_trio_token()
        task.add_done_callback(lambda _t: token.run_sync_soon(done.set))
        try:
            await done.wait()
        except trio.Cancelled:
            task.cancel()
            raise
        if task.cancelled():
            raise GuestError("the asyncio side was cancelled")
        return task.result()


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


@contextlib.asynccontextmanager
async def trio_guest(close_timeout: float = CLOSE_TIMEOUT) -> AsyncIterator[Portal]:
    """Run trio as a guest of the running asyncio loop while the block runs (module docstring)."""
    loop = asyncio.get_running_loop()
    portal = Portal(loop)
    ready: asyncio.Future[None] = loop.create_future()
    finished: asyncio.Future[Outcome[None]] = loop.create_future()

    async def main() -> None:
        portal.token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            portal.nursery = nursery
            loop.call_soon_threadsafe(_resolve, ready)
            await trio.sleep_forever()

    def done(result: Outcome[None]) -> None:
        if not finished.done():
            finished.set_result(result)
        if not ready.done():
            ready.set_result(None)

    trio.lowlevel.start_guest_run(
        main,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=done,
        host_uses_signal_set_wakeup_fd=True,
    )
    await ready
    if finished.done():
        finished.result().unwrap()
    try:
        yield portal
    finally:
        if not finished.done() and portal.nursery is not None and portal.token is not None:
            nursery = portal.nursery
            portal.token.run_sync_soon(nursery.cancel_scope.cancel)
        portal.closed = True
        try:
            result = await asyncio.wait_for(asyncio.shield(finished), close_timeout)
        except TimeoutError:
            raise GuestError(f"trio did not finish within {close_timeout:g} s of being cancelled") from None
        error = result.error if isinstance(result, Error) else None
        if error is not None and not isinstance(error, trio.Cancelled):
            raise error
