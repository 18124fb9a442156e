"""What happened at the table in words: a seat's action (a bid, a Kontra
and what it is on, a card...), a trick, an announcement and the game in
play as a seat sees it."""

from __future__ import annotations

from collections.abc import Sequence

from tarock.client.i18n import _, p_
from tarock.client.text.cards import card_text, cards_line, suit_name
from tarock.client.text.figures import PLAIN, Style, factor_text
from tarock.client.text.rule_words import (
    Terms,
    game_title,
    is_you,
    names_text,
    pass_text,
    premium_title,
    premiums_text,
    seat_name,
)
from tarock.core.actions import Action, Announce, Bid, Call, Discard, Join, Kontra, KontraTarget, Play, Trump
from tarock.core.auction import VORHAND
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation, TrickView
from tarock.core.state import Announcement

# -- Kontras ----------------------------------------------------------------------------------

def pair_target(target: KontraTarget) -> tuple[str, int] | None:
    """``("game", 2)`` for a Kontra on declarer 2's game, ``("re", 3)`` for the
    Re on seat 3's Kontra; None for the game's and the announcements' chains."""
    if target.declarer is not None:
        return "game", target.declarer
    if target.answer is not None:
        return "re", target.answer
    return None


def pair_levels(history: Sequence[Action]) -> dict[tuple[int, int], int]:
    """Per-pair Kontras said so far: (declarer, opponent) -> level (1 Kontra, 2 Re).

    ``kontra game@D`` by seat X is X's Kontra on declarer D's game;
    ``kontra re@X`` by D is D's Re on it (docs/records.md).
    """
    out: dict[tuple[int, int], int] = {}
    for action in history:
        if not isinstance(action, Kontra):
            continue
        target = action.target
        if target.declarer is not None:
            out[(target.declarer, action.seat)] = 1
        elif target.answer is not None:
            out[(action.seat, target.answer)] = 2
    return out


def parallel_kontra(obs: Observation, seat: int, target: KontraTarget, before: int | None = None) -> bool:
    """Whether a Kontra by ``seat`` on ``target`` joins one an opponent said before
    (the Fahrer's round: each opponent of a lone declarer doubles again), so it is
    another Kontra, not a Re.  ``before``: look at the history up to this index."""
    if obs.declarer is None or obs.called is not None or seat == obs.declarer:
        return False
    earlier = [a for a in obs.history[:before] if isinstance(a, Kontra) and a.target == target]
    return bool(earlier) and earlier[-1].seat != obs.declarer


def target_text(target: KontraTarget, names: Sequence[str], terms: Terms,
                rules: RuleFacts | None = None) -> str:
    """A Kontra's target in words: ``on Hilde's game``, ``on Sepp's Kontra``,
    ``on Trull``, or nothing for the game's own chain."""
    pair = pair_target(target)
    if pair is not None:
        kind, seat = pair
        name = seat_name(names, seat)
        if kind == "game":
            return _("on your game") if is_you(name) else _("on {name}'s game").format(name=name)
        if is_you(name):
            return _("on your {kontra}").format(kontra=terms.kontra(1))
        return _("on {name}'s {kontra}").format(name=name, kontra=terms.kontra(1))
    return _("on {premium}").format(premium=premium_title(target.name, rules)) if target.name else ""


def kontra_label(target: KontraTarget, names: Sequence[str], terms: Terms, level: int,
                 rules: RuleFacts | None = None, style: Style = PLAIN) -> str:
    """A Kontra by the level it reaches and what it is on: ``Rekontra``,
    ``Kontra on Trull``, ``Kontra on Sepp's game``, ``Re on Hilde's Kontra``."""
    pair = pair_target(target)
    if pair is not None:
        level = 1 if pair[0] == "game" else 2
    word = terms.kontra(level, style) or terms.kontra(1, style)
    on = target_text(target, names, terms, rules)
    return f"{word} {on}" if on else word


# -- actions ----------------------------------------------------------------------------------

def action_words(action: Action, names: Sequence[str], after: Observation | None = None,
                 terms: Terms | None = None, phase: str = "", rules: RuleFacts | None = None,
                 style: Style = PLAIN) -> str:
    """What a seat did, without who did it (see :func:`action_text`)."""
    rules = after.rules if after is not None else rules
    terms = terms or Terms.of_rules(rules)
    if isinstance(action, Discard):
        if not action.cards:
            return _("discards")
        if after is not None and after.seat != action.seat and after.result is None:
            return _("discards (face up: {cards})").format(cards=cards_line(action.cards, style))
        return _("discards {cards}").format(cards=cards_line(action.cards, style))
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
        level = after.chain_level(action.target) if after is not None else 1
        if after is not None and parallel_kontra(after, action.seat, action.target, -1):
            word = f"{terms.kontra(1, style)} ({factor_text(2 ** level, style)})"
            on = target_text(action.target, names, terms, rules)
            return f"{word} {on}" if on else word
        return kontra_label(action.target, names, terms, level, rules, style)
    if isinstance(action, Call):
        return _("call {card}").format(card=card_text(action.card, style))
    if isinstance(action, Trump):
        return _("trump {suit}").format(suit=suit_name(action.suit))
    if isinstance(action, Play):
        return _("play {card}").format(card=card_text(action.card, style))
    if isinstance(action, Join):
        return _("{game} bei (plays it too)").format(game=game_title(action.contract, rules))
    return _special_words(action, after, phase, style)


