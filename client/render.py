"""Text for what a table shows: cards, tricks, actions, the game in play,
results, the score sheet and the standings.

Plain functions from observations (and a table) to strings, so they are
tested without a terminal.  How amounts and Kontra levels are written comes
from :class:`client.words.Terms` (the table's :class:`~core.facts.VariantFacts`),
the premiums' titles from the table's rule facts, never from a variant's name.
A finished hand's settlement is shown item by item (:func:`breakdown_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from client.bots.limits import chain_level
from client.words import VORHAND, Terms, pair_levels, pair_target, signed, target_text
from core.actions import Action, Announce, Bid, Discard, Join, Kontra, KontraTarget, Pass
from core.cards import SUIT_LETTERS, SUIT_OF, TAROCK, Card, format_card, sort_key
from core.facts import RuleFacts
from core.observation import Observation, TrickView
from core.settlement import Item, settle
from core.state import Announcement, HandResult
from core.table import Standing, Table, is_passed_out

_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
           Fraction(1, 4): "¼", Fraction(3, 4): "¾"}
SUIT_WORDS = {"c": "clubs", "s": "spades", "h": "hearts", "d": "diamonds"}

PASS_WORDS = {"announce": "Gut!", "birds": "no higher bird (pass)"}
"""What a ``pass`` means in a phase, where it is not a plain pass (docs/records.md)."""

__all__ = ["action_text", "announcement_text", "breakdown_lines", "cards_text", "game_text", "item_line",
           "names_text", "number_text", "parallel_kontra", "pass_text", "points_text", "result_lines",
           "seating_text", "sheet_lines", "signed", "standings_lines", "table_lines", "talon_text",
           "trick_text"]


def number_text(x: Fraction | int) -> str:
    """``3``, ``1½``, ``2⅓``, ``-¾``; other fractions as ``5 2/7``."""
    x = Fraction(x)
    sign = "-" if x < 0 else ""
    x = abs(x)
    whole, rest = divmod(x, 1)
    if rest == 0:
        return f"{sign}{whole}"
    glyph = _GLYPHS.get(rest)
    if glyph is not None:
        return f"{sign}{whole or ''}{glyph}"
    return f"{sign}{whole} {rest}" if whole else f"{sign}{rest}"


def points_text(units: int, unit: int) -> str:
    """Card points given in units (``unit`` units make a point)."""
    return number_text(Fraction(units, unit))


def cards_text(cards: Sequence[Card]) -> str:
    """Cards in display order, grouped: ``Sküs XX VII | cK c10 | hQ``."""
    groups: dict[int, list[str]] = {}
    for card in sorted(cards, key=sort_key):
        groups.setdefault(SUIT_OF[card], []).append(format_card(card))
    order = [TAROCK, *range(len(SUIT_LETTERS))]
    return " | ".join(" ".join(groups[s]) for s in order if s in groups) or "(none)"


def trick_text(trick: TrickView, names: Sequence[str]) -> str:
    """``Franz XV, Hilde c7, ... -> Franz``."""
    plays = ", ".join(f"{names[s]} {format_card(c)}" for s, c in zip(trick.seats, trick.cards, strict=True))
    return plays + (f" -> {names[trick.winner]}" if trick.winner is not None else "")


def talon_text(piles: Sequence[Sequence[Card]]) -> str:
    """``half 1: XX c7 d4; half 2: ...`` for the piles that show cards."""
    return "; ".join(f"half {i}: {' '.join(format_card(c) for c in sorted(p, key=sort_key))}"
                     for i, p in enumerate(piles, start=1) if p)


def pass_text(phase: str) -> str:
    """A ``pass`` in ``phase``: "Gut!" among the announcements, a plain pass in
    the bidding, ``pass (kontra)`` elsewhere."""
    if phase in ("", "bidding"):
        return "pass"
    return PASS_WORDS.get(phase, f"pass ({phase})")


def parallel_kontra(obs: Observation, seat: int, target: KontraTarget, before: int | None = None) -> bool:
    """Whether a Kontra by ``seat`` on ``target`` joins one an opponent said before
    (the Fahrer's round: each opponent of a lone declarer doubles again), so it is
    another Kontra, not a Re.  ``before``: look at the history up to this index."""
    if obs.declarer is None or obs.called is not None or seat == obs.declarer:
        return False
    history = obs.history[:before]
    earlier = [a for a in history if isinstance(a, Kontra) and a.target == target]
    return bool(earlier) and earlier[-1].seat != obs.declarer


def action_text(action: Action, names: Sequence[str], after: Observation | None = None,
                terms: Terms | None = None, phase: str = "") -> str:
    """What a seat did, as others saw it (a hidden discard shows no cards).

    With ``after``, the view just after the action, a Kontra is named by the
    level it reached (``Rekontra on trull``), a talon half by its cards and a
    discard by the cards laid away face up; ``phase`` is the phase the action
    was taken in (a ``pass`` is "Gut!" among the announcements).
    """
    terms = terms or Terms()
    who = names[action.seat]
    if isinstance(action, Discard):
        if not action.cards:
            return f"{who}: discards"
        if after is not None and after.seat != action.seat and after.result is None:
            return f"{who}: discards (face up: {' '.join(format_card(c) for c in action.cards)})"
        return f"{who}: {action.describe()}"
    if isinstance(action, Pass):
        return f"{who}: {pass_text(phase)}"
    if isinstance(action, Bid) and action.contract == VORHAND:
        return f"{who}: Vorhand!"
    if isinstance(action, Announce) and phase == "birds":
        return f"{who}: names the bird {', '.join(action.announce)}"
    if isinstance(action, Kontra):
        pair = pair_target(action.target)
        if pair is not None:
            return f"{who}: {terms.kontra(1 if pair[0] == 'game' else 2)} " \
                   f"{target_text(action.target, names, terms)}"
        if after is not None:
            level = chain_level(after, action.target)
            word = terms.kontra(level) or terms.kontra(1)
            if parallel_kontra(after, action.seat, action.target, -1):
                word = f"{terms.kontra(1)} (x{2 ** level})"
            return f"{who}: {word}" + (f" on {action.target.name}" if action.target.name else "")
    if action.type == "talon":
        pile = int(getattr(action, "pile", 0))
        shown = after.talon_shown[pile] if after is not None and pile < len(after.talon_shown) else ()
        cards = f" ({' '.join(format_card(c) for c in sorted(shown, key=sort_key))})" if shown else ""
        return f"{who}: takes talon half {pile + 1}{cards}"
    if action.type == "give-up":
        return f"{who}: gives up (schleift)"
    if isinstance(action, Join):
        return f"{who}: {action.describe()} (plays it too)"
    return f"{who}: {action.describe()}"


def announcement_text(ann: Announcement, names: Sequence[str], terms: Terms | None = None) -> str:
    """``trull (Hilde, gegen das Spiel, Rekontra x4)``."""
    terms = terms or Terms()
    notes = [names[ann.seat]]
    if ann.against:
        notes.append("gegen das Spiel")
    if ann.kontra:
        notes.append(f"{terms.kontra(ann.kontra)} x{2 ** ann.kontra}")
    return f"{ann.name} ({', '.join(notes)})"


def _kontra_part(obs: Observation, names: Sequence[str], terms: Terms) -> str:
    pairs = pair_levels(obs.history)
    if pairs:
        said = [f"{names[x]} on {names[d]} {terms.kontra(level)} x{2 ** level}"
                for (d, x), level in sorted(pairs.items())]
        return ", " + ", ".join(said)
    level = obs.kontra_level
    return f", {terms.kontra(level)} x{2 ** level}" if level else ""


def game_text(obs: Observation, names: Sequence[str], terms: Terms | None = None) -> str:
    """The game in play as a seat sees it: contract, called card, trump,
    declarer(s), partner if known, the Kontras and every announcement."""
    assert obs.contract is not None and obs.declarer is not None
    terms = terms or Terms()
    contract = obs.contract
    called = f", called {format_card(obs.called)}" if obs.called is not None else ""
    trump = f", trump {SUIT_WORDS.get(contract.trump, contract.trump)}" if contract.trump else ""
    partner = f", partner {names[obs.partner]}" if obs.partner is not None else ""
    if len(contract.declarers) > 1:
        by = " and ".join(names[d] for d in contract.declarers) + ", each for himself"
    else:
        by = names[obs.declarer]
    said = ", ".join(announcement_text(a, names, terms) for a in obs.announcements)
    announced = f"; announced: {said}" if said else ""
    kontra = _kontra_part(obs, names, terms)
    return f"Game: {contract.name}{called}{trump} by {by}{partner}{kontra}{announced}"


def table_lines(obs: Observation, names: Sequence[str]) -> list[str]:
    """What lies open on the table for ``obs.seat``: the talon halves while one
    is chosen, hands laid open (ouvert) and cards laid away face up."""
    out: list[str] = []
    if obs.phase == "talon" and any(obs.talon_shown):
        out.append(f"Talon (turned up): {talon_text(obs.talon_shown)}")
    for seat, cards in obs.open_hands:
        out.append(f"Open hand of {names[seat]}: {cards_text(cards)}")
    if obs.discards and obs.declarer is not None and obs.result is None:
        if obs.seat == obs.declarer:
            out.append(f"You laid away: {cards_text(obs.discards)}")
        else:
            out.append(f"Laid away face up by {names[obs.declarer]}: {cards_text(obs.discards)}")
    return out


def seating_text(seat: int, first: int, seats: int, direction: str, names: Sequence[str],
                 active: Sequence[int] = ()) -> str:
    """The seats in play order from ``first``, each placed as ``seat`` sees the
    table: with counter-clockwise play the next player sits on one's right,
    with clockwise play on one's left.  ``active``: the seats that play this
    hand (all when empty); the others sit out."""
    clockwise = direction == "clockwise"
    where = {1: "on your left" if clockwise else "on your right", 2: "across",
             3: "on your right" if clockwise else "on your left"} if seats == 4 else {}
    playing = set(active or range(seats))
    order = [(first + i) % seats for i in range(seats) if (first + i) % seats in playing]
    listed = " -> ".join("you" if s == seat else f"{names[s]} ({where.get((s - seat) % seats, f'seat {s}')})"
                         for s in order)
    text = f"Play goes {direction}, the forehand first: {listed}"
    out = [names[s] if s != seat else "you" for s in range(seats) if s not in playing]
    return text + (f"; {' and '.join(out)} sit{'s' if out != ['you'] else ''} out" if out else "")


def _names_in(note: str, names: Sequence[str]) -> str:
    """A result note with ``seat N`` replaced by the seat's name."""
    return re.sub(r"\bseat (\d+)\b",
                  lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), note)


