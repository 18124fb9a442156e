"""The overlays of the table: the menu, score sheet, settlement, final
standings, tricks, rules, help and the question on leaving."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from tarock.client.i18n import _, n_
from tarock.client.text.actions import trick_text
from tarock.client.text.figures import SYMBOLS, number_text
from tarock.client.text.results import standing_line
from tarock.client.text.rule_words import Terms, names_text
from tarock.client.ui.canvas import Canvas, clip
from tarock.client.ui.model import TableModel
from tarock.client.ui.screen import screen
from tarock.client.ui.settlement_view import settlement_lines
from tarock.client.ui.table_state import RoundInfo
from tarock.core.observation import TrickView

Lines = list[list[tuple[str, str]]]


def sheet_lines(model: TableModel, w: int) -> Lines:
    """The score sheet: per round the game, who declared (the partner in brackets) and each
    seat's amount, in columns wide enough for every figure; the last row the totals."""
    names = model.names
    terms = Terms.of_rules(model.rules)
    amounts = [[terms.amount(a, SYMBOLS) for a in row.settlement] for row in model.sheet]
    totals = [terms.amount(t, SYMBOLS) for t in model.sheet[-1].totals] if model.sheet else []
    figures = [a for row in amounts for a in row] + totals
    col = max([len(n) for n in names] + [len(a) for a in figures]) + 2
    who_w = max([len(_("Declarer (partner)"))] + [len(_sheet_who(model, row)) for row in model.sheet])
    game_w = max([len(_("Game"))] + [len(row.game) for row in model.sheet])
    room = w - 4 - 4 - col * len(names)  # the round's number, the seats' columns
    who_w = min(who_w, max(8, room // 2))
    game_w = min(game_w, max(8, room - who_w - 1))
    head = f"{_('Rd'):>3} {_('Game'):<{game_w}} {_('Declarer (partner)')[:who_w]:<{who_w}}" + "".join(
        f"{n[: col - 1]:>{col}}" for n in names
    )
    out: Lines = [[("class:overlay.head", head)]]
    for row, cells in zip(model.sheet, amounts, strict=True):
        factor = f" ×{row.factor}" if row.factor != 1 else ""
        game = (row.game + factor)[:game_w]
        who = _sheet_who(model, row)[:who_w]
        line = f"{row.number:>3} {game:<{game_w}} {who:<{who_w}}" + "".join(f"{a:>{col}}" for a in cells)
        out.append([("class:overlay", line)])
    if not model.sheet:
        out.append([("class:overlay", "  " + _("(no rounds played yet)"))])
    else:
        label = _("Total")
        line = f"{'':>3} {label:<{game_w + who_w + 1}}" + "".join(f"{t:>{col}}" for t in totals)
        out.append([("class:overlay.head", line)])
    return out


def _sheet_who(model: TableModel, row: RoundInfo) -> str:
    who = model.names[row.declarer] if row.declarer is not None else "–"
    if row.partners:
        who += f" ({names_text(row.partners, model.names)})"
    return who


def standings_lines(model: TableModel) -> Lines:
    out: Lines = []
    played = len(model.sheet)
    if model.left_early:
        out.append(
            [
                (
                    "class:overlay",
                    _("The table ended after {n} of {rounds} rounds.").format(n=played, rounds=model.rounds),
                )
            ]
        )
    else:
        out.append([("class:overlay", n_("After {n} round:", "After {n} rounds:", played).format(n=played))])
    width_ = max((len(n) for n in model.names), default=5)
    terms = Terms.of_rules(model.rules)
    for s in model.standings:
        line = standing_line(s.place, model.names[s.seat], s.main, s.sub, terms, width_, SYMBOLS)
        out.append([("class:overlay.head", "  " + line)])
    out.append([("class:overlay", "")])
    legend = _("HP: main points by place (4, 2, 1, 0; shared on a tie); SP: the total.")
    out.extend([("class:overlay", part)] for part in textwrap.wrap(legend, 74))  # fits 80 columns
    return out


def trick_view_lines(model: TableModel, tricks: Sequence[TrickView]) -> Lines:
    """Each of ``tricks`` numbered as it was played in the hand (the 7th trick is "7.")."""
    played = list(model.obs.tricks) if model.obs is not None else []
    out: Lines = []
    for trick in tricks:
        n = played.index(trick) + 1 if trick in played else 0
        out.append([("class:overlay", f"{n:>2}. " + trick_text(trick, model.names, SYMBOLS))])
    if not tricks:
        out.append([("class:overlay", "  " + _("(none)"))])
    return out


def overlay_content(model: TableModel, w: int) -> tuple[str, Lines]:
    """The title and lines of the overlay shown."""
    kind = model.overlay
    wrap = max(20, w - 4)
    if kind == "menu":
        return "≡ " + _("Menu"), [
            [("class:dialog.selected" if i == model.menu_index else "class:overlay", f" {key}  {label}")]
            for i, (key, label, _tag) in enumerate(menu_items(model))
        ]
    if kind == "sheet":
        return _("Score sheet"), sheet_lines(model, w)
    if kind == "settlement":
        lines: Lines = []
        settled = model.settled
        if settled is not None and settled.result is not None:
            lines = [[("class:overlay", line)] for line in settlement_lines(settled, model.names, wrap)]
        else:
            for line in model.settlement:
                for part in textwrap.wrap(line, wrap, subsequent_indent="    ") or [""]:
                    lines.append([("class:overlay", part)])
        lines.append([("class:overlay", "")])
        lines.append([("class:key", _("Enter: go on"))])
        return _("Settlement"), lines
    if kind == "standings":
        return _("Final standings"), standings_lines(model)
    if kind == "last":
        last = model.last_trick()
        return _("Last trick"), trick_view_lines(model, [last] if last is not None else [])
    if kind == "tricks":
        lines = [[("class:overlay.head", _("Your tricks"))], *trick_view_lines(model, model.own_tricks())]
        party = model.party()
        if party:
            lines.append(
                [("class:overlay.head", _("Tricks of {names}").format(names=names_text(party, model.names)))]
            )
            lines.extend(trick_view_lines(model, model.partner_tricks()))
        points = number_text(model.points(), SYMBOLS)
        lines.append([("class:overlay", _("Points so far: {points}").format(points=points))])
        return _("Tricks"), lines
    if kind == "rules":
        return _("Rules"), [[("class:overlay", line)] for line in model_rules_lines(model, wrap)]
    if kind == "help":
        return _("Help"), [[("class:overlay", line)] for line in help_lines(wrap)]
    if kind == "quit":
        return _("Leave the table?"), [
            [("class:dialog.selected" if i == model.menu_index else "class:overlay", f" {key}  {label}")]
            for i, (key, label, _tag) in enumerate(quit_items(model))
        ]
    return "", []


def model_rules_lines(model: TableModel, w: int) -> list[str]:
    from tarock.client.ui.rules_page import rules_lines

    return rules_lines(model.rules, w, model.option_specs) if model.rules is not None else []


def menu_items(model: TableModel) -> list[tuple[str, str, str]]:
    """The menu's ``(key, label, tag)`` rows: what the table offers now."""
    out = [
        ("S", _("Score sheet"), "sheet"),
        ("L", _("Last trick"), "last"),
        ("T", _("Tricks"), "tricks"),
        ("R", _("Rules"), "rules"),
        ("?", _("Help"), "help"),
    ]
    if not model.network:
        if model.can_undo():
            out.append(("U", _("Undo your last action"), "undo"))
        out.append(("N", _("New game (this table is closed, as with Q)"), "new"))
    out.append(("Q", _("Leave the table"), "quit"))
    out.append(("Esc", _("Back to the table"), "close"))
    return out


def quit_items(model: TableModel) -> list[tuple[str, str, str]]:
    """The rows of the question on leaving: a local table may be kept or ended; a network
    seat is left (the lobby takes it up again); a watcher stops watching."""
    if model.watching:
        return [("1", _("Stop watching"), "save"), ("Esc", _("Back to the table"), "close")]
    if model.network:
        return [
            ("1", _("Leave the table now (the lobby takes you back to your seat)"), "save"),
            ("Esc", _("Back to the table"), "close"),
        ]
    return [
        ("1", _("Close and go on later (nothing is lost)"), "save"),
        ("2", _("End the table now (final standings)"), "end"),
        ("Esc", _("Back to the table"), "close"),
    ]


def table_commands() -> list[tuple[str, str, str]]:
    """The table's one-letter commands: the key, its word on the status bar and what the help
    page says it does (``H`` and ``U`` first: the status bar shows them only where they work)."""
    return [
        ("H", _("hint"), _("a hint: what the bot would do, and why")),
        ("U", _("undo"), _("undo your last action against bots, while no card came to light since")),
        ("L", _("last trick"), _("the last trick")),
        ("T", _("tricks"), _("your tricks (and your partner's, once known)")),
        ("S", _("sheet"), _("the score sheet")),
        ("R", _("rules"), _("the rules of this table")),
        ("Q", _("quit"), _("leave: close and go on later, or end the table")),
    ]


def help_lines(w: int = 78) -> list[str]:
    """The help page, wrapped to ``w`` columns."""
    paragraphs = [
        _("Playing a card: the first press of its key (shown under it: 1-9, 0, then a, b, c …) "
          "or a click lifts it, the second press (or Enter, or a second click) plays it. "
          "←→ lift the next card."),
        _("Cards you may not play are dimmed; a dimmed card's key says why."),
        _("Laying away: Space or the card's key ticks a card, Enter lays the ticked cards away."),
        _("Dialogs: a line's key (1-9, 0, a, b …) does what Enter does on it: it takes the line, "
          "or ticks an addition; ↑↓ move, Esc goes back from the additions."),
        "",
    ]
    *letters, leave = [(key, what) for key, _word, what in table_commands()]
    commands = [
        *letters,
        ("F2", _("the menu (≡): also a new game")),
        (_("PgUp/PgDn"), _("the log: earlier events of the hand")),
        leave,
        ("", _("Letters work in either case.")),
    ]
    out: list[str] = []
    for text in paragraphs:
        out.extend(textwrap.wrap(text, w) or [""])
    for key, what in commands:
        out.extend(textwrap.wrap(what, w, initial_indent=f"{key:<4}", subsequent_indent=" " * 4))
    return out


def overlay_size(model: TableModel) -> tuple[int, int]:
    size = screen()
    w = min(size[0] - 2, 110)
    _title, lines = overlay_content(model, w)
    return w, min(size[1] - 2, len(lines) + 2)


def draw_overlay(model: TableModel, w: int, h: int) -> Canvas:
    canvas = Canvas(w, h, "class:overlay")
    title, lines = overlay_content(model, w)
    canvas.box(0, 0, h, w, "class:overlay.frame", [("class:overlay.title", title)])
    inner = h - 2
    top = max(0, min(model.scroll, len(lines) - inner))
    model.scroll = top
    items = {"menu": menu_items, "quit": quit_items}.get(model.overlay or "", lambda m: [])(model)
    for i, line in enumerate(lines[top : top + inner]):
        tag = ("item", items[top + i][2]) if items else None
        canvas.put(1 + i, 1, clip(line, w - 2), tag)
    if len(lines) > inner:
        canvas.put(
            h - 1,
            w - 12,
            [("class:overlay.frame", f" {top + 1}-{min(len(lines), top + inner)}/{len(lines)} ")],
        )
    return canvas
