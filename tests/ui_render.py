"""A prompt-toolkit screen drawn once, without a terminal: the rows a player would read.

:func:`render` draws a container (the table's or the lobby's layout, floats
included) at a given size into prompt-toolkit's own screen buffer, with an
application whose output reports that size as current, so the controls lay
out exactly as in a terminal of that size.  No event loop, no keys: a test
can render hundreds of screens in a second.
"""

from __future__ import annotations

import io

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output.vt100 import Vt100_Output


def render(layout: Layout, cols: int = 80, rows: int = 24) -> list[str]:
    """The ``rows`` lines of ``cols`` characters ``layout`` shows."""
    output = Vt100_Output(io.StringIO(), lambda: Size(rows=rows, columns=cols), term="xterm")
    app: Application[None] = Application(layout=layout, output=output)
    with set_app(app):
        screen = Screen()
        layout.container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, cols, rows), "", False, None
        )
        screen.draw_all_floats()
    return ["".join(screen.data_buffer[y][x].char for x in range(cols)).rstrip() for y in range(rows)]