def names_text(seats: Sequence[int], names: Sequence[str]) -> str:
    """``Hilde``, ``Hilde and Sepp``, ``Franz, Sepp and Resi``."""
    named = [names[s] if 0 <= s < len(names) else f"seat {s}" for s in seats]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _item_title(item: Item, names: Sequence[str], rules: RuleFacts | None, contract: str) -> str:
    """``Game (Solodreier)``, ``Seat 1's game``, ``Trull (announced)``, ``Trischaken``."""
    label = _names_in(item.label, names) if item.label else ""
    if item.name == "game":
        if label:
            return label[:1].upper() + label[1:]
        return f"Game ({contract})" if contract else "Game"
    spec = rules.premium(item.name) if rules is not None else None
    if spec is None and not item.announced:  # a variant's own item (what one seat owes another)
        return label or item.name.capitalize()
    title = spec.title if spec is not None else item.name.capitalize()
    return f"{title} ({'announced' if item.announced else 'silent'})"


def _payment(item: Item, names: Sequence[str], terms: Terms) -> str:
    """Who pays whom for ``item`` (the formula of :mod:`core.settlement`)."""
    amount = item.amount
    if not amount:
        return "nothing to pay"
    per_opposite = abs(amount)
    per_side = per_opposite * len(item.opposite) // len(item.side)
    payers, receivers = (item.opposite, item.side) if amount > 0 else (item.side, item.opposite)
    paid, got = (per_opposite, per_side) if amount > 0 else (per_side, per_opposite)
    unit = f" {terms.money}" if terms.money else ""
    if len(payers) == 1:
        each = "each of " if len(receivers) > 1 else ""
        return f"{names_text(payers, names)} pays {got}{unit} to {each}{names_text(receivers, names)}"
    return f"{names_text(payers, names)} pay {paid}{unit} each to {names_text(receivers, names)}"


