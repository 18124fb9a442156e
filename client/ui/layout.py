"""The table's screen, drawn from a :class:`~client.ui.model.TableModel`.

Layout factories (``table_layout(model, ...)`` and its parts) return
prompt-toolkit containers; each part is a canvas drawn at the size the
terminal gives it, so a resized window is simply drawn again, and a
terminal too small for the table gets a notice saying how large it must be.

From top to bottom: the title bar; the table (the others with names, card
counts and roles, the trick in the middle, the talon and open hands); the
game and what this seat has won; the last events; the hand (the game's
trumps first, cards that may not be played dimmed, the lifted card raised);
a message line (reasons, hints); the keys.  Decisions other than playing a
card are dialogs over the table; the menu, score sheet, settlement and the
like are overlays.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Hashable, Sequence

from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.dimension import Dimension

from tarock.client.i18n import _, n_
from tarock.client.text.actions import game_text
from tarock.client.text.cards import count_line
from tarock.client.text.figures import SYMBOLS, number_text
from tarock.client.text.rule_words import names_text
from tarock.client.ui.canvas import Canvas, CanvasControl, Fragments, clip, text_width
from tarock.client.ui.cards import card_fragments, cards_text, groups, trump_suit, width
from tarock.client.ui.dialog_view import dialog_size, draw_dialog
from tarock.client.ui.model import TableModel
from tarock.client.ui.overlays import draw_overlay, overlay_size, table_commands
from tarock.client.ui.row_keys import keys_span, row_key
from tarock.client.ui.screen import draw_too_small, too_small
from tarock.client.ui.table_state import LOG_SIZE
from tarock.core.cards import SUIT_OF, TAROCK, Card
from tarock.core.observation import Observation
from tarock.core.state import declarer_seats

# -- who sits where ------------------------------------------------------------------------


def places(model: TableModel) -> dict[int, str]:
    """Each other seat's place seen from this seat: ``left``, ``across`` (or
    ``across-left``/``across-right`` at five seats), ``right``.  With
    counter-clockwise play the next seat sits on one's right."""
    obs = model.obs
    seats = obs.seats if obs is not None else len(model.names)
    clockwise = obs is not None and obs.rules is not None and obs.rules.facts.direction == "clockwise"
    order = (
        ["right", "across", "left"]
        if seats == 4
        else ["right", "across-right", "across-left", "left"]
        if seats == 5
        else ["right", "left"]
        if seats == 3
        else [f"seat{k}" for k in range(1, seats)]
    )
    if clockwise:
        order = list(reversed(order))
    return {(model.seat + k) % seats: order[k - 1] for k in range(1, seats)}


def roles(model: TableModel, seat: int) -> Fragments:
    """The marks of a seat: dealer, forehand, declarer (or playing alone), partner, to move."""
    obs = model.obs
    if obs is None:
        return []
    out: list[tuple[str, str]] = []
    active = obs.active or tuple(range(obs.seats))
    if seat not in active:
        return [("class:seat.out", _("sits out"))]
    if seat == obs.dealer:
        out.append(("class:seat.role", _("dealer")))
    if seat == obs.forehand:
        out.append(("class:seat.forehand", "⚑ " + _("forehand")))
    contract = obs.contract
    declarers = declarer_seats(contract, obs.declarer)
    if seat in declarers and contract is not None:
        spec = contract.spec
        called_away = obs.called is not None and any(obs.called in pile for pile in obs.talon_shown)
        if spec.partnership == "alone" or (spec.partnership == "called" and called_away):
            out.append(("class:seat.role", _("plays alone")))
        else:
            out.append(("class:seat.role", _("caller") if spec.partnership == "called" else _("declarer")))
    elif obs.partner is not None and seat == obs.partner and obs.declarer is not None:
        out.append(("class:seat.role", _("partner")))
    if obs.to_move == seat and obs.result is None:
        out.append(("class:seat.turn", _("to move") + " ◀"))
    joined: list[tuple[str, str]] = []
    for frag in out:
        if joined:
            joined.append(("", " · "))
        joined.append(frag)
    return joined


# -- the table -----------------------------------------------------------------------------


def seat_block(model: TableModel, seat: int) -> list[Fragments]:
    """A seat's lines: its name and card count, its roles, its open hand."""
    obs = model.obs
    name = model.names[seat] if seat < len(model.names) else str(seat)
    lines: list[Fragments] = []
    count = obs.hand_sizes[seat] if obs is not None else 0
    lines.append([("class:seat.name", name), ("", " · " + count_line(count))])
    lines.append(list(roles(model, seat)))
    if obs is not None:
        for open_seat, cards in obs.open_hands:
            if open_seat == seat and cards:
                lines.append(_cards_line(model, cards))
    return lines


