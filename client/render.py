"""Text for what a table shows: cards, tricks, actions, the game in play,
results, the score sheet and the standings.

Plain functions from observations (and a table) to strings, so they are
tested without a terminal.  Every word goes through the catalogue
(:mod:`client.i18n`), in the player's language; how amounts and Kontra
levels are written comes from :class:`client.words.Terms` (the table's
:class:`~core.facts.VariantFacts`), the games' and premiums' titles from the
table's rule facts, never from a variant's name.  Cards are written as a
player types them (:func:`card_text`: ``XV``, ``Sküs``, ``hK`` / German
``hK``, ``kD``).  A finished hand's settlement is shown item by item
(:func:`breakdown_lines`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tarock.client.i18n import NP_, Catalogue, _, n_, p_
from tarock.client.ui.texts import note_text
from tarock.client.words import (
    VORHAND,
    Terms,
    game_title,
    is_you,
    pair_levels,
    pair_target,
    premium_title,
    signed,
    target_text,
)
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
from tarock.core.cards import (
    SKUS,
    SUIT_LETTERS,
    SUIT_OF,
    TAROCK,
    Card,
    CardError,
    format_card,
    parse_card,
    rank_of,
    sort_key,
)
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation, TrickView
from tarock.core.settlement import Item, settle
from tarock.core.state import Announcement, HandResult
from tarock.core.table import Standing, Table, is_passed_out

_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
           Fraction(1, 4): "¼", Fraction(3, 4): "¾"}

SUIT_WORDS = {"c": NP_("suit", "clubs"), "s": NP_("suit", "spades"), "h": NP_("suit", "hearts"),
              "d": NP_("suit", "diamonds")}
"""The suits' names by letter (translated with :func:`suit_name`)."""
SUIT_MARKS = {"c": NP_("suit-letter", "c"), "s": NP_("suit-letter", "s"), "h": NP_("suit-letter", "h"),
              "d": NP_("suit-letter", "d")}
"""The letter of each suit in a card's name (German ``t p h k``: Treff, Pik, Herz, Karo)."""
RANK_MARKS = (NP_("card", "K"), NP_("card", "Q"), NP_("card", "C"), NP_("card", "J"))
"""King, Queen, Cavall, Jack in a card's name (German K D C B)."""

PHASES = {p: p for p in (NP_("phase", "bidding"), NP_("phase", "call"), NP_("phase", "talon"),
                         NP_("phase", "discard"), NP_("phase", "announce"), NP_("phase", "kontra"),
                         NP_("phase", "trump"), NP_("phase", "birds"), NP_("phase", "play"))}
"""The phases the engine and the shipped variants name (a house rule's own show as named)."""

__all__ = ["action_text", "announcement_text", "breakdown_lines", "card_text", "cards_text", "game_text",
           "item_line", "names_text", "number_text", "parallel_kontra", "pass_text", "phase_text",
           "points_text", "result_lines", "seating_text", "sheet_lines", "signed", "standings_lines",
           "suit_name", "table_lines", "talon_text", "trick_text"]


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


def phase_text(phase: str) -> str:
    """A phase's name in the player's language (``bidding``: ``Lizitation``)."""
    return p_("phase", phase) if phase in PHASES else phase


def suit_name(letter: str) -> str:
    """``hearts`` (``Herz``) for ``h``."""
    return p_("suit", SUIT_WORDS[letter]) if letter in SUIT_WORDS else letter


def card_text(card: Card, catalogue: Catalogue | None = None) -> str:
    """A card as the player writes it: ``XV``, ``Sküs``, ``hK``, ``c10`` (German
    ``kD``, ``tB``); in ``catalogue``'s language if given."""

    def get(context: str, msgid: str) -> str:
        return catalogue.get(msgid, context) if catalogue is not None else p_(context, msgid)

    if card == SKUS:
        return get("card", "Sküs")
    name = format_card(card)
    if card < 22:
        return name
    rank = rank_of(card)
    letter = SUIT_LETTERS[SUIT_OF[card]]
    return get("suit-letter", SUIT_MARKS[letter]) + (get("card", RANK_MARKS[rank]) if rank < 4 else name[1:])


def cards_line(cards: Sequence[Card]) -> str:
    """Cards as written, in display order, separated by spaces."""
    return " ".join(card_text(c) for c in sorted(cards, key=sort_key))


def cards_text(cards: Sequence[Card]) -> str:
    """Cards in display order, grouped: ``Sküs XX VII | cK c10 | hQ``."""
    groups: dict[int, list[str]] = {}
    for card in sorted(cards, key=sort_key):
        groups.setdefault(SUIT_OF[card], []).append(card_text(card))
    order = [TAROCK, *range(len(SUIT_LETTERS))]
    return " | ".join(" ".join(groups[s]) for s in order if s in groups) or _("(none)")