def item_line(item: Item, names: Sequence[str], terms: Terms, rules: RuleFacts | None = None,
              contract: str = "") -> str:
    """One settlement item in words: what it is, whose it is and how it came
    out, its value with the single-game scale and its Kontra, and who pays whom.

    ``Trull (announced) by Franz, Sepp and Resi: made, 20 x2 (single game) x4 (Re):
    Hilde pays 160 ct to each of Franz, Sepp and Resi``
    """
    party = item.side if item.for_side else item.opposite
    if item.made is None:
        outcome = "drawn" if item.name == "game" else "not made"
    elif item.name == "game":
        outcome = "won" if item.made else "lost"
    else:
        outcome = "made" if item.made else "failed"
    calc = str(item.base)
    if item.scale != 1:
        calc += f" x{item.scale} (single game)"
    if item.kontra:
        calc += f" x{2 ** item.kontra} ({terms.kontra(item.kontra)})"
    title = _item_title(item, names, rules, contract)
    if not item.label:  # a labelled item names its party itself ("seat 1's game")
        title += f" by {names_text(party, names)}"
    return f"{title}: {outcome}, {calc}: {_payment(item, names, terms)}"


def breakdown_lines(items: Sequence[Item], names: Sequence[str], terms: Terms | None = None,
                    rules: RuleFacts | None = None, contract: str = "",
                    players: Sequence[int] | None = None) -> list[str]:
    """A hand's settlement as a breakdown: one line per item (the game and
    each premium, announced or silent, made or failed, its Kontra and the
    single-game scale; :func:`item_line`), then the amount per player.

    ``items`` are a result's line items (:attr:`core.state.HandResult.items`);
    ``terms`` write the amounts and Kontra levels (``Terms.of`` the table's
    variant facts); ``rules`` give the premiums' titles; ``contract`` names
    the game; ``players`` are the seats shown in the last line (default: every
    seat named by an item), the others sat out.
    """
    terms = terms or Terms()
    lines = [f"  {item_line(item, names, terms, rules, contract)}" for item in items]
    if players is None:
        players = sorted({s for item in items for s in (*item.side, *item.opposite)})
    totals = settle(items, len(names))
    paid = ", ".join(f"{names[s]} {terms.amount(totals[s])}" for s in players)
    out = [names[s] for s in range(len(names)) if s not in players]
    lines.append(f"Settlement: {paid or 'nothing'}" + (f" ({' and '.join(out)} sat out)" if out else ""))
    return lines


