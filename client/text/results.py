"""A finished hand in words: the headline (game, party, points, won or
lost), the settlement item by item (what, whose, how it came out, its value
with the single-game scale and its Kontra, who pays whom), the amount per
player, and a place in the final standings."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tarock.client.i18n import _, p_
from tarock.client.text.cards import card_text, cards_text
from tarock.client.text.figures import PLAIN, Style, factor_text, number_text, points_text
from tarock.client.text.rule_words import (
    Terms,
    and_text,
    game_title,
    is_you,
    names_text,
    note_text,
    premium_title,
)
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation
from tarock.core.settlement import Item, settle
from tarock.core.state import HandResult
from tarock.core.table import is_passed_out


def item_title(item: Item, names: Sequence[str], rules: RuleFacts | None, contract: str) -> str:
    """``Game (Solodreier)``, ``Franz's game``, ``Trull (announced)``, ``Trischaken``."""
    label = note_text(item.label, names) if item.label else ""
    if item.name == "game":
        if label:
            return label[:1].upper() + label[1:]
        return _("Game ({game})").format(game=contract) if contract else _("Game")
    spec = rules.premium(item.name) if rules is not None else None
    if spec is None and not item.announced:  # a variant's own item (what one seat owes another)
        return label or p_("item", item.name)
    title = premium_title(item.name, rules)
    return (_("{premium} (announced)") if item.announced else _("{premium} (silent)")).format(premium=title)


def payment_text(item: Item, names: Sequence[str], terms: Terms) -> str:
    """Who pays whom for ``item`` (the formula of :mod:`core.settlement`)."""
    amount = item.amount
    if not amount:
        return _("nothing to pay")
    per_opposite = abs(amount)
    per_side = per_opposite * len(item.opposite) // len(item.side)
    payers, receivers = (item.opposite, item.side) if amount > 0 else (item.side, item.opposite)
    paid, got = (per_opposite, per_side) if amount > 0 else (per_side, per_opposite)
    who = names_text(payers, names)
    whom = names_text(receivers, [p_("pronoun", "you") if is_you(n) else n for n in names])  # "an dich"
    if len(payers) == 1:
        value = f"{got} {terms.unit}" if terms.money else str(got)
        if is_you(who):  # "You pay", not "You pays"
            if len(receivers) > 1:
                return _("You pay {amount} to each of {receivers}").format(amount=value, receivers=whom)
            return _("You pay {amount} to {receivers}").format(amount=value, receivers=whom)
        if len(receivers) > 1:
            return _("{payer} pays {amount} to each of {receivers}").format(
                payer=who, amount=value, receivers=whom)
        return _("{payer} pays {amount} to {receivers}").format(payer=who, amount=value, receivers=whom)
    value = f"{paid} {terms.unit}" if terms.money else str(paid)
    return _("{payers} pay {amount} each to {receivers}").format(payers=who, amount=value, receivers=whom)


def item_outcome(item: Item) -> str:
    """``won``, ``lost``, ``made``, ``failed``, ``drawn``, ``not made``."""
    if item.made is None:
        return _("drawn") if item.name == "game" else _("not made")
    if item.name == "game":
        return _("won") if item.made else _("lost")
    return _("made") if item.made else _("failed")


def item_calc(item: Item, terms: Terms, style: Style = PLAIN) -> str:
    """An item's value with the single-game scale and its Kontra: ``20 x2 (single game) x4 (Re)``."""
    calc = str(item.base)
    if item.scale != 1:
        calc += " " + _("{factor} (single game)").format(factor=factor_text(item.scale, style))
    if item.kontra:
        calc += f" {factor_text(2 ** item.kontra, style)} ({terms.kontra(item.kontra, style)})"
    return calc


def item_owner(item: Item, names: Sequence[str], rules: RuleFacts | None, contract: str) -> str:
    """An item's title with whose it is: ``Trull (announced) by Franz and Sepp``."""
    party = item.side if item.for_side else item.opposite
    title = item_title(item, names, rules, contract)
    if not item.label:  # a labelled item names its party itself ("seat 1's game")
        title = _("{item} by {party}").format(item=title, party=names_text(party, names))
    return title


def item_line(item: Item, names: Sequence[str], terms: Terms, rules: RuleFacts | None = None,
              contract: str = "", style: Style = PLAIN) -> str:
    """One settlement item in words: what it is, whose it is and how it came
    out, its value with the single-game scale and its Kontra, and who pays whom.

    ``Trull (announced) by Franz, Sepp and Resi: made, 20 x2 (single game) x4 (Re):
    Hilde pays 160 ct to each of Franz, Sepp and Resi``
    """
    calc = item_calc(item, terms, style)
    title = item_owner(item, names, rules, contract)
    return _("{item}: {outcome}, {calc}: {payment}").format(
        item=title, outcome=item_outcome(item), calc=calc, payment=payment_text(item, names, terms))