def trick_text(trick: TrickView, names: Sequence[str]) -> str:
    """``Franz XV, Hilde c7, ... -> Franz``."""
    plays = ", ".join(f"{names[s]} {card_text(c)}" for s, c in zip(trick.seats, trick.cards, strict=True))
    return plays + (f" -> {names[trick.winner]}" if trick.winner is not None else "")


def talon_text(piles: Sequence[Sequence[Card]]) -> str:
    """``half 1: XX c7 d4; half 2: ...`` for the piles that show cards."""
    return "; ".join(_("half {n}: {cards}").format(n=i, cards=cards_line(p))
                     for i, p in enumerate(piles, start=1) if p)


def pass_text(phase: str) -> str:
    """A ``pass`` in ``phase``: "Gut!" among the announcements, a plain pass in
    the bidding, ``pass (kontra)`` elsewhere."""
    if phase in ("", "bidding"):
        return _("pass")
    if phase == "announce":
        return _("Gut!")
    if phase == "birds":
        return _("no higher bird (pass)")
    return _("pass ({phase})").format(phase=phase_text(phase))


def parallel_kontra(obs: Observation, seat: int, target: KontraTarget, before: int | None = None) -> bool:
    """Whether a Kontra by ``seat`` on ``target`` joins one an opponent said before
    (the Fahrer's round: each opponent of a lone declarer doubles again), so it is
    another Kontra, not a Re.  ``before``: look at the history up to this index."""
    if obs.declarer is None or obs.called is not None or seat == obs.declarer:
        return False
    history = obs.history[:before]
    earlier = [a for a in history if isinstance(a, Kontra) and a.target == target]
    return bool(earlier) and earlier[-1].seat != obs.declarer


def premiums_text(names: Sequence[str], rules: RuleFacts | None) -> str:
    """Premiums by their titles: ``Trull, Vier Könige``."""
    return ", ".join(premium_title(n, rules) for n in names)


def action_words(action: Action, names: Sequence[str], after: Observation | None, terms: Terms,
                 phase: str, rules: RuleFacts | None = None) -> str:
    """What a seat did, without who did it (see :func:`action_text`)."""
    rules = after.rules if after is not None else rules
    if isinstance(action, Discard):
        if not action.cards:
            return _("discards")
        if after is not None and after.seat != action.seat and after.result is None:
            return _("discards (face up: {cards})").format(cards=cards_line(action.cards))
        return _("discards {cards}").format(cards=cards_line(action.cards))
    if isinstance(action, Pass):
        return pass_text(phase)
    if isinstance(action, Bid):
        if action.contract == VORHAND:
            return _("Vorhand!")
        game = game_title(action.contract, rules)
        if action.announce:
            additions = premiums_text(action.announce, rules)
            return _("bid {game} + {additions}").format(game=game, additions=additions)
        return _("bid {game}").format(game=game)
    if isinstance(action, Announce):
        said = premiums_text(action.announce, rules)
        if phase == "birds":
            return _("names the bird {bird}").format(bird=said)
        if action.against:
            return _("announce {additions} (against the game)").format(additions=said)
        return _("announce {additions}").format(additions=said)
    if isinstance(action, Kontra):
        pair = pair_target(action.target)
        if pair is not None:
            return f"{terms.kontra(1 if pair[0] == 'game' else 2)} {target_text(action.target, names, terms)}"
        level = after.chain_level(action.target) if after is not None else 1
        word = terms.kontra(level) or terms.kontra(1)
        if after is not None and parallel_kontra(after, action.seat, action.target, -1):
            word = f"{terms.kontra(1)} (x{2 ** level})"
        on = target_text(action.target, names, terms, rules)
        return f"{word} {on}" if on else word
    if isinstance(action, Call):
        return _("call {card}").format(card=card_text(action.card))
    if isinstance(action, Trump):
        return _("trump {suit}").format(suit=suit_name(action.suit))
    if isinstance(action, Play):
        return _("play {card}").format(card=card_text(action.card))
    if isinstance(action, Join):
        return _("{game} bei (plays it too)").format(game=game_title(action.contract, rules))
    if action.type == "talon":
        pile = int(getattr(action, "pile", 0))
        shown = after.talon_shown[pile] if after is not None and pile < len(after.talon_shown) else ()
        if shown:
            return _("takes talon half {n} ({cards})").format(n=pile + 1, cards=cards_line(shown))
        return _("takes talon half {n}").format(n=pile + 1)
    if action.type == "give-up":
        return _("gives up (schleift)")
    return p_("action", action.describe())


