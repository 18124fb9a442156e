"""What the full-screen client writes, in the player's language.

Plain functions from observations, the table's rule facts and a score
sheet to strings, every word through :mod:`client.i18n`.  The rules' data
(game and premium titles, descriptions, values, the Kontra words, the unit
of money) is read from :class:`core.facts.RuleFacts`, never from a
variant's name.  Sentences avoid verbs whose form depends on who is named
("Franz: Weiter", "Sepp, Resi −1 each → Franz +2"), so a player's name,
"Du" included, fits every line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from tarock.client.i18n import NP_, _, fill, n_, p_
from tarock.client.ui.cards import card_text, cards_text
from tarock.client.words import is_you
from tarock.core.actions import (
    Action,
    Announce,
    Bid,
    Call,
    Discard,
    Join,
    Kontra,
    KontraTarget,
    Pass,
    Play,
    Trump,
)
from tarock.core.auction import VORHAND
from tarock.core.cards import SUIT_LETTERS, SUIT_SYMBOLS, Card
from tarock.core.contracts import ContractSpec
from tarock.core.facts import KONTRA_WORDS, RuleFacts
from tarock.core.observation import Observation, TrickView
from tarock.core.settlement import Item, settle
from tarock.core.state import HandResult, Reason

_GLYPHS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}
MINUS = "−"


# -- numbers, amounts, names ------------------------------------------------------------


def number_text(x: Fraction | int) -> str:
    """``3``, ``1½``, ``23⅓``, ``−¾``."""
    x = Fraction(x)
    sign = MINUS if x < 0 else ""
    x = abs(x)
    whole, rest = divmod(x, 1)
    if rest == 0:
        return f"{sign}{whole}"
    glyph = _GLYPHS.get(rest)
    if glyph is not None:
        return f"{sign}{whole or ''}{glyph}"
    return f"{sign}{whole} {rest.numerator}/{rest.denominator}"


def signed(n: int | Fraction) -> str:
    """``+3``, ``−2``, ``0``."""
    if not n:
        return "0"
    return ("+" if n > 0 else "") + number_text(n)


def money(rules: RuleFacts | None) -> str:
    """The unit of amounts (``ct``), or empty for game points."""
    unit = rules.facts.money if rules is not None else ""
    return p_("money", unit) if unit else ""


def amount_text(n: int, rules: RuleFacts | None, sign: bool = True) -> str:
    """An amount with its unit: ``+30 ct``, ``−2``."""
    text = signed(n) if sign else number_text(n)
    unit = money(rules)
    return f"{text} {unit}" if unit else text


def points_text(units: int, unit: int) -> str:
    """Card points given in the variant's units (3 a point for thirds)."""
    return number_text(Fraction(units, unit))


def names_text(seats: Sequence[int], names: Sequence[str]) -> str:
    """``Hilde``, ``Hilde, Sepp``."""
    return ", ".join(names[s] if 0 <= s < len(names) else str(s) for s in seats)


def suit_text(letter: str) -> str:
    """A suit letter as its symbol and name: ``♥ Herz``."""
    index = SUIT_LETTERS.index(letter) if letter in SUIT_LETTERS else -1
    if index < 0:
        return letter
    word = (_("Clubs"), _("Spades"), _("Hearts"), _("Diamonds"))[index]
    return f"{SUIT_SYMBOLS[index]} {word}"


# -- the rules' data ---------------------------------------------------------------------


def game_title(spec: ContractSpec | None, name: str = "") -> str:
    """A game's title in the catalogue (``Rufspiel``)."""
    if spec is None:
        if name == VORHAND:
            return _("Vorhand!")
        return p_("game", name)
    return p_("game", spec.title)


def game_description(spec: ContractSpec) -> str:
    return p_("game-description", spec.description) if spec.description else ""


def variant_description(text: str) -> str:
    """A variant's description; a house-rule variant's is its base's and the house rules' names."""
    base, sep, rules = text.partition(" House rules: ")
    out = p_("variant-description", base)
    return out + " " + _("House rules: {names}").format(names=rules.rstrip(".")) if sep else out


