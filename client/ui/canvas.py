"""A grid of styled cells that the table's controls draw into.

Each control gets its width and height from prompt-toolkit when it is
drawn, so the table follows the terminal's size; parts are put at rows and
columns, and a part may carry a tag (a card, a dialog row) that a mouse
click at that cell is mapped back to.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

Fragments = Sequence[tuple[str, str]]


def text_width(fragments: Fragments) -> int:
    return sum(get_cwidth(text) for _, text in fragments)


def clip(fragments: Fragments, width: int) -> list[tuple[str, str]]:
    """The fragments cut to ``width`` columns (an ellipsis marks the cut)."""
    out: list[tuple[str, str]] = []
    left = width
    total = text_width(fragments)
    for style, text in fragments:
        if left <= 0:
            break
        w = get_cwidth(text)
        if w <= left and (total <= width or w < left):
            out.append((style, text))
            left -= w
            continue
        keep = ""
        for ch in text:
            if get_cwidth(keep + ch) > left - 1:
                break
            keep += ch
        out.append((style, keep + "…"))
        left = 0
    return out


class Canvas:
    """``height`` rows of ``width`` cells; :meth:`put` writes fragments at a place."""

    def __init__(self, width: int, height: int, style: str = "") -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells: list[list[tuple[str, str]]] = [[(style, " ")] * self.width for _ in range(self.height)]
        self.tags: list[list[Hashable | None]] = [[None] * self.width for _ in range(self.height)]

    def put(self, row: int, col: int, fragments: Fragments, tag: Hashable | None = None) -> int:
        """Write ``fragments`` from column ``col`` of ``row`` (clipped at the edge);
        return the column after them."""
        if not 0 <= row < self.height:
            return col
        x = col
        for style, text in fragments:
            for ch in text:
                w = get_cwidth(ch)
                if x >= 0 and x + w <= self.width:
                    self.cells[row][x] = (style, ch)
                    self.tags[row][x] = tag
                    for extra in range(1, w):
                        self.cells[row][x + extra] = (style, "")
                        self.tags[row][x + extra] = tag
                x += w
        return x

    def center(
        self,
        row: int,
        fragments: Fragments,
        tag: Hashable | None = None,
        left: int = 0,
        right: int | None = None,
    ) -> int:
        """Write ``fragments`` centred between columns ``left`` and ``right``."""
        right = self.width if right is None else right
        w = text_width(fragments)
        col = left + max(0, (right - left - w) // 2)
        self.put(row, col, clip(fragments, right - left), tag)
        return col

    def fill(self, row: int, style: str, col: int = 0, width: int | None = None) -> None:
        if not 0 <= row < self.height:
            return
        end = self.width if width is None else min(self.width, col + width)
        for x in range(max(0, col), end):
            _, ch = self.cells[row][x]
            self.cells[row][x] = (style, ch)

    def box(self, top: int, left: int, height: int, width: int, style: str, title: Fragments = ()) -> None:
        """A framed box (its inside blanked) with a title in the top edge."""
        if width < 2 or height < 2:
            return
        self.put(top, left, [(style, "┌" + "─" * (width - 2) + "┐")])
        for r in range(top + 1, top + height - 1):
            self.put(r, left, [(style, "│" + " " * (width - 2) + "│")])
        self.put(top + height - 1, left, [(style, "└" + "─" * (width - 2) + "┘")])
        if title:
            self.put(top, left + 2, clip([(style, " "), *title, (style, " ")], width - 4))

    def tag_at(self, row: int, col: int) -> Hashable | None:
        if 0 <= row < self.height and 0 <= col < self.width:
            return self.tags[row][col]
        return None

    def line(self, row: int) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for style, ch in self.cells[row]:
            if out and out[-1][0] == style:
                out[-1] = (style, out[-1][1] + ch)
            else:
                out.append((style, ch))
        return out

    def text(self) -> str:
        """The canvas as plain text (for tests and captures)."""
        return "\n".join("".join(ch for _, ch in row).rstrip() for row in self.cells)


Draw = Callable[[int, int], Canvas]
Click = Callable[[Hashable], None]


class CanvasControl(UIControl):
    """A control drawn by ``draw(width, height)``; a click on a tagged cell calls ``click(tag)``."""

    def __init__(self, draw: Draw, click: Click | None = None) -> None:
        self.draw = draw
        self.click = click
        self._last: Canvas | None = None

    def create_content(self, width: int, height: int | None) -> UIContent:
        canvas = self.draw(width, height or 1)
        self._last = canvas
        lines = [canvas.line(r) for r in range(canvas.height)]
        return UIContent(get_line=lambda i: lines[i] if 0 <= i < len(lines) else [], line_count=len(lines))

    def preferred_height(
        self, width: int, max_available_height: int, wrap_lines: bool, get_line_prefix: object
    ) -> int | None:
        return None

    def mouse_handler(self, mouse_event: MouseEvent) -> object:
        if mouse_event.event_type != MouseEventType.MOUSE_UP or self.click is None or self._last is None:
            return NotImplemented
        tag = self._last.tag_at(mouse_event.position.y, mouse_event.position.x)
        if tag is None:
            return NotImplemented
        self.click(tag)
        return None

    def is_focusable(self) -> bool:
        return False