def result_lines(obs: Observation, names: Sequence[str], terms: Terms | None = None) -> list[str]:
    """A finished hand: contract, parties, points, the settlement's breakdown and notes."""
    result = obs.result
    assert result is not None
    if is_passed_out(result):
        return [f"Result: {result.note}; the deal is void and is dealt again."]
    return _result_lines(result, obs, names, terms or Terms())


def _game_value(result: HandResult, obs: Observation, terms: Terms) -> str:
    """The game's value as won (+) or lost (-), before Kontra; the contract's
    value where no item is the game (each for himself)."""
    game = next((i for i in result.items if i.name == "game"), None)
    if game is None:
        return terms.amount(obs.contract.value) if obs.contract else "?"
    return terms.amount(-game.base if game.made is False else game.base)


def _headline(result: HandResult, obs: Observation, names: Sequence[str], terms: Terms) -> str:
    contract = obs.contract.name if obs.contract else "?"
    value = _game_value(result, obs, terms)
    if obs.called is not None:
        contract += f" {format_card(obs.called)}"
    players = sorted({s for t in obs.tricks for s in t.seats})
    if result.seat_points:
        pts = ", ".join(f"{names[s]} {points_text(result.seat_points[s], result.unit)}" for s in players)
        return f"Result: {contract}, each for himself: {pts} points"
    if obs.contract is not None and len(obs.contract.declarers) > 1:
        who = " and ".join(names[s] for s in obs.contract.declarers)
        return f"Result: {who} each played {contract} (game {value} each)"
    if not result.declarers:
        return f"Result: {contract}, each for himself (game {value})"
    lead = obs.declarer if obs.declarer in result.declarers else result.declarers[0]
    party = names[lead]
    others = [names[s] for s in result.declarers if s != lead]
    if others:
        party += " with " + " and ".join(others)
    elif obs.called is not None:
        party += " (alone)"
    ours, theirs = (points_text(p, result.unit) for p in result.points)
    outcome = {True: "won", False: "lost", None: "drawn"}[result.won]
    return f"Result: {party} played {contract}: {ours} : {theirs} points, {outcome} (game {value})"