def tariff_text(spec: ContractSpec, rules: RuleFacts | None) -> str:
    """What a game pays: ``1``, ``20 ct``, ``30 ct / lost 40 ct``."""
    value = amount_text(spec.value, rules, sign=False)
    if spec.lost is not None and spec.lost != spec.value:
        return _("{value} / lost {lost}").format(value=value, lost=amount_text(spec.lost, rules, sign=False))
    return value


def premium_title(name: str, rules: RuleFacts | None) -> str:
    """A premium's title in the catalogue (``Vier Könige``), from its name."""
    spec = rules.premium(name) if rules is not None else None
    return p_("premium", spec.title if spec is not None else name)


def premium_description(name: str, rules: RuleFacts | None) -> str:
    spec = rules.premium(name) if rules is not None else None
    return p_("premium-description", spec.description) if spec is not None and spec.description else ""


def premium_values(name: str, rules: RuleFacts | None) -> str:
    """``silent 1, announced 2``."""
    spec = rules.premium(name) if rules is not None else None
    if spec is None:
        return ""
    parts = []
    if spec.silent:
        parts.append(_("silent {value}").format(value=amount_text(spec.silent, rules, sign=False)))
    if spec.announced:
        parts.append(_("announced {value}").format(value=amount_text(spec.announced, rules, sign=False)))
    return ", ".join(parts)


def kontra_word(level: int, rules: RuleFacts | None) -> str:
    """The name of Kontra level ``level`` (1 = Kontra) in the table's words."""
    words = rules.facts.kontra_words if rules is not None and rules.facts.kontra_words else KONTRA_WORDS
    if 1 <= level <= len(words):
        return p_("kontra", words[level - 1])
    return f"×{2**level}" if level > 0 else ""


def pass_word(phase: str) -> str:
    """What a pass is called in ``phase``: "Weiter" (bidding, Kontra), "Gut!"
    among the announcements, no higher bird in the bird contest."""
    if phase == "announce":
        return _("Gut!")
    if phase == "birds":
        return _("No higher bird")
    return _("Pass")


def reason_text(reason: Reason | None) -> str:
    """Why an action is not allowed, in the catalogue: by the reason's
    sentence, else by the template it was written from (its figures kept),
    else by its code, else the engine's own sentence."""
    if reason is None:
        return ""
    by_message = p_("reason", reason.message)
    if by_message != reason.message:
        return by_message
    by_template = fill(reason.message)
    if by_template is not None:
        return by_template
    by_code = p_("reason-code", reason.code)
    return by_code if by_code != reason.code else reason.message


_SEAT = re.compile(r"\bseat (\d+)\b")
NOTES = (
    NP_("note", "{seat}: made"),
    NP_("note", "{seat}: failed"),
    NP_("note", "loser: {seat}"),
    NP_("note", "Jungfrau: {seat}"),
    NP_("note", "{seat}: Jungfrau"),
    NP_("note", "{seat}: Unterwertiger"),
    NP_("note", "{seat}: Oberwertiger"),
    NP_("note", "{seat}: Bürgermeister"),
    NP_("note", "{seat}"),
    NP_("note", "{seat}'s game"),
    NP_("note", "your game"),
    NP_("note", "the called King lay in the talon"),
    NP_("note", "Valat: it replaces the game and the other premiums"),
)
"""The parts of the notes results carry (with ``seat N`` as ``{seat}``), for the catalogue."""


def note_text(note: str, names: Sequence[str]) -> str:
    """A result's note, translated part by part (``seat N`` becomes a name)."""
    if not note:
        return ""
    whole = p_("note", note)
    if whole != note:
        return whole

    def part(text: str) -> str:
        seats = [int(m) for m in _SEAT.findall(text)]
        template = _SEAT.sub("{seat}", text)
        if template == "{seat}'s game" and seats and is_you(names_text([seats[0]], names)):
            return p_("note", "your game")
        out = p_("note", template)
        if seats and "{seat}" in out:
            return out.replace("{seat}", names_text([seats[0]], names), 1)
        return out

    return "; ".join(", ".join(part(p) for p in chunk.split(", ")) for chunk in note.split("; "))