def breakdown_lines(items: Sequence[Item], names: Sequence[str], terms: Terms | None = None,
                    rules: RuleFacts | None = None, contract: str = "",
                    players: Sequence[int] | None = None, style: Style = PLAIN) -> list[str]:
    """A hand's settlement as a breakdown: one line per item (:func:`item_line`),
    then the amount per player.

    ``items`` are a result's line items (:attr:`core.state.HandResult.items`);
    ``terms`` write the amounts and Kontra levels (``Terms.of`` the table's
    variant facts); ``rules`` give the premiums' titles; ``contract`` names
    the game (its title, as shown); ``players`` are the seats shown in the
    last line (default: every seat named by an item), the others sat out.
    """
    terms = terms or Terms.of_rules(rules)
    lines = [f"  {item_line(item, names, terms, rules, contract, style)}" for item in items]
    if players is None:
        players = sorted({s for item in items for s in (*item.side, *item.opposite)})
    totals = settle(items, len(names))
    paid = ", ".join(f"{names[s]} {terms.amount(totals[s], style)}" for s in players)
    out = [names[s] for s in range(len(names)) if s not in players]
    line = _("Settlement: {amounts}").format(amounts=paid or _("nothing"))
    if out:
        line += " " + _("({names} sat out)").format(names=and_text(out))
    lines.append(line)
    return lines


def result_lines(obs: Observation, names: Sequence[str], terms: Terms | None = None,
                 style: Style = PLAIN) -> list[str]:
    """A finished hand: contract, parties, points, the settlement's breakdown and notes."""
    result = obs.result
    assert result is not None
    if is_passed_out(result):
        return [_("Result: {note}; the deal is void and is dealt again.").format(
            note=note_text(result.note, names))]
    terms = terms or Terms.of_rules(obs.rules)
    lines = [_headline(result, obs, names, terms, style)]
    if obs.talon_seen or obs.discards:
        lines.append(_("Talon taken: {taken}; laid away: {away}").format(
            taken=cards_text(obs.talon_seen, style), away=cards_text(obs.discards, style)))
    if result.note:
        lines.append(_("Note: {note}").format(note=note_text(result.note, names)))
    if result.next_round_factor > 1:
        lines.append(_("The next round counts {factor}.").format(
            factor=factor_text(result.next_round_factor, style)))
    players = sorted({s for t in obs.tricks for s in t.seats} | {a.seat for a in obs.history})
    contract = game_title(obs.contract.spec) if obs.contract else ""
    lines.append(_("Breakdown (value x single-game scale x Kontra; who pays whom):"))
    lines.extend(breakdown_lines(result.items, names, terms, obs.rules, contract, players, style))
    return lines


def _game_value(result: HandResult, obs: Observation, terms: Terms, style: Style) -> str:
    """The game's value as won (+) or lost (-), before Kontra; the contract's
    value where no item is the game (each for himself)."""
    game = next((i for i in result.items if i.name == "game"), None)
    if game is None:
        return terms.amount(obs.contract.spec.value, style) if obs.contract else "?"
    return terms.amount(-game.base if game.made is False else game.base, style)


def _headline(result: HandResult, obs: Observation, names: Sequence[str], terms: Terms, style: Style) -> str:
    contract = game_title(obs.contract.spec) if obs.contract else "?"
    value = _game_value(result, obs, terms, style)
    if obs.called is not None:
        contract += f" {card_text(obs.called, style)}"
    if result.seat_points:
        players = sorted({s for t in obs.tricks for s in t.seats})
        pts = ", ".join(f"{names[s]} {points_text(result.seat_points[s], result.unit, style)}"
                        for s in players)
        return _("Result: {game}, each for himself: {points} points").format(game=contract, points=pts)
    if obs.contract is not None and len(obs.contract.declarers) > 1:
        return _("Result: {names} each played {game} (game {value} each)").format(
            names=names_text(obs.contract.declarers, names), game=contract, value=value)
    if not result.declarers:
        return _("Result: {game}, each for himself (game {value})").format(game=contract, value=value)
    lead = obs.declarer if obs.declarer in result.declarers else result.declarers[0]
    others = [s for s in result.declarers if s != lead]
    if others:
        party = _("{name} with {partners}").format(name=names[lead], partners=names_text(others, names))
    elif obs.called is not None:
        party = _("{name} (alone)").format(name=names[lead])
    else:
        party = names[lead]
    ours, theirs = (points_text(p, result.unit, style) for p in result.points)
    outcome = {True: _("won"), False: _("lost"), None: _("drawn")}[result.won]
    return _("Result: {party} played {game}: {ours} : {theirs} points, {outcome} (game {value})").format(
        party=party, game=contract, ours=ours, theirs=theirs, outcome=outcome, value=value)


def standing_line(place: int, name: str, main: Fraction, sub: int, terms: Terms, width: int,
                  style: Style = PLAIN) -> str:
    """``1. Franz  HP 3    SP +5`` (``SP +30 ct`` with money)."""
    main_text, sub_text = number_text(main, style), terms.amount(sub, style)
    return f"{place:>2}. {name:<{width}}  {_('HP')} {main_text:<4} {_('SP')} {sub_text}"
