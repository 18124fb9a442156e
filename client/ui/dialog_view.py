"""The dialog drawn over the table for a decision other than playing a card:
its options (key, label, cards, tariff, detail) or the additions to tick."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Hashable

from tarock.client.i18n import _
from tarock.client.ui.canvas import Canvas, Fragments, clip, text_width
from tarock.client.ui.cards import card_fragments
from tarock.client.ui.model import TableModel
from tarock.client.ui.row_keys import row_key
from tarock.client.ui.screen import screen
from tarock.client.ui.table_state import LOG_SIZE


def dialog_lines(model: TableModel, w: int) -> tuple[str, list[tuple[Fragments, Hashable | None]]]:
    """The dialog's title and rows (each with the tag a click maps to)."""
    d = model.decision
    assert d is not None
    rows: list[tuple[Fragments, Hashable | None]] = []
    st = model.stage
    room = screen()[0] - 6  # a row's columns inside the widest dialog
    if not st.additions:
        label_w = min(28, max((text_width([("", o.label)]) for o in d.options), default=8) + 1)
        tariff_w = max((len(o.tariff) for o in d.options), default=0)
        for i, option in enumerate(d.options):
            sel = i == st.row
            base = "class:dialog.selected" if sel else "class:dialog.row"
            key = row_key(i) or " "
            frags: list[tuple[str, str]] = [
                ("class:key " + base, f" {key}" + ("▸" if sel else " ")),
                (base, option.label.ljust(label_w)),
            ]
            if option.cards:
                frags.append((base, " "))
                for card in option.cards:
                    frags.extend(card_fragments(card, base))
                    frags.append((base, " "))
            if tariff_w:
                frags.append(("class:dialog.tariff " + base, option.tariff.rjust(tariff_w) + "  "))
            if option.detail and not option.cards:
                detail = fitting(option.detail, room - text_width(frags))
                frags.append(("class:dialog.detail " + base, detail))
            rows.append((frags, ("row", i)))
        return d.title, rows
    option = d.options[st.option]
    names = model.stage_additions()
    additions = {a.name: a for a in d.additions}
    for i, name in enumerate(names):
        a = additions[name]
        sel = i == st.row
        base = "class:dialog.selected" if sel else "class:dialog.row"
        ticked = name in st.chosen
        possible = ticked or option.can_add(st.chosen, name)
        style = base if possible else "class:dialog.disabled"
        mark = "[x]" if ticked else "[ ]"
        frags = [
            ("class:key " + base, f" {row_key(i) or ' '}" + ("▸" if sel else " ")),
            ("class:dialog.check " + base, f"{mark} "),
            (style, a.label.ljust(16)),
            ("class:dialog.tariff " + base, (a.tariff + "  ") if a.tariff else ""),
        ]
        frags.append(("class:dialog.detail " + base, fitting(a.detail, room - text_width(frags))))
        rows.append((frags, ("row", i)))
    n = len(names)
    chosen = [additions[x].label for x in names if x in st.chosen]
    what = option.label + (" + " + ", ".join(chosen) if chosen else "")
    ok_style = "class:dialog.selected" if st.row == n else "class:dialog.row"
    back_style = "class:dialog.selected" if st.row == n + 1 else "class:dialog.row"
    ends = ((n, ok_style, "▶ " + _("Take: {what}").format(what=what)), (n + 1, back_style, "◀ " + _("Back")))
    for k, style, text in ends:
        mark = "▸" if st.row == k else " "
        rows.append(([("class:key " + style, f" {row_key(k) or ' '}{mark}"), (style, text)], ("row", k)))
    return _("Additions to {game}").format(game=option.label), rows


def fitting(detail: str, room: int) -> str:
    """``detail`` if it fits ``room`` columns, else its first clauses that do (up to a
    "; " or " ("), else nothing: a row never shows a cut word, and the chosen row's
    detail is shown in full under the rows."""
    if text_width([("", detail)]) <= room:
        return detail
    ends = [m.start() for m in re.finditer(r"; | \(", detail)]
    fit = [end for end in ends if text_width([("", detail[:end])]) <= room]
    return detail[: fit[-1]] if fit else ""


def dialog_size(model: TableModel) -> tuple[int, int]:
    size = screen()
    d = model.decision
    if d is None:
        return 10, 4
    title, rows = dialog_lines(model, size[0])
    talon = talon_line(model)
    content = max([text_width(frags) for frags, _tag in rows] + [len(title) + 6, 44, text_width(talon)])
    w = min(size[0] - 4, content + 4)
    # above the log pane (its first lines say how the deal began) and the hand: long dialogs scroll
    log_more = min(LOG_SIZE + 1, 4 + max(0, size[1] - 24) // 5) - 4  # the pane grows with the screen
    return w, min(size[1] - 1 - BELOW_DIALOG - log_more, len(rows) + 6 + (1 if talon else 0))


BELOW_DIALOG = 11
"""The rows a dialog leaves free at the bottom: the log pane at its smallest (4), the hand (4),
the message (2) and the keys (1)."""


def talon_line(model: TableModel) -> Fragments:
    """The talon as the table shows it, for a dialog that covers it (none where
    the dialog's lines show its cards)."""
    obs, d = model.obs, model.decision
    if obs is None or d is None or not any(obs.talon_shown) or obs.tricks or obs.result is not None:
        return []
    if any(o.cards for o in d.options):
        return []
    out: list[tuple[str, str]] = [("class:dialog.detail", _("Talon") + ": ")]
    for i, pile in enumerate(obs.talon_shown):
        if i:
            out.append(("class:dialog.detail", "  │  "))
        for card in pile:
            out.extend(card_fragments(card, "class:dialog.row"))
            out.append(("class:dialog.row", " "))
        if not pile:
            out.append(("class:dialog.detail", "▒▒"))
    return out


def draw_dialog(model: TableModel, w: int, h: int) -> Canvas:
    canvas = Canvas(w, h, "class:dialog")
    if model.decision is None:
        return canvas
    title, rows = dialog_lines(model, w)
    canvas.box(0, 0, h, w, "class:dialog.frame", [("class:dialog.title", title)])
    talon = talon_line(model)
    inner = h - 5 - (1 if talon else 0)
    st = model.stage
    first = max(0, min(st.row - inner + 1, len(rows) - inner)) if len(rows) > inner else 0
    for i, (frags, tag) in enumerate(rows[first : first + inner]):
        canvas.put(1 + i, 1, clip(frags, w - 2), tag)
    if talon:
        canvas.put(h - 4, 2, clip(talon, w - 4))
    detail = _selected_detail(model)
    for i, line in enumerate(textwrap.wrap(detail, w - 4)[:2]):
        canvas.put(h - 3 + i, 2, [("class:dialog.detail", line)])
    return canvas


def _selected_detail(model: TableModel) -> str:
    d = model.decision
    if d is None:
        return ""
    st = model.stage
    if st.additions:
        names = model.stage_additions()
        if st.row < len(names):
            a = next(x for x in d.additions if x.name == names[st.row])
            return f"{a.label}: {a.detail}" if a.detail else a.label
        return ""
    if len(d.options) == 1 and d.options[0].kind != "pass":
        detail = d.options[0].detail
        said = _("The only choice the rules allow here.")
        return said + (" " + detail[:1].upper() + detail[1:] if detail else "")
    if 0 <= st.row < len(d.options):
        o = d.options[st.row]
        return f"{o.label}: {o.detail}" if o.detail else ""
    return ""