def _result_lines(result: HandResult, obs: Observation, names: Sequence[str], terms: Terms) -> list[str]:
    lines = [_headline(result, obs, names, terms)]
    if obs.talon_seen or obs.discards:
        lines.append(f"Talon taken: {cards_text(obs.talon_seen)}; laid away: {cards_text(obs.discards)}")
    if result.note:
        lines.append(f"Note: {_names_in(result.note, names)}")
    if result.next_round_factor > 1:
        lines.append(f"The next round counts x{result.next_round_factor}.")
    players = sorted({s for t in obs.tricks for s in t.seats} | {a.seat for a in obs.history})
    contract = obs.contract.spec.title if obs.contract else ""
    lines.append("Breakdown (value x single-game scale x Kontra; who pays whom):")
    lines.extend(breakdown_lines(result.items, names, terms, obs.rules, contract, players))
    return lines


def sheet_lines(table: Table, names: Sequence[str], terms: Terms | None = None) -> list[str]:
    """The score sheet: per round dealer, declarers, contract and each seat's
    amount with its running total in brackets (and the unit of the amounts
    below, where the ruleset plays for money)."""
    terms = terms or Terms()
    width = max(6, *(len(n) for n in names))
    decls = ["+".join(names[s] for s in row.declarers) or "-" for row in table.rows]
    dw = max(11, *(len(d) for d in decls)) if decls else 11
    cw = max(8, *(len(row.contract) for row in table.rows)) if table.rows else 8
    col = max(10, *(len(n) for n in names))
    out = [f"{'Rd':>3}  {'Dealer':<{width}}  {'Declarer(s)':<{dw}}  {'Contract':<{cw}}"
           + "".join(f"  {n:>{col}}" for n in names)]
    for row, decl in zip(table.rows, decls, strict=True):
        line = f"{row.number:>3}  {names[row.dealer]:<{width}}  {decl:<{dw}}  {row.contract:<{cw}}"
        line += "".join(f"  {f'{signed(a)} ({signed(t)})':>{col}}"
                        for a, t in zip(row.settlement, row.totals, strict=True))
        out.append(line + (f"  (round x{row.factor})" if row.factor != 1 else ""))
    if not table.rows:
        out.append("  (no rounds played yet)")
    if terms.money:
        out.append(f"  (amounts in {terms.unit_name}; the running total in brackets)")
    return out


def standings_lines(ranks: Sequence[Standing], names: Sequence[str], terms: Terms | None = None) -> list[str]:
    """``1. Franz  HP 3  SP +5`` per seat, best first (``SP +30 ct`` with money)."""
    terms = terms or Terms()
    width = max(len(n) for n in names)
    return [f"{s.place:>2}. {names[s.seat]:<{width}}  HP {number_text(s.main):<4} SP {terms.amount(s.sub)}"
            for s in ranks]