# -- what happened ------------------------------------------------------------------------


def kontra_label(
    obs: Observation, target: KontraTarget, names: Sequence[str], level: int | None = None
) -> str:
    """A Kontra by its level's word and what it is on: ``Rekontra``,
    ``Kontra on Trull``, ``Kontra on Sepp's game``, ``Re on Hilde's Kontra``."""
    if target.declarer is not None and is_you(names_text([target.declarer], names)):
        return _("{kontra} on your game").format(kontra=kontra_word(1, obs.rules))
    if target.answer is not None and is_you(names_text([target.answer], names)):
        return _("{re} on your {kontra}").format(
            re=kontra_word(2, obs.rules), kontra=kontra_word(1, obs.rules)
        )
    if target.declarer is not None:
        return _("{kontra} on {name}'s game").format(
            kontra=kontra_word(1, obs.rules), name=names_text([target.declarer], names)
        )
    if target.answer is not None:
        return _("{re} on {name}'s {kontra}").format(
            re=kontra_word(2, obs.rules),
            kontra=kontra_word(1, obs.rules),
            name=names_text([target.answer], names),
        )
    if level is None:
        level = obs.chain_level(target) + 1
    word = kontra_word(level, obs.rules) or kontra_word(1, obs.rules)
    if target.name:
        return _("{kontra} on {premium}").format(kontra=word, premium=premium_title(target.name, obs.rules))
    return word


def additions_text(names_: Sequence[str], rules: RuleFacts | None) -> str:
    return ", ".join(premium_title(n, rules) for n in names_)


def action_text(
    action: Action, names: Sequence[str], after: Observation | None = None, phase: str = ""
) -> str:
    """What a seat did, as the others saw it: ``Franz: Rufspiel + Trull``."""
    who = names[action.seat] if 0 <= action.seat < len(names) else str(action.seat)
    rules = after.rules if after is not None else None
    return _("{name}: {what}").format(name=who, what=action_words(action, names, after, phase, rules))


def action_words(
    action: Action, names: Sequence[str], after: Observation | None, phase: str, rules: RuleFacts | None
) -> str:
    """An action in words, without who took it."""
    if isinstance(action, Pass):
        return pass_word(phase)
    if isinstance(action, Bid):
        spec = rules.contract(action.contract) if rules is not None else None
        title = game_title(spec, action.contract)
        if action.announce:
            return _("{game} + {additions}").format(
                game=title, additions=additions_text(action.announce, rules)
            )
        return title
    if isinstance(action, Announce):
        if phase == "birds":
            return _("names the bird {bird}").format(bird=additions_text(action.announce, rules))
        text = additions_text(action.announce, rules)
        return _("{additions} (against the game)").format(additions=text) if action.against else text
    if isinstance(action, Kontra):
        if after is not None:
            level = after.chain_level(action.target)
            return kontra_label(after, action.target, names, max(level, 1))
        return kontra_word(1, rules)
    if isinstance(action, Call):
        return _("calls {card}").format(card=card_text(action.card))
    if isinstance(action, Trump):
        return _("trump {suit}").format(suit=suit_text(action.suit))
    if isinstance(action, Discard):
        if action.cards:
            return _("lays away {cards}").format(cards=cards_text(action.cards))
        return _("lays away")
    if isinstance(action, Play):
        return card_text(action.card)
    if isinstance(action, Join):
        spec = rules.contract(action.contract) if rules is not None else None
        return _("{game} too (bei)").format(game=game_title(spec, action.contract))
    if action.type == "talon":
        pile = int(getattr(action, "pile", 0))
        return _("takes talon half {n}").format(n=pile + 1)
    if action.type == "give-up":
        return _("gives up")
    return p_("action", action.describe())


def trick_line(trick: TrickView, names: Sequence[str]) -> str:
    """``Franz XV · Hilde ♣7 · … → Franz``."""
    plays = " · ".join(f"{names[s]} {card_text(c)}" for s, c in zip(trick.seats, trick.cards, strict=True))
    if trick.winner is not None:
        plays += f" → {names[trick.winner]}"
    return plays