def _cards_line(model: TableModel, cards: Sequence[Card], extra: str = "") -> Fragments:
    out: list[tuple[str, str]] = []
    for card in cards:
        if out:
            out.append((extra, " "))
        out.extend(card_fragments(card, extra))
    return out


def draw_table(model: TableModel, w: int, h: int) -> Canvas:
    """The others around the table and the trick in the middle."""
    canvas = Canvas(w, h)
    obs = model.obs
    if obs is None:
        canvas.center(h // 2, [("", _("Waiting for the table …"))])
        return canvas
    where = places(model)
    third = max(18, w // 3)
    for seat, place in where.items():
        block = seat_block(model, seat)
        if place == "across":
            for i, line in enumerate(block):
                canvas.center(i, line)
        elif place in ("across-left", "across-right"):
            left = 0 if place == "across-left" else w // 2
            for i, line in enumerate(block):
                canvas.center(i, line, left=left, right=left + w // 2)
        elif place == "left":
            for i, line in enumerate(block):
                canvas.put(3 + i, 1, clip(line, third))
        elif place == "right":
            for i, line in enumerate(block):
                canvas.put(3 + i, max(0, w - 1 - min(third, text_width(line))), clip(line, third))
    _draw_middle(model, canvas, where)
    me = seat_block(model, model.seat)
    canvas.center(h - 1, [("class:seat.me", model.names[model.seat]), ("", "  "), *me[1]])
    return canvas


def _draw_middle(model: TableModel, canvas: Canvas, where: dict[int, str]) -> None:
    obs = model.obs
    assert obs is not None
    w, h = canvas.width, canvas.height
    mid = max(4, h // 2)
    trick, done = model.shown_trick()
    if trick is not None:
        extra = "class:trick.done" if done else ""
        spots = {
            "across": (mid - 2, w // 2),
            "across-left": (mid - 2, w // 2 - 6),
            "across-right": (mid - 2, w // 2 + 6),
            "left": (mid, w // 2 - 12),
            "right": (mid, w // 2 + 12),
            "me": (mid + 2, w // 2),
        }
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            row, col = spots.get("me" if seat == model.seat else where.get(seat, "across"), (mid, w // 2))
            face = card_fragments(card, extra)
            canvas.put(row, col - text_width(face) // 2, face)
        if done and trick.winner is not None:
            canvas.center(
                mid + 3, [("class:trick.winner", _("Trick: {name}").format(name=model.names[trick.winner]))]
            )
        return
    if any(obs.talon_shown) and obs.result is None and not obs.tricks:
        frags: list[tuple[str, str]] = [("", _("Talon") + ": ")]
        for i, pile in enumerate(obs.talon_shown):
            if i:
                frags.append(("", "  │  "))
            frags.extend(_cards_line(model, pile) if pile else [("class:card.back", "▒▒")])
        canvas.center(mid, frags)
    if obs.discards and obs.declarer is not None and obs.result is None and obs.seat != obs.declarer:
        canvas.center(mid + 2, [("", _("Laid away face up: ")), *_cards_line(model, obs.discards)])


def game_line(obs: Observation, names: Sequence[str]) -> str:
    """The game in play (:func:`client.text.actions.game_text`), or the bidding before it."""
    if obs.contract is None or obs.declarer is None:
        return _("Bidding") if obs.phase == "bidding" else ""
    return game_text(obs, names, style=SYMBOLS)


def draw_info(model: TableModel, w: int, h: int) -> Canvas:
    """The game in play, and what this seat (and its known partner) has won."""
    canvas = Canvas(w, h)
    obs = model.obs
    if obs is None:
        return canvas
    canvas.put(0, 1, clip([("class:info.game", game_line(obs, model.names))], w - 2))
    if obs.phase != "play" and not obs.tricks:
        return canvas
    mine = model.own_tricks()
    parts = [n_("Your tricks: {n}", "Your tricks: {n}", len(mine)).format(n=len(mine))]
    party = model.party()
    if party:
        theirs = model.partner_tricks()
        parts.append(_("{names}: {n}").format(names=names_text(party, model.names), n=len(theirs)))
    if obs.tricks:
        parts.append(_("points {points}").format(points=number_text(model.points(), SYMBOLS)))
    canvas.put(1, 1, clip([("class:info", " · ".join(parts))], w - 2))
    return canvas


def draw_log(model: TableModel, w: int, h: int) -> Canvas:
    """The hand's events: its first line (who deals, who leads) always, then the newest
    that fit, or older ones while scrolled back (PgUp/PgDn), with a mark saying so."""
    canvas = Canvas(w, h)
    log = model.log
    rows = h - 1
    hidden_before = 0
    if rows >= 1 and log:
        body = log[1:]
        room = rows - 1
        model.log_back = min(model.log_back, max(0, len(body) - room))
        end = len(body) - model.log_back
        start = max(0, end - room)
        hidden_before = start
        shown = [log[0], *body[start:end]] if room > 0 else [log[0]]
        for i, line in enumerate(shown):
            canvas.put(1 + i, 1, clip([("class:log", line)], w - 2))
    rule = "─" * w
    canvas.put(0, 0, [("class:rule", rule)])
    if hidden_before or model.log_back:
        mark = " " + _("PgUp/PgDn: more of the hand") + " "
        if text_width([("", mark)]) < w - 2:
            canvas.put(0, w - text_width([("", mark)]) - 1, [("class:rule", mark)])
    return canvas


# -- the hand ------------------------------------------------------------------------------


def hand_cells(model: TableModel) -> list[tuple[Card, int]]:
    """Each card of the hand with its column (groups of a suit set apart)."""
    hand = model.hand()
    out: list[tuple[Card, int]] = []
    col = 1
    for group in groups(hand):
        if out:
            col += 2
        for card in group:
            out.append((card, col))
            col += max(width(card), 2) + 2
    return out


def card_style(model: TableModel, card: Card, index: int) -> str:
    d = model.decision
    obs = model.obs
    styles = []
    contract = obs.contract if obs is not None else None
    trump = trump_suit(
        contract.spec.tricks if contract is not None else None,
        contract.suit if contract is not None else None,
    )
    if trump is not None and trump != TAROCK and SUIT_OF[card] == trump:
        styles.append("class:card.trump")
    if d is not None and model.waiting:
        if d.kind == "play" and card not in d.playable:
            styles.append("class:card.dimmed")
        if d.kind == "discard":
            if card in model.chosen:
                styles.append("class:card.chosen")
            elif not d.may_add(frozenset(model.chosen), card):
                styles.append("class:card.dimmed")
            if index == model.cursor:
                styles.append("class:card.cursor")
    if model.lifted == card:
        styles.append("class:card.lifted")
    return " ".join(styles)


def card_mark(model: TableModel, card: Card) -> str:
    """The sign beside a card's key: ✓ ticked to lay away, * taken from the talon
    (so neither is shown by reverse video alone)."""
    d = model.decision
    if model.waiting and d is not None and d.kind == "discard" and card in model.chosen:
        return "✓"
    obs = model.obs
    if obs is not None and card in obs.talon_seen and obs.result is None:
        return "*"
    return ""


def draw_hand(model: TableModel, w: int, h: int) -> Canvas:
    """Three rows: the lifted card raised, the hand, the keys of the first ten cards."""
    canvas = Canvas(w, h)
    canvas.put(0, 0, [("class:rule", "─" * w)])
    cells = hand_cells(model)
    if model.watching:
        canvas.put(2, 2, [("", _("You are watching this table."))])
        return canvas
    if not cells:
        obs = model.obs
        if obs is not None and (obs.active and model.seat not in obs.active):
            canvas.put(2, 2, [("", _("You sit out this hand."))])
        return canvas
    total = cells[-1][1] + 4
    shift = max(0, (w - total) // 2)
    for i, (card, col) in enumerate(cells):
        extra = card_style(model, card, i)
        frags = card_fragments(card, extra)
        row = 1 if model.lifted == card else 2
        x = shift + col
        canvas.put(row, x, frags, tag=("card", i))
        if row_key(i):
            key = [("class:key", row_key(i)), ("class:mark", card_mark(model, card))]
            canvas.put(3, x, key, tag=("card", i))
    # the separators between suits
    prev: Card | None = None
    for card, col in cells:
        if prev is not None and SUIT_OF[prev] != SUIT_OF[card]:
            canvas.put(2, shift + col - 2, [("class:rule", "│")])
        prev = card
    return canvas


# -- one-line bars -------------------------------------------------------------------------


def draw_header(model: TableModel, w: int, h: int) -> Canvas:
    canvas = Canvas(w, h, "class:header")
    title = model.title
    where = _("Round {round} of {rounds}").format(round=max(1, model.round), rounds=model.rounds)
    canvas.put(0, 1, clip([("class:header.title", title), ("class:header", " · " + where)], w - 20))
    menu = "F2 ≡ " + _("Menu")
    canvas.put(0, w - len(menu) - 1, [("class:header", menu)], tag=("menu", "open"))
    return canvas


def draw_message(model: TableModel, w: int, h: int) -> Canvas:
    canvas = Canvas(w, h)
    text = model.message
    if not text and model.waiting and model.decision is not None:
        d = model.decision
        if d.kind == "play":
            text = _("Your turn: play a card (the lit ones may be played).")
        elif d.kind == "discard":
            text = _("Lay {n} cards away: {k} chosen.").format(n=d.discard_count, k=len(model.chosen))
            obs = model.obs
            if obs is not None and obs.talon_seen:
                text += " " + _("From the talon (marked *): {cards}").format(cards=cards_text(obs.talon_seen))
    for i, line in enumerate(textwrap.wrap(text, max(10, w - 2))[:h]):
        canvas.put(i, 1, clip([("class:message", line)], w - 2))
    return canvas


def status_keys(model: TableModel) -> list[tuple[str, str]]:
    """The keys that work now, as ``(key, what)`` pairs."""
    d = model.decision if model.waiting else None
    if model.overlay in ("menu", "quit"):
        return [("↑↓", _("choose")), (_("Enter"), _("take")), ("Esc", _("back to the table"))]
    if model.overlay == "settlement":
        return [("↑↓", _("scroll")), (_("Enter"), _("go on"))]
    if model.overlay is not None:
        return [("↑↓", _("scroll")), ("Enter/Esc", _("close"))]
    keys: list[tuple[str, str]] = []
    cards = keys_span(len(model.hand()))
    if d is not None and d.kind == "play":
        keys += [("←→ " + cards, _("lift")), (_("Enter"), _("play"))]
    elif d is not None and d.kind == "discard":
        keys += [("←→", _("move")), (_("Space") + " " + cards, _("tick")), (_("Enter"), _("lay away"))]
    elif d is not None:
        keys += [("↑↓ " + keys_span(model.dialog_rows()), _("choose")), (_("Enter"), _("take"))]
    hint, undo, *always, leave = [(key, word) for key, word, _what in table_commands()]
    if not model.watching:
        keys.append(hint)
    if model.can_undo() and not model.network:
        keys.append(undo)
    return [*keys, ("?", _("help")), leave, *always]


def draw_status(model: TableModel, w: int, h: int) -> Canvas:
    """The keys that work now; those that do not fit with their words are shown as keys alone
    (the help page says what each does), so every key the table offers is on the screen."""
    canvas = Canvas(w, h, "class:status")
    col = 1
    keys = status_keys(model)
    for i, (key, what) in enumerate(keys):
        part = [("class:status bold", key), ("class:status", f" {what}  ")]
        if col + text_width(part) > w:
            rest = " ".join(k for k, _what in keys[i:])
            if col + len(rest) < w:
                canvas.put(0, col, [("class:status bold", rest)])
            break
        col = canvas.put(0, col, part)
    return canvas


# -- the whole screen -----------------------------------------------------------------------


def _window(
    draw: Callable[[int, int], Canvas],
    height: int | Dimension | None = None,
    click: Callable[[Hashable], None] | None = None,
) -> Window:
    return Window(CanvasControl(draw, click), height=height)


def table_layout(model: TableModel, click: Callable[[Hashable], None]) -> Layout:
    """The table's screen; ``click`` gets the tag of a clicked card, dialog row or menu item."""
    body = HSplit(
        [
            _window(lambda w, h: draw_header(model, w, h), 1, click),
            _window(lambda w, h: draw_table(model, w, h), Dimension(min=10, weight=4)),
            _window(lambda w, h: draw_info(model, w, h), 2),
            _window(lambda w, h: draw_log(model, w, h), Dimension(min=4, max=LOG_SIZE + 1, weight=1)),
            _window(lambda w, h: draw_hand(model, w, h), 4, click),
            _window(lambda w, h: draw_message(model, w, h), 2),
            _window(lambda w, h: draw_status(model, w, h), 1),
        ]
    )
    dialog = Float(
        ConditionalContainer(
            _window(lambda w, h: draw_dialog(model, w, h), click=click),
            filter=Condition(
                lambda: (
                    model.waiting
                    and model.decision is not None
                    and model.decision.kind == "dialog"
                    and model.overlay is None
                )
            ),
        ),
        width=lambda: dialog_size(model)[0],
        height=lambda: dialog_size(model)[1],
        top=1,
    )
    overlay = Float(
        ConditionalContainer(
            _window(lambda w, h: draw_overlay(model, w, h), click=click),
            filter=Condition(lambda: model.overlay is not None),
        ),
        width=lambda: overlay_size(model)[0],
        height=lambda: overlay_size(model)[1],
    )
    table: AnyContainer = FloatContainer(body, floats=[dialog, overlay])
    small = _window(draw_too_small)
    return Layout(DynamicContainer(lambda: small if too_small() else table))
