"""The settlement of a finished hand as the full-screen table shows it.

The headline (game, party, points or tricks, won or lost), what became of
the talon (the half taken, the cards laid away, the rest that counted for
the defenders), the notes; then one block per item: what it is and whose,
how it came out, its value with the single-game scale and Kontra, and on
the next line who pays whom; last, each seat's amount in aligned columns
(names above, amounts below), so the figures stay apart at 80 columns.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from tarock.client.i18n import _
from tarock.client.text.figures import SYMBOLS, number_text
from tarock.client.text.results import item_calc, item_outcome, item_owner, payment_text, result_lines
from tarock.client.text.rule_words import Terms, cards_points, game_title
from tarock.client.ui.canvas import text_width
from tarock.client.ui.cards import cards_text
from tarock.core.cards import Card
from tarock.core.observation import Observation
from tarock.core.settlement import settle
from tarock.core.table import is_passed_out


def talon_rest(obs: Observation) -> tuple[Card, ...]:
    """The talon cards the declarer did not take, where they count for the defenders
    (a game of points whose declarer took a half or a pile, or no talon at all)."""
    contract, result = obs.contract, obs.result
    if contract is None or result is None or not result.declarers:
        return ()
    spec = contract.spec
    if spec.goal.kind != "points" or spec.talon not in ("half", "pile", "none"):
        return ()
    talon = [c for pile in obs.talon_shown for c in pile]
    return tuple(c for c in talon if c not in obs.talon_seen)


def _headline(obs: Observation, names: Sequence[str], terms: Terms) -> list[str]:
    """The headline, and for a game of tricks the tricks made rather than points."""
    result = obs.result
    assert result is not None
    lines = result_lines(obs, names, terms, SYMBOLS)
    head = lines[0]
    contract = obs.contract
    if contract is not None and contract.spec.goal.kind == "tricks" and result.declarers:
        made = sum(1 for t in obs.tricks if t.winner in result.declarers)
        outcome = {True: _("won"), False: _("lost"), None: _("drawn")}[result.won]
        head = _("Result: {party} played {game}: {made} of {need} tricks, {outcome}").format(
            party=names[result.declarers[0]] if len(result.declarers) == 1 else _("the declarers"),
            game=game_title(contract.spec),
            made=made,
            need=contract.spec.goal.tricks,
            outcome=outcome,
        )
    out = [head]
    for line in lines[1:]:
        if line.startswith(_("Breakdown (value x single-game scale x Kontra; who pays whom):").split("(")[0]):
            break
        out.append(line)
    rest = talon_rest(obs)
    if rest:
        points = number_text(cards_points(rest, obs.rules), SYMBOLS)
        out.append(
            _("The talon left lying ({cards}, {points} points) counted for the defenders.").format(
                cards=cards_text(rest), points=points
            )
        )
    return out


def settlement_lines(obs: Observation, names: Sequence[str], width: int) -> list[str]:
    """The settlement of ``obs``'s hand for a box ``width`` columns wide."""
    result = obs.result
    assert result is not None
    terms = Terms.of_rules(obs.rules)
    if is_passed_out(result):
        return textwrap.wrap(result_lines(obs, names, terms, SYMBOLS)[0], width)
    out: list[str] = []
    for line in _headline(obs, names, terms):
        out.extend(textwrap.wrap(line, width, subsequent_indent="  "))
    out.append("")
    for item in result.items:
        title = item_owner(item, names, obs.rules, "")  # "Game (Hilde and you)": the headline names the game
        right = f"{item_outcome(item)}, {item_calc(item, terms, SYMBOLS)}"
        room = width - text_width([("", right)]) - 2
        first = textwrap.wrap(title, max(12, room)) or [""]
        out.append(first[0].ljust(max(12, room)) + "  " + right)
        out.extend("  " + more for more in first[1:])
        out.extend(textwrap.wrap(payment_text(item, names, terms), width, initial_indent="  → ",
                                 subsequent_indent="    "))
    out.append("")
    out.extend(_totals(obs, names, terms, width))
    return out


def _totals(obs: Observation, names: Sequence[str], terms: Terms, width: int) -> list[str]:
    """Each seat's amount: the names in one row, the amounts right below, in aligned columns."""
    result = obs.result
    assert result is not None
    players = sorted({s for t in obs.tricks for s in t.seats} | {a.seat for a in obs.history})
    totals = settle(result.items, len(names))
    cells = [(names[s], terms.amount(totals[s], SYMBOLS)) for s in players]
    label = _("Settlement")
    col = max([len(n) for n, _a in cells] + [text_width([("", a)]) for _n, a in cells]) + 2
    while len(label) + 1 + col * len(cells) > width and col > 6:
        col -= 1
    head = " " * (len(label) + 1) + "".join(n[: col - 1].rjust(col) for n, _a in cells)
    row = label + " " + "".join(a.rjust(col) for _n, a in cells)
    sat_out = [names[s] for s in range(len(names)) if s not in players]
    tail = [_("({names} sat out)").format(names=", ".join(sat_out))] if sat_out else []
    return [head, row, *tail]
