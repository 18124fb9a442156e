"""The keys that reach a card of the hand or a line of a dialog.

One scheme for both, at every hand size: the digits in keyboard order
(``1`` … ``9``, ``0`` for the tenth), then letters that no command of the
table uses (``a`` … ``g``, ``i``, ``j``, …), so a hand of 18 cards and a
dialog of 20 lines have a key for each.  A letter works in either case.
The table's command letters (:data:`COMMAND_LETTERS`) are left out.
"""

from __future__ import annotations

COMMAND_LETTERS = "hlnqrstuw"
"""Letters the table's commands use (hint, last trick, new game, quit, rules,
sheet, tricks, undo, watch): never a card's or a line's key."""

ROW_KEYS = "1234567890" + "".join(
    c for c in "abcdefghijklmnopqrstuvwxyz" if c not in COMMAND_LETTERS
)
"""The key of the first, second, … card or line."""


def row_key(index: int) -> str:
    """The key of card or line ``index`` (counted from 0), or "" beyond the last key."""
    return ROW_KEYS[index] if 0 <= index < len(ROW_KEYS) else ""


def keys_span(count: int) -> str:
    """The keys of ``count`` cards or lines in a few characters: ``1-9``, ``1-0``, ``1-0 a-c``."""
    if count <= 0:
        return ""
    digits = min(count, 10)
    span = "1" if digits == 1 else f"1-{ROW_KEYS[digits - 1]}"
    letters = min(count, len(ROW_KEYS)) - 10
    if letters == 1:
        span += " a"
    elif letters > 1:
        span += f" a-{ROW_KEYS[10 + letters - 1]}"
    return span


def both_cases(key: str) -> tuple[str, ...]:
    """The key names that press ``key``: a letter in lower and upper case, anything else as it is."""
    if len(key) == 1 and key.isalpha():
        return (key.lower(), key.upper())
    return (key,)