def _special_words(action: Action, after: Observation | None, phase: str, style: Style) -> str:
    """A pass, and the actions a variant adds, by their record tag."""
    if action.type == "pass":
        return pass_text(phase)
    if action.type == "talon":
        pile = int(getattr(action, "pile", 0))
        shown = after.talon_shown[pile] if after is not None and pile < len(after.talon_shown) else ()
        if shown:
            return _("takes talon half {n} ({cards})").format(n=pile + 1, cards=cards_line(shown, style))
        return _("takes talon half {n}").format(n=pile + 1)
    if action.type == "give-up":
        return _("gives up (schleift)")
    return p_("action", action.describe())


def action_meaning(kind: str) -> str:
    """What choosing an action of ``kind`` does, in a few words: ``vorhand``,
    and the record tags ``call``, ``bei``, ``give-up`` (empty for the others)."""
    meanings = {
        "vorhand": _("keep the forehand's games unless someone bids a game"),
        "call": _("its holder is your partner (secretly, until the card is played)"),
        "bei": _("play that game too, each for himself"),
        "give-up": _("pay the game without playing it"),
    }
    return meanings.get(kind, "")


def action_text(action: Action, names: Sequence[str], after: Observation | None = None,
                terms: Terms | None = None, phase: str = "", rules: RuleFacts | None = None,
                style: Style = PLAIN) -> str:
    """What a seat did, as others saw it (a hidden discard shows no cards).

    With ``after``, the view just after the action, a Kontra is named by the
    level it reached (``Rekontra on Trull``), a talon half by its cards and a
    discard by the cards laid away face up; ``phase`` is the phase the action
    was taken in (a pass is "Gut!" among the announcements); ``rules``
    give the titles where there is no ``after``.
    """
    words = action_words(action, names, after, terms, phase, rules, style)
    return _("{name}: {what}").format(name=seat_name(names, action.seat), what=words)


def trick_text(trick: TrickView, names: Sequence[str], style: Style = PLAIN) -> str:
    """``Franz XV, Hilde c7, ... -> Franz`` (``Franz XV · Hilde ♣7 · … → Franz``)."""
    plays = style.between.join(f"{names[s]} {card_text(c, style)}"
                               for s, c in zip(trick.seats, trick.cards, strict=True))
    return plays + (f" {style.arrow} {names[trick.winner]}" if trick.winner is not None else "")


# -- the game in play -------------------------------------------------------------------------

def announcement_text(ann: Announcement, names: Sequence[str], terms: Terms | None = None,
                      rules: RuleFacts | None = None, style: Style = PLAIN) -> str:
    """``Trull (Hilde, against the game, Rekontra x4)``."""
    terms = terms or Terms.of_rules(rules)
    notes = [seat_name(names, ann.seat)]
    if ann.against:
        notes.append(_("against the game"))
    if ann.kontra:
        notes.append(f"{terms.kontra(ann.kontra, style)} {factor_text(2 ** ann.kontra, style)}")
    return f"{premium_title(ann.name, rules)} ({', '.join(notes)})"


def _kontra_part(obs: Observation, names: Sequence[str], terms: Terms, style: Style) -> str:
    pairs = pair_levels(obs.history)
    if pairs:
        said = [_("{name} on {declarer} {kontra} {factor}").format(
                    name=names[x], declarer=names[d], kontra=terms.kontra(level, style),
                    factor=factor_text(2 ** level, style))
                for (d, x), level in sorted(pairs.items())]
        return ", " + ", ".join(said)
    level = obs.kontra_level
    return f", {terms.kontra(level, style)} {factor_text(2 ** level, style)}" if level else ""


def game_text(obs: Observation, names: Sequence[str], terms: Terms | None = None,
              style: Style = PLAIN) -> str:
    """The game in play as a seat sees it: contract, called card, trump,
    declarer(s), partner if known, the Kontras and every announcement."""
    assert obs.contract is not None and obs.declarer is not None
    terms = terms or Terms.of_rules(obs.rules)
    contract = obs.contract
    parts = [game_title(contract.spec)]
    if obs.called is not None:
        parts.append(_("called {card}").format(card=card_text(obs.called, style)))
    if contract.trump:
        parts.append(_("trump {suit}").format(suit=suit_name(contract.trump)))
    if len(contract.declarers) > 1:
        by = _("{names}, each for himself").format(names=names_text(contract.declarers, names))
    else:
        by = names[obs.declarer]
    partner = ""
    if obs.partner is not None and obs.partner != obs.declarer:
        partner = _(", partner {name}").format(name=names[obs.partner])
    said = ", ".join(announcement_text(a, names, terms, obs.rules, style) for a in obs.announcements)
    announced = _("; announced: {list}").format(list=said) if said else ""
    kontra = _kontra_part(obs, names, terms, style)
    return _("Game: {game} by {by}").format(game=", ".join(parts), by=by) + partner + kontra + announced