# -- the game in play ---------------------------------------------------------------------


def game_line(obs: Observation, names: Sequence[str]) -> str:
    """The game as this seat knows it: title, called card, trump, declarer,
    partner once known, Kontra and announcements."""
    if obs.contract is None:
        return _("Bidding") if obs.phase == "bidding" else ""
    contract = obs.contract
    parts = [game_title(contract.spec)]
    if obs.called is not None:
        parts.append(_("called {card}").format(card=card_text(obs.called)))
    if contract.trump:
        parts.append(_("trumps {suit}").format(suit=suit_text(contract.trump)))
    if len(contract.declarers) > 1:
        parts.append(_("played by {names}").format(names=names_text(contract.declarers, names)))
    elif obs.declarer is not None:
        parts.append(_("declarer {name}").format(name=names[obs.declarer]))
    if obs.partner is not None and obs.partner != obs.declarer:
        parts.append(_("partner {name}").format(name=names[obs.partner]))
    if obs.kontra_level:
        parts.append(f"{kontra_word(obs.kontra_level, obs.rules)} ×{2**obs.kontra_level}")
    said = [announcement_text(obs, a.name, a.seat, a.against, a.kontra, names) for a in obs.announcements]
    if said:
        parts.append(_("announced: {list}").format(list=", ".join(said)))
    return " · ".join(parts)


def announcement_text(
    obs: Observation, name: str, seat: int, against: bool, kontra: int, names: Sequence[str]
) -> str:
    notes = [names[seat]]
    if against:
        notes.append(_("against the game"))
    if kontra:
        notes.append(f"{kontra_word(kontra, obs.rules)} ×{2**kontra}")
    return f"{premium_title(name, obs.rules)} ({', '.join(notes)})"


# -- a finished hand ----------------------------------------------------------------------


def item_title(item: Item, names: Sequence[str], rules: RuleFacts | None, game: str) -> str:
    """``Game (Rufspiel)``, ``Trull (announced)``, a variant's own item by its label."""
    label = note_text(item.label, names) if item.label else ""
    if item.name == "game":
        if label:
            return label
        return game or _("Game")
    spec = rules.premium(item.name) if rules is not None else None
    if spec is None and not item.announced:
        return label or p_("item", item.name)
    title = premium_title(item.name, rules)
    return (_("{premium} (announced)") if item.announced else _("{premium} (silent)")).format(premium=title)


def item_outcome(item: Item) -> str:
    if item.made is None:
        return _("drawn") if item.name == "game" else _("not made")
    if item.name == "game":
        return _("won") if item.made else _("lost")
    return _("made") if item.made else _("failed")


def item_calc(item: Item, rules: RuleFacts | None) -> str:
    """``2 × 2 (single game) × 4 (Rekontra)``."""
    calc = number_text(item.base)
    if item.scale != 1:
        calc += " " + _("× {n} (single game)").format(n=item.scale)
    if item.kontra:
        calc += f" × {2**item.kontra} ({kontra_word(item.kontra, rules)})"
    return calc


def item_payment(item: Item, names: Sequence[str], rules: RuleFacts | None) -> str:
    """Who pays whom for ``item``: ``Sepp, Resi −1 each → Franz, Hilde +1 each``."""
    amount = item.amount
    if not amount:
        return _("nothing to pay")
    per_opposite = abs(amount)
    per_side = Fraction(per_opposite * len(item.opposite), len(item.side))
    payers, receivers = (item.opposite, item.side) if amount > 0 else (item.side, item.opposite)
    paid, got = (Fraction(per_opposite), per_side) if amount > 0 else (per_side, Fraction(per_opposite))
    unit = money(rules)

    def each(seats: Sequence[int], value: Fraction, sign: str) -> str:
        text = sign + number_text(value) + (f" {unit}" if unit else "")
        if len(seats) > 1:
            return _("{names} {amount} each").format(names=names_text(seats, names), amount=text)
        return f"{names_text(seats, names)} {text}"

    return f"{each(payers, paid, MINUS)} → {each(receivers, got, '+')}"


