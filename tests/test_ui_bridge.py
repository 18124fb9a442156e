"""The event-loop bridge (client/ui/bridge.py): trio as a guest of asyncio, with a pipe-driven application.

A trio task updates what a prompt-toolkit application shows while key
presses come through a pipe; a key starts trio work and shows its result;
errors cross over; cancelling on either side cancels the other; leaving the
guest leaves nothing running.  Every test is bounded in time.
"""

from __future__ import annotations

import asyncio

import pytest
import trio
from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from ui_harness import session

from tarock.client.ui.bridge import GuestError, Portal, trio_guest


def _run(coro: object) -> object:
    async def bounded() -> object:
        return await asyncio.wait_for(coro, 30)  # type: ignore[arg-type]

    return asyncio.run(bounded())


def test_trio_drives_the_screen_and_a_key_starts_trio_work() -> None:
    state = {"ticks": 0, "answer": ""}
    tasks: set[asyncio.Future[None]] = set()

    async def ticker(app: Application[None]) -> None:
        while True:
            await trio.sleep(0.02)
            state["ticks"] += 1
            app.invalidate()  # trio runs in the asyncio thread: it may touch the app directly

    async def slow_double(n: int) -> int:
        await trio.sleep(0.05)
        return 2 * n

    async def main() -> None:
        with session(60, 5) as d:
            kb = KeyBindings()
            app: Application[None] = Application(
                layout=Layout(
                    Window(FormattedTextControl(lambda: f"ticks {state['ticks']} answer {state['answer']}"))
                ),
                key_bindings=kb,
                full_screen=True,
            )
            async with trio_guest() as portal:

                @kb.add("x")
                def _x(event: KeyPressEvent) -> None:
                    async def ask() -> None:
                        state["answer"] = str(await portal.run(slow_double, 21))
                        app.invalidate()

                    tasks.add(asyncio.ensure_future(ask()))

                @kb.add("q")
                def _q(event: KeyPressEvent) -> None:
                    app.exit()

                portal.start_soon(ticker, app)
                running = asyncio.ensure_future(app.run_async())
                await d.wait_for(lambda t: "ticks 5" in t or int(t.split()[1]) >= 5)
                d.press("x")
                await d.wait_for("answer 42")
                d.press("q")
                await asyncio.wait_for(running, 10)
        assert state["ticks"] >= 5

    _run(main())


def test_an_error_in_trio_is_raised_in_asyncio() -> None:
    async def fails() -> None:
        await trio.sleep(0)
        raise ValueError("bad peer")

    async def main() -> None:
        async with trio_guest() as portal:
            with pytest.raises(ValueError, match="bad peer"):
                await portal.run(fails)

    _run(main())


def test_cancelling_the_await_cancels_the_trio_task() -> None:
    seen: list[str] = []

    async def forever() -> None:
        try:
            await trio.sleep_forever()
        finally:
            seen.append("cancelled")

    async def main() -> None:
        async with trio_guest() as portal:
            waiting = asyncio.ensure_future(portal.run(forever))
            await asyncio.sleep(0.05)
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            for _ in range(100):
                if seen:
                    break
                await asyncio.sleep(0.01)
        assert seen == ["cancelled"]

    _run(main())


def test_trio_awaits_an_asyncio_future() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()

        async def asks(portal: Portal) -> str:
            return "got " + await portal.wait_asyncio(answer)

        async with trio_guest() as portal:
            pending = asyncio.ensure_future(portal.run(asks, portal))
            await asyncio.sleep(0.05)
            assert not pending.done()
            answer.set_result("Weiter")
            assert await asyncio.wait_for(pending, 5) == "got Weiter"

    _run(main())


def test_leaving_the_guest_cancels_its_tasks_and_trio_ends() -> None:
    ended: list[str] = []

    async def forever() -> None:
        try:
            await trio.sleep_forever()
        finally:
            ended.append("task")

    async def main() -> Portal:
        async with trio_guest() as portal:
            portal.start_soon(forever)
            await asyncio.sleep(0.05)
        return portal

    portal = _run(main())
    assert ended == ["task"]
    assert isinstance(portal, Portal)
    with pytest.raises(GuestError):
        portal.start_soon(trio.sleep, 0)


def test_an_error_of_a_started_task_is_raised_on_leaving() -> None:
    async def fails() -> None:
        raise RuntimeError("the host lied")

    async def main() -> None:
        async with trio_guest() as portal:
            portal.start_soon(fails)
            await asyncio.sleep(0.1)

    with pytest.raises(BaseException) as caught:
        _run(main())
    leaves = caught.value.exceptions if isinstance(caught.value, BaseExceptionGroup) else [caught.value]
    assert any("the host lied" in str(e) for e in leaves)
