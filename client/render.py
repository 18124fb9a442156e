"""The line client's pages: what lies open on the table, the seating, the
score sheet and the standings, for ``--plain`` and the network commands.

Every word comes from the one text layer (:mod:`client.text`) and its
catalogue, in the line client's plain marks (cards as typed: ``hK``, German
``kD``; ``x``, ``-``); the games' and premiums' titles from the table's rule
facts, never from a variant's name.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock.client.i18n import _, n_
from tarock.client.text.cards import card_text, cards_line, cards_text, suit_name
from tarock.client.text.figures import signed
from tarock.client.text.results import standing_line
from tarock.client.text.rule_words import Terms, and_text, game_title, premium_title
from tarock.core.cards import Card, CardError, parse_card
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation
from tarock.core.table import Standing, Table

__all__ = ["contract_words", "direction_text", "seating_text", "sheet_lines", "standings_lines",
           "table_lines", "talon_text"]


def talon_text(piles: Sequence[Sequence[Card]]) -> str:
    """``half 1: XX c7 d4; half 2: ...`` for the piles that show cards."""
    return "; ".join(_("half {n}: {cards}").format(n=i, cards=cards_line(p))
                     for i, p in enumerate(piles, start=1) if p)


def table_lines(obs: Observation, names: Sequence[str]) -> list[str]:
    """What lies open on the table for ``obs.seat``: the talon halves while one
    is chosen, hands laid open (ouvert) and cards laid away face up."""
    out: list[str] = []
    if obs.phase == "talon" and any(obs.talon_shown):
        out.append(_("Talon (turned up): {halves}").format(halves=talon_text(obs.talon_shown)))
    for seat, cards in obs.open_hands:
        out.append(_("Open hand of {name}: {cards}").format(name=names[seat], cards=cards_text(cards)))
    if obs.discards and obs.declarer is not None and obs.result is None:
        if obs.seat == obs.declarer:
            out.append(_("You laid away: {cards}").format(cards=cards_text(obs.discards)))
        else:
            out.append(_("Laid away face up by {name}: {cards}").format(
                name=names[obs.declarer], cards=cards_text(obs.discards)))
    return out


def direction_text(direction: str) -> str:
    """``counterclockwise`` / ``clockwise`` in the player's language."""
    if direction == "clockwise":
        return _("clockwise")
    if direction == "counterclockwise":
        return _("counterclockwise")
    return direction


def seating_text(seat: int, first: int, seats: int, direction: str, names: Sequence[str],
                 active: Sequence[int] = ()) -> str:
    """The seats in play order from ``first``, each placed as ``seat`` sees the
    table: with counter-clockwise play the next player sits on one's right,
    with clockwise play on one's left.  ``active``: the seats that play this
    hand (all when empty); the others sit out."""
    clockwise = direction == "clockwise"
    left, right = _("on your left"), _("on your right")
    where = {1: left if clockwise else right, 2: _("across"), 3: right if clockwise else left}
    if seats != 4:
        where = {}
    playing = set(active or range(seats))
    order = [(first + i) % seats for i in range(seats) if (first + i) % seats in playing]

    def placed(s: int) -> str:
        if s == seat:
            return _("you")
        return f"{names[s]} ({where.get((s - seat) % seats, _('seat {n}').format(n=s))})"

    text = _("Play goes {direction}, the forehand first: {order}").format(
        direction=direction_text(direction), order=" -> ".join(placed(s) for s in order))
    out = [s for s in range(seats) if s not in playing]
    if not out:
        return text
    if out == [seat]:
        return text + _("; you sit out")
    shown = [names[s] if s != seat else _("you") for s in out]
    return text + n_("; {names} sits out", "; {names} sit out", len(shown)).format(names=and_text(shown))


def contract_words(text: str, rules: RuleFacts | None) -> str:
    """A sheet row's contract (:func:`core.table.contract_text`: ``rufspiel XX trull
    gegen x2``) in the player's words: titles, cards and suits as shown."""
    words = text.split()
    if not words:
        return ""
    out = [game_title(words[0], rules) if rules is not None else words[0]]
    rest = iter(words[1:])
    for word in rest:
        if word == "trump":
            suit = next(rest, "")
            out.append(_("trump {suit}").format(suit=suit_name(suit)))
        elif word == "gegen":
            out.append(_("against"))
        elif word.startswith("x") and word[1:].isdigit():
            out.append(word)
        elif rules is not None and rules.premium(word) is not None:
            out.append(premium_title(word, rules))
        else:
            try:
                out.append(card_text(parse_card(word)))
            except CardError:
                out.append(word)
    return " ".join(out)


def sheet_lines(table: Table, names: Sequence[str], terms: Terms | None = None,
                rules: RuleFacts | None = None) -> list[str]:
    """The score sheet: per round dealer, declarers, contract and each seat's
    amount with its running total in brackets (and the unit of the amounts
    below, where the ruleset plays for money); ``rules`` give the games' and
    premiums' titles."""
    terms = terms or Terms()
    width = max(6, *(len(n) for n in names))
    decls = ["+".join(names[s] for s in row.declarers) or "-" for row in table.rows]
    contracts = [contract_words(row.contract, rules) for row in table.rows]
    dw = max(11, *(len(d) for d in decls)) if decls else 11
    cw = max(8, *(len(c) for c in contracts)) if contracts else 8
    col = max(10, *(len(n) for n in names))
    out = [f"{_('Rd'):>3}  {_('Dealer'):<{width}}  {_('Declarer(s)'):<{dw}}  {_('Game'):<{cw}}"
           + "".join(f"  {n:>{col}}" for n in names)]
    for row, decl, contract in zip(table.rows, decls, contracts, strict=True):
        line = f"{row.number:>3}  {names[row.dealer]:<{width}}  {decl:<{dw}}  {contract:<{cw}}"
        line += "".join(f"  {f'{signed(a)} ({signed(t)})':>{col}}"
                        for a, t in zip(row.settlement, row.totals, strict=True))
        out.append(line + ("  " + _("(round x{n})").format(n=row.factor) if row.factor != 1 else ""))
    if not table.rows:
        out.append("  " + _("(no rounds played yet)"))
    if terms.money:
        unit = terms.unit_name
        out.append("  " + _("(amounts in {unit}; the running total in brackets)").format(unit=unit))
    return out


def standings_lines(ranks: Sequence[Standing], names: Sequence[str], terms: Terms | None = None) -> list[str]:
    """``1. Franz  HP 3  SP +5`` per seat, best first (``SP +30 ct`` with money)."""
    terms = terms or Terms()
    width = max(len(n) for n in names)
    return [standing_line(s.place, names[s.seat], s.main, s.sub, terms, width) for s in ranks]