def action_text(action: Action, names: Sequence[str], after: Observation | None = None,
                terms: Terms | None = None, phase: str = "", rules: RuleFacts | None = None) -> str:
    """What a seat did, as others saw it (a hidden discard shows no cards).

    With ``after``, the view just after the action, a Kontra is named by the
    level it reached (``Rekontra on Trull``), a talon half by its cards and a
    discard by the cards laid away face up; ``phase`` is the phase the action
    was taken in (a ``pass`` is "Gut!" among the announcements); ``rules``
    give the titles where there is no ``after``.
    """
    words = action_words(action, names, after, terms or Terms(), phase, rules)
    return _("{name}: {what}").format(name=names[action.seat], what=words)


def announcement_text(ann: Announcement, names: Sequence[str], terms: Terms | None = None,
                      rules: RuleFacts | None = None) -> str:
    """``Trull (Hilde, against the game, Rekontra x4)``."""
    terms = terms or Terms()
    notes = [names[ann.seat]]
    if ann.against:
        notes.append(_("against the game"))
    if ann.kontra:
        notes.append(f"{terms.kontra(ann.kontra)} x{2 ** ann.kontra}")
    return f"{premium_title(ann.name, rules)} ({', '.join(notes)})"


def _kontra_part(obs: Observation, names: Sequence[str], terms: Terms) -> str:
    pairs = pair_levels(obs.history)
    if pairs:
        said = [_("{name} on {declarer} {kontra} x{factor}").format(
                    name=names[x], declarer=names[d], kontra=terms.kontra(level), factor=2 ** level)
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
    parts = [game_title(contract.name, obs.rules)]
    if obs.called is not None:
        parts.append(_("called {card}").format(card=card_text(obs.called)))
    if contract.trump:
        parts.append(_("trump {suit}").format(suit=suit_name(contract.trump)))
    if len(contract.declarers) > 1:
        by = _("{names}, each for himself").format(names=names_text(contract.declarers, names))
    else:
        by = names[obs.declarer]
    partner = _(", partner {name}").format(name=names[obs.partner]) if obs.partner is not None else ""
    said = ", ".join(announcement_text(a, names, terms, obs.rules) for a in obs.announcements)
    announced = _("; announced: {list}").format(list=said) if said else ""
    kontra = _kontra_part(obs, names, terms)
    return _("Game: {game} by {by}").format(game=", ".join(parts), by=by) + partner + kontra + announced


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
    return text + n_("; {names} sits out", "; {names} sit out", len(shown)).format(names=_and(shown))


def _and(named: Sequence[str]) -> str:
    if len(named) == 1:
        return named[0]
    return _("{names} and {last}").format(names=", ".join(named[:-1]), last=named[-1])


def names_text(seats: Sequence[int], names: Sequence[str]) -> str:
    """``Hilde``, ``Hilde and Sepp``, ``Franz, Sepp and Resi``."""
    return _and([names[s] if 0 <= s < len(names) else _("seat {n}").format(n=s) for s in seats])


def _item_title(item: Item, names: Sequence[str], rules: RuleFacts | None, contract: str) -> str:
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


def _payment(item: Item, names: Sequence[str], terms: Terms) -> str:
    """Who pays whom for ``item`` (the formula of :mod:`core.settlement`)."""
    amount = item.amount
    if not amount:
        return _("nothing to pay")
    per_opposite = abs(amount)
    per_side = per_opposite * len(item.opposite) // len(item.side)
    payers, receivers = (item.opposite, item.side) if amount > 0 else (item.side, item.opposite)
    paid, got = (per_opposite, per_side) if amount > 0 else (per_side, per_opposite)
    who, whom = names_text(payers, names), names_text(receivers, names)
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


def item_line(item: Item, names: Sequence[str], terms: Terms, rules: RuleFacts | None = None,
              contract: str = "") -> str:
    """One settlement item in words: what it is, whose it is and how it came
    out, its value with the single-game scale and its Kontra, and who pays whom.

    ``Trull (announced) by Franz, Sepp and Resi: made, 20 x2 (single game) x4 (Re):
    Hilde pays 160 ct to each of Franz, Sepp and Resi``
    """
    party = item.side if item.for_side else item.opposite
    if item.made is None:
        outcome = _("drawn") if item.name == "game" else _("not made")
    elif item.name == "game":
        outcome = _("won") if item.made else _("lost")
    else:
        outcome = _("made") if item.made else _("failed")
    calc = str(item.base)
    if item.scale != 1:
        calc += " " + _("x{n} (single game)").format(n=item.scale)
    if item.kontra:
        calc += f" x{2 ** item.kontra} ({terms.kontra(item.kontra)})"
    title = _item_title(item, names, rules, contract)
    if not item.label:  # a labelled item names its party itself ("seat 1's game")
        title = _("{item} by {party}").format(item=title, party=names_text(party, names))
    return _("{item}: {outcome}, {calc}: {payment}").format(
        item=title, outcome=outcome, calc=calc, payment=_payment(item, names, terms))


def breakdown_lines(items: Sequence[Item], names: Sequence[str], terms: Terms | None = None,
                    rules: RuleFacts | None = None, contract: str = "",
                    players: Sequence[int] | None = None) -> list[str]:
    """A hand's settlement as a breakdown: one line per item (the game and
    each premium, announced or silent, made or failed, its Kontra and the
    single-game scale; :func:`item_line`), then the amount per player.

    ``items`` are a result's line items (:attr:`core.state.HandResult.items`);
    ``terms`` write the amounts and Kontra levels (``Terms.of`` the table's
    variant facts); ``rules`` give the premiums' titles; ``contract`` names
    the game (its title, as shown); ``players`` are the seats shown in the
    last line (default: every seat named by an item), the others sat out.
    """
    terms = terms or Terms()
    lines = [f"  {item_line(item, names, terms, rules, contract)}" for item in items]
    if players is None:
        players = sorted({s for item in items for s in (*item.side, *item.opposite)})
    totals = settle(items, len(names))
    paid = ", ".join(f"{names[s]} {terms.amount(totals[s])}" for s in players)
    out = [names[s] for s in range(len(names)) if s not in players]
    line = _("Settlement: {amounts}").format(amounts=paid or _("nothing"))
    if out:
        line += " " + _("({names} sat out)").format(names=_and(out))
    lines.append(line)
    return lines


def result_lines(obs: Observation, names: Sequence[str], terms: Terms | None = None) -> list[str]:
    """A finished hand: contract, parties, points, the settlement's breakdown and notes."""
    result = obs.result
    assert result is not None
    if is_passed_out(result):
        return [_("Result: {note}; the deal is void and is dealt again.").format(
            note=note_text(result.note, names))]
    return _result_lines(result, obs, names, terms or Terms())


def _game_value(result: HandResult, obs: Observation, terms: Terms) -> str:
    """The game's value as won (+) or lost (-), before Kontra; the contract's
    value where no item is the game (each for himself)."""
    game = next((i for i in result.items if i.name == "game"), None)
    if game is None:
        return terms.amount(obs.contract.value) if obs.contract else "?"
    return terms.amount(-game.base if game.made is False else game.base)


def _headline(result: HandResult, obs: Observation, names: Sequence[str], terms: Terms) -> str:
    contract = game_title(obs.contract.name, obs.rules) if obs.contract else "?"
    value = _game_value(result, obs, terms)
    if obs.called is not None:
        contract += f" {card_text(obs.called)}"
    players = sorted({s for t in obs.tricks for s in t.seats})
    if result.seat_points:
        pts = ", ".join(f"{names[s]} {points_text(result.seat_points[s], result.unit)}" for s in players)
        return _("Result: {game}, each for himself: {points} points").format(game=contract, points=pts)
    if obs.contract is not None and len(obs.contract.declarers) > 1:
        who = names_text(obs.contract.declarers, names)
        return _("Result: {names} each played {game} (game {value} each)").format(
            names=who, game=contract, value=value)
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
    ours, theirs = (points_text(p, result.unit) for p in result.points)
    outcome = {True: _("won"), False: _("lost"), None: _("drawn")}[result.won]
    return _("Result: {party} played {game}: {ours} : {theirs} points, {outcome} (game {value})").format(
        party=party, game=contract, ours=ours, theirs=theirs, outcome=outcome, value=value)


def _result_lines(result: HandResult, obs: Observation, names: Sequence[str], terms: Terms) -> list[str]:
    lines = [_headline(result, obs, names, terms)]
    if obs.talon_seen or obs.discards:
        lines.append(_("Talon taken: {taken}; laid away: {away}").format(
            taken=cards_text(obs.talon_seen), away=cards_text(obs.discards)))
    if result.note:
        lines.append(_("Note: {note}").format(note=note_text(result.note, names)))
    if result.next_round_factor > 1:
        lines.append(_("The next round counts x{n}.").format(n=result.next_round_factor))
    players = sorted({s for t in obs.tricks for s in t.seats} | {a.seat for a in obs.history})
    contract = game_title(obs.contract.name, obs.rules) if obs.contract else ""
    lines.append(_("Breakdown (value x single-game scale x Kontra; who pays whom):"))
    lines.extend(breakdown_lines(result.items, names, terms, obs.rules, contract, players))
    return lines


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
    out = [f"{_('Rd'):>3}  {_('Dealer'):<{width}}  {_('Declarer(s)'):<{dw}}  {_('Contract'):<{cw}}"
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
    main, sub = _("HP"), _("SP")
    return [f"{s.place:>2}. {names[s.seat]:<{width}}  {main} {number_text(s.main):<4} "
            f"{sub} {terms.amount(s.sub)}" for s in ranks]
