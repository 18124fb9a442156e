"""The terminal's size, and the notice shown where it is too small for the table."""

from __future__ import annotations

import textwrap

from prompt_toolkit.application.current import get_app

from tarock.client.i18n import _
from tarock.client.ui.canvas import Canvas

MIN_WIDTH = 80
MIN_HEIGHT = 24


def screen() -> tuple[int, int]:
    """The terminal's columns and rows (the least the table needs where no app runs)."""
    try:
        size = get_app().output.get_size()
    except Exception:  # no app (tests drawing parts alone)
        return MIN_WIDTH, MIN_HEIGHT
    return size.columns, size.rows


def too_small() -> bool:
    w, h = screen()
    return w < MIN_WIDTH or h < MIN_HEIGHT


def draw_too_small(w: int, h: int) -> Canvas:
    canvas = Canvas(w, h)
    cols, rows = screen()
    lines = textwrap.wrap(
        _(
            "The window is too small for the table: it needs at least {w}×{h}, "
            "it has {cols}×{rows}. Please make it larger."
        ).format(w=MIN_WIDTH, h=MIN_HEIGHT, cols=cols, rows=rows),
        max(10, w - 2),
    )
    for i, line in enumerate(lines):
        canvas.center(max(0, h // 2 - len(lines) // 2) + i, [("class:small", line)])
    return canvas