def item_line(item: Item, names: Sequence[str], rules: RuleFacts | None, game: str) -> str:
    """One settlement item: what, whose, how it came out, its value and who pays whom."""
    party = item.side if item.for_side else item.opposite
    title = item_title(item, names, rules, game)
    if not item.label:
        title += f" · {names_text(party, names)}"
    return f"{title} · {item_outcome(item)} · {item_calc(item, rules)} · {item_payment(item, names, rules)}"


def headline(obs: Observation, names: Sequence[str]) -> str:
    """The hand's outcome in one line: game, party, points, won or lost."""
    result = obs.result
    assert result is not None
    if result.passed_out:
        return _("Everybody passed: the deal is void and is dealt again.")
    game = game_title(obs.contract.spec) if obs.contract is not None else "?"
    if obs.called is not None:
        game += " " + card_text(obs.called)
    if result.seat_points:
        players = sorted({s for t in obs.tricks for s in t.seats})
        pts = ", ".join(f"{names[s]} {points_text(result.seat_points[s], result.unit)}" for s in players)
        return _("{game}, each for himself: {points}").format(game=game, points=pts)
    if not result.declarers:
        return game
    lead = obs.declarer if obs.declarer in result.declarers else result.declarers[0]
    party = names_text([lead, *(s for s in result.declarers if s != lead)], names)
    if len(result.declarers) == 1 and obs.called is not None:
        party = _("{name} (alone)").format(name=party)
    ours, theirs = (points_text(p, result.unit) for p in result.points)
    outcome = {True: _("won"), False: _("lost"), None: _("drawn")}[result.won]
    return _("{game} · {party} · {ours} : {theirs} points · {outcome}").format(
        game=game, party=party, ours=ours, theirs=theirs, outcome=outcome
    )


def settlement_lines(obs: Observation, names: Sequence[str]) -> list[str]:
    """The settlement broken down: headline, note, talon, each item, per player."""
    result = obs.result
    assert result is not None
    lines = [headline(obs, names)]
    if result.passed_out:
        return lines
    if obs.talon_seen or obs.discards:
        lines.append(
            _("Talon taken: {taken}; laid away: {away}").format(
                taken=cards_text(obs.talon_seen) or "–", away=cards_text(obs.discards) or "–"
            )
        )
    if result.note:
        lines.append(_("Note: {note}").format(note=note_text(result.note, names)))
    if result.next_round_factor > 1:
        lines.append(_("The next round counts ×{n}.").format(n=result.next_round_factor))
    game = game_title(obs.contract.spec) if obs.contract is not None else ""
    lines.extend(item_line(item, names, obs.rules, game) for item in result.items)
    lines.append(totals_line(result, obs, names))
    return lines


def totals_line(result: HandResult, obs: Observation, names: Sequence[str]) -> str:
    players = sorted(
        {s for t in obs.tricks for s in t.seats}
        | {a.seat for a in obs.history}
        | {s for i in result.items for s in (*i.side, *i.opposite)}
    )
    totals = settle(result.items, len(names)) if result.items else result.settlement
    paid = ", ".join(f"{names[s]} {amount_text(totals[s], obs.rules)}" for s in players)
    return _("Settlement: {amounts}").format(amounts=paid or _("nothing"))


def cards_points(cards: Sequence[Card], rules: RuleFacts | None) -> Fraction:
    """The card points of ``cards`` as the variant counts them (one by one
    here: a 54-card deck's groups of three are summed as thirds)."""
    if rules is None:
        return Fraction(0)
    unit = rules.facts.unit
    values = rules.facts.card_values
    total = sum(values[c] * unit - (unit - 1) for c in cards)
    return Fraction(total, unit)


def count_line(n: int) -> str:
    return n_("{n} card", "{n} cards", n).format(n=n)


def standing_line(
    place: int, name: str, main: Fraction, sub: int, rules: RuleFacts | None, width: int
) -> str:
    """``1. Franz   HP 4   SP +31``."""
    return _("{place}. {name}  HP {main}  SP {sub}").format(
        place=place, name=name.ljust(width), main=number_text(main).ljust(3), sub=amount_text(sub, rules)
    )
