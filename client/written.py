"""The written forms of actions: what a human types, the numbered choices and
the help for the phase at hand.

A number picks from the numbered choices; otherwise a line is read as a
command (``pass``, ``gut``, ``vorhand``, ``bid dreier``, ``piccolo bei``,
``talon 1``, ``give up``, ``call dK``, ``discard c7 c8 d4``,
``announce trull``, ``kontra game@2``, ``re``, ``trump h``, a card).  The
command words, cards, games and premiums are read in every language of the
catalogue (:mod:`client.words`): German ``weiter``, ``rufe kK``,
``verlege t7 t8 k4``, ``ansage vier-könige``, ``kontra spiel@2``,
``trumpf herz`` and a bare game name (``dreier``) work as well as the
English words, whichever language the table is shown in; the choices and
the help are written in the player's language.  Action types a variant adds
are matched by their record tag (``talon``, ``bei``, ``give-up``) against
the legal actions, and an illegal variation is built from a legal one of
the same type, so the engine can say why it is not allowed; no variant is
named here.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace
from functools import lru_cache
from typing import Any, cast

from tarock.client.i18n import _, language, p_
from tarock.client.render import talon_text
from tarock.client.text.actions import action_meaning, parallel_kontra
from tarock.client.text.cards import SUIT_WORDS, card_text, cards_line, suit_name
from tarock.client.text.rule_words import Terms, pass_meaning, pass_text, phase_text
from tarock.client.words import (
    catalogues,
    game_names,
    game_token,
    kontra_choice_text,
    kontra_meaning,
    premium_meaning,
    premium_token,
    premium_words,
    target_token,
    typed_word,
    typed_words,
)
from tarock.core.actions import (
    GAME,
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
from tarock.core.cards import DECK54, SKUS, SUIT_LETTERS, SUIT_SYMBOLS, Card, CardError, parse_card, sort_key
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation

MAX_LISTED = 20
"""More legal actions than this are summarised instead of listed."""

_SUIT_ALIASES = {
    **{sym: SUIT_LETTERS[i] for i, sym in enumerate(SUIT_SYMBOLS)},
    "kreuz": "c", "treff": "c", "pik": "s", "herz": "h", "karo": "d",
}
_AGAINST = frozenset({"against", "gegen"})
_AGAINST_WORDS = _AGAINST | {"das", "spiel", "the", "game"}
_KONTRA_WORDS = frozenset({"kontra", "rekontra", "subkontra", "re-sub", "resub", "k", "re"})
_GIVE_UP_WORDS = frozenset({"give", "give-up", "giveup", "aufgeben", "schleifen"})
_PASS_WORDS = frozenset({"pass", "weiter", "gut", "p"})
_ANNOUNCE_WORDS = frozenset({"announce", "ansage", "ansagen"})
_TALON_WORDS = frozenset({"talon", "take", "half"})
HELP_WORDS = frozenset({"?", "help", "h"})
QUIT_WORDS = frozenset({"quit", "exit", "q"})


def words_of(msgid: str, *more: frozenset[str]) -> frozenset[str]:
    """The typed forms of command ``msgid`` in every language, and ``more``."""
    return typed_words(msgid).union(*more)


# -- cards and suits as typed ---------------------------------------------------------------

@lru_cache(maxsize=4)
def _card_words(current: str) -> dict[str, Card]:
    out: dict[str, Card] = {}
    for catalogue in catalogues():
        for card in DECK54:
            out.setdefault(card_text(card, catalogue=catalogue).casefold(), card)
    return out


def card_of(word: str) -> Card:
    """The card ``word`` names: as the record writes it (``hK``, ``c10``, ``♥K``,
    ``Skus``) or as any language of the catalogue does (German ``kD``, ``tB``)."""
    with suppress(CardError):
        return parse_card(word)
    card = _card_words(language()).get(word.strip().casefold())
    if card is None:
        message = _("{word} is not a card: write tarocks as I..XXI or {skus}, suit cards as in {examples}")
        raise CardError(message.format(word=repr(word), skus=card_text(SKUS), examples=_card_examples()))
    return card


def _card_examples() -> str:
    return ", ".join(card_text(parse_card(c)) for c in ("hK", "cQ", "sC", "dJ", "c10", "d1"))


def _suit_of(word: str) -> str | None:
    folded = word.strip().casefold()
    if folded in _SUIT_ALIASES:
        return _SUIT_ALIASES[folded]
    for catalogue in catalogues():
        for letter in SUIT_LETTERS:
            if folded in (catalogue.get(letter, "suit-letter").casefold(),
                          catalogue.get(SUIT_WORDS[letter], "suit").casefold()):
                return letter
    return None


def suit_letter(letter: str) -> str:
    """A suit's letter as the player writes it (``h``; German ``k`` for Karo)."""
    return p_("suit-letter", letter)


# -- the choices ---------------------------------------------------------------

def choices(obs: Observation) -> list[Action]:
    """The legal actions in the order they are shown and numbered (cards in hand order)."""
    return sorted(obs.legal, key=lambda a: (0, sort_key(a.card)) if isinstance(a, Play) else (1, (0, 0)))


def typed(action: Action, phase: str = "", rules: RuleFacts | None = None) -> str:
    """How to write ``action`` in the player's language (``bid solo pagat-ultimo``,
    ``talon 2``, ``kontra game@1``; German ``solo pagat-ultimo``, ``kontra spiel@1``)."""
    if isinstance(action, Pass):
        return typed_word("gut") if phase == "announce" else typed_word("pass")
    if isinstance(action, Bid):
        if action.contract == VORHAND:
            return typed_word("vorhand")
        additions = (premium_token(n, rules) for n in action.announce)
        what = " ".join((game_token(action.contract, rules), *additions))
        return p_("typed", "bid {game}").format(game=what)
    if isinstance(action, Announce):
        return " ".join((typed_word("announce"), *(premium_token(n, rules) for n in action.announce)))
    if isinstance(action, Kontra):
        return kontra_text(action.target, rules)
    if isinstance(action, Play):
        return card_text(action.card)
    if isinstance(action, Call):
        return f"{typed_word('call')} {card_text(action.card)}"
    if isinstance(action, Discard):
        return f"{typed_word('discard')} {cards_line(action.cards)}"
    if isinstance(action, Trump):
        return f"{typed_word('trump')} {suit_letter(action.suit)}"
    if action.type == "talon":
        return f"{typed_word('talon')} {int(getattr(action, 'pile', 0)) + 1}"
    if action.type == "give-up":
        return typed_word("give up")
    if isinstance(action, Join):
        return f"{game_token(action.contract, rules)} {typed_word('bei')}"
    return action.describe()


def kontra_text(target: KontraTarget, rules: RuleFacts | None = None) -> str:
    """How to write a Kontra on ``target``: ``kontra``, ``kontra trull``, ``kontra game@2``."""
    return " ".join(w for w in (typed_word("kontra"), target_token(target, rules)) if w)


def choice_text(action: Action, obs: Observation, names: Sequence[str] | None = None,
                terms: Terms | None = None) -> str:
    """One choice as listed: its written form, explained where it is not plain."""
    terms = terms or Terms()
    names = names or [_("seat {n}").format(n=s + 1) for s in range(obs.seats)]
    rules = obs.rules
    if isinstance(action, Kontra):
        level = obs.chain_level(action.target) + 1
        if parallel_kontra(obs, obs.seat, action.target):
            return _("{typed} ({kontra}: doubles it again, x{factor})").format(
                typed=kontra_text(action.target, rules), kontra=terms.kontra(1), factor=2 ** level)
        return kontra_choice_text(action.target, names, terms, level, rules)
    if isinstance(action, Pass):
        if obs.phase in ("announce", "birds"):
            word = typed_word("gut" if obs.phase == "announce" else "pass")
            return f"{word} ({pass_text(obs.phase)})"
        return typed_word("pass")
    if isinstance(action, Bid) and action.contract == VORHAND:
        return f"{typed_word('vorhand')} ({_('Vorhand!')})"
    if action.type == "talon":
        pile = int(getattr(action, "pile", 0))
        shown = obs.talon_shown[pile] if pile < len(obs.talon_shown) else ()
        return f"{typed(action)}: {cards_line(shown)}" if shown else typed(action)
    if action.type == "give-up":
        return f"{typed(action)} ({action_meaning('give-up')})"
    if isinstance(action, Join):
        return f"{typed(action, rules=rules)} ({action_meaning('bei')})"
    return typed(action, obs.phase, rules)


def _basic(action: Action) -> bool:
    """Shown even in a long auction list: all but bids with additions and
    announcements of several additions at once."""
    if isinstance(action, Bid):
        return not action.announce
    if isinstance(action, Announce):
        return len(action.announce) == 1
    return True


def choices_lines(obs: Observation, names: Sequence[str] | None = None,
                  terms: Terms | None = None) -> list[str]:
    """The legal actions, numbered from 1 (summarised when there are many:
    in an auction the single choices are listed with their numbers)."""
    legal = choices(obs)
    numbered = list(enumerate(legal, start=1))
    auction = any(isinstance(a, (Bid, Announce)) for a in legal)
    if len(legal) > MAX_LISTED:
        if auction:
            numbered = [(i, a) for i, a in numbered if _basic(a)]
        numbered = numbered[:MAX_LISTED]
    if all(isinstance(a, Play) for a in legal):
        items = [(i, card_text(a.card)) for i, a in numbered if isinstance(a, Play)]
    else:
        items = [(i, choice_text(a, obs, names, terms)) for i, a in numbered]
    width = len(str(max(i for i, _t in items)))
    item = max(len(t) for _i, t in items)
    per_row = max(1, 76 // (width + item + 5))
    cells = [f"{i:>{width}}) {t:<{item}}" for i, t in items]
    out = ["  " + "   ".join(cells[j:j + per_row]).rstrip() for j in range(0, len(cells), per_row)]
    if len(legal) > len(items):
        out.append("  " + _("... {n} choices in all (numbers 1..{n} work)").format(n=len(legal)))
        if auction:
            examples = [a for a in legal if not _basic(a)][:2]
            out.append("  " + _("several additions at once: {examples}").format(
                examples=", ".join(f"`{typed(a, obs.phase, obs.rules)}`" for a in examples)))
        if all(isinstance(a, Discard) for a in legal):
            cards = sorted({c for a in legal if isinstance(a, Discard) for c in a.cards}, key=sort_key)
            size = len(legal[0].cards) if isinstance(legal[0], Discard) else 0
            out.append("  " + _("discard {n} of: {cards} (e.g. `{example}`)").format(
                n=size, cards=cards_line(cards), example=typed(legal[0])))
    return out


# -- help for the phase at hand ------------------------------------------------------

def commands_lines() -> list[str]:
    """The commands besides the choices."""
    return [_("Other commands:"),
            "  " + _("{word:<7} show your cards and the table again").format(word=typed_word("hand")),
            "  " + _("{word:<7} show the score sheet").format(word=typed_word("sheet")),
            "  " + _("{word:<7} this text").format(word="?/" + typed_word("help")),
            "  " + _("{word:<7} leave the table").format(word=typed_word("quit"))]


def help_lines(obs: Observation, names: Sequence[str] | None = None, terms: Terms | None = None) -> list[str]:
    """What the current phase accepts, written out, with a word on each form."""
    terms = terms or Terms()
    names = names or [_("seat {n}").format(n=s + 1) for s in range(obs.seats)]
    rules = obs.rules
    legal = choices(obs)
    out = [_("Type the number of a choice, or write it out."),
           _("Now ({phase}) you may write:").format(phase=phase_text(obs.phase))]

    def form(text: str, meaning: str) -> None:
        out.extend(textwrap.wrap(meaning, 78, initial_indent=f"  {text:<22}", subsequent_indent=" " * 24))

    kinds = {a.type for a in legal}
    if "play" in kinds:
        cards = " ".join(card_text(a.card) for a in legal if isinstance(a, Play))
        form(_("a card"), _("play it: {cards}").format(cards=cards))
    if "pass" in kinds:
        meaning = pass_meaning(obs.phase, any(isinstance(a, Kontra) for a in legal))
        form(typed_word("gut" if obs.phase == "announce" else "pass"), f"{pass_text(obs.phase)}: {meaning}")
    bids = [a for a in legal if isinstance(a, Bid)]
    if any(b.contract == VORHAND for b in bids):
        form(typed_word("vorhand"), f"{_('Vorhand!')}: {action_meaning('vorhand')}")
    games = list(dict.fromkeys(b.contract for b in bids if b.contract != VORHAND))
    if games:
        form(p_("typed", "bid {game}").format(game=_("GAME")),
             _("games you may bid now: {games}").format(games=", ".join(game_token(g, rules) for g in games)))
    joins = [typed(a, rules=rules) for a in legal if isinstance(a, Join)]
    if joins:
        form(_("GAME {bei}").format(bei=typed_word("bei")), f"{action_meaning('bei')}: {', '.join(joins)}")
    calls = [card_text(a.card) for a in legal if isinstance(a, Call)]
    if calls:
        form(_("{call} CARD").format(call=typed_word("call")), f"{action_meaning('call')}: {' '.join(calls)}")
    piles = [typed(a) for a in legal if a.type == "talon"]
    if piles:
        shown = f" ({talon_text(obs.talon_shown)})" if any(obs.talon_shown) else ""
        form(_("{talon} N").format(talon=typed_word("talon")),
             _("take talon half N: {halves}").format(halves=", ".join(piles)) + shown)
    if "give-up" in kinds:
        form(typed_word("give up"), action_meaning("give-up"))
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        away = sorted({c for a in discards for c in a.cards}, key=sort_key)
        form(_("{discard} C C C").format(discard=typed_word("discard")),
             _("lay {n} of these away: {cards}").format(n=len(discards[0].cards), cards=cards_line(away)))
    for a in legal:
        if isinstance(a, Announce) and len(a.announce) == 1:
            form(typed(a, rules=rules), premium_meaning(a.announce[0], rules))
    for a in legal:
        if isinstance(a, Kontra):
            form(typed(a, rules=rules),
                 kontra_meaning(a.target, names, terms, obs.chain_level(a.target) + 1, rules))
    if "trump" in kinds:
        trumps = [a.suit for a in legal if isinstance(a, Trump)]
        suits = ", ".join(f"{suit_letter(s)} ({suit_name(s)})" for s in trumps)
        form(_("{trump} SUIT").format(trump=typed_word("trump")),
             _("name the trump suit: {suits}").format(suits=suits))
    if kinds & {"play", "discard", "call"}:
        out.append(_("Cards are written as in {examples}; tarocks I..XXI and {skus}.").format(
            examples=_card_examples(), skus=card_text(SKUS)))
    out.extend(commands_lines())
    return out


# -- reading a line ----------------------------------------------------------------

def _game_prefix(words: Sequence[str], rules: RuleFacts | None) -> tuple[str, list[str]] | None:
    """The game the first words name (its title in any language, or its record
    name, words joined by hyphens) and the words after it."""
    known = game_names(rules)
    for n in range(len(words), 0, -1):
        joined = "-".join(words[:n])
        if joined in known:
            return known[joined], list(words[n:])
    return None


def _bid_choice(seat: int, words: Sequence[str], legal: Sequence[Action],
                rules: RuleFacts | None) -> Action | str:
    """``bid GAME [ADDITIONS]``: the legal bid with exactly these additions (in
    any order); a game name of two words may be written with a space
    (``solo absolut`` = ``solo-absolut`` where that game is offered)."""
    if not words:
        example = p_("typed", "bid {game}").format(game="solo")
        return _("bid which game? e.g. `{example}`").format(example=example)
    bids = [a for a in legal if isinstance(a, Bid)]
    offered = {b.contract for b in bids}
    for n in range(len(words), 1, -1):  # an offered game before a longer one of another table
        joined = "-".join(words[:n])
        if joined in offered:
            name, rest = joined, premium_words(words[n:], rules)
            break
    else:
        found = _game_prefix(words, rules)
        name, rest = (found[0], premium_words(found[1], rules)) if found else (words[0], list(words[1:]))
    for bid in bids:
        if bid.contract == name and sorted(bid.announce) == sorted(rest):
            return bid
    return Bid(seat, name, tuple(rest))


def _announce_choice(seat: int, words: Sequence[str], legal: Sequence[Action],
                     rules: RuleFacts | None) -> Action | str:
    """``announce ADDITIONS [against the game]``: the side is the seat's own."""
    against = words_of("against", _AGAINST_WORDS) | typed_words("game")
    names = premium_words([w for w in words if w not in against], rules)
    if not names:
        return _("announce what? e.g. `{example}`").format(example=f"{typed_word('announce')} trull")
    for action in legal:
        if isinstance(action, Announce) and sorted(action.announce) == sorted(names):
            return action
    return Announce(seat, tuple(names), any(w in words_of("against", _AGAINST) for w in words))


def _target(text: str, rules: RuleFacts | None) -> KontraTarget | str:
    """A typed Kontra target: ``game@2`` / ``spiel@2``, ``re@3``, a premium in any language."""
    kind, at, seat = text.partition("@")
    if at:
        if seat.isdigit() and len(seat) <= 2:
            if kind in typed_words("game"):
                return KontraTarget(declarer=int(seat))
            if kind in typed_words("re"):
                return KontraTarget(answer=int(seat))
        return _("{text} is no Kontra target: write {game}@N or {re}@N with a seat N").format(
            text=repr(text), game=typed_word("game"), re=typed_word("re"))
    names = premium_words(text.split(), rules)
    name = "-".join(names)
    if name and not all(ch.isalnum() or ch in "-_" for ch in name):
        return _("{text} is no Kontra target: name an announcement").format(text=repr(text))
    return KontraTarget(name)


def _kontra_choice(seat: int, words: Sequence[str], legal: Sequence[Action], re_word: bool,
                   rules: RuleFacts | None) -> Action | str:
    """``kontra`` (the game's chain, or the only chain open), ``kontra TARGET``
    (``trull``, ``game@2``, ``re@3``: the record forms), ``kontra game`` (the
    one declarer's game open to a Kontra, if the game has no chain of its
    own), ``kontra 2`` (= ``game@2``), ``re`` / ``re 3`` (= ``re@3``)."""
    kontras = [a for a in legal if isinstance(a, Kontra)]
    targets = [a.target for a in kontras]
    on = words_of("on", frozenset({"on", "auf"}))
    text = " ".join(w for w in words if w not in on)
    if text in typed_words("game") | {"game", "spiel"}:
        pairs = [t for t in targets if t.declarer is not None]
        if GAME not in targets and len(pairs) == 1:
            return Kontra(seat, pairs[0])
        text = ""
    if text.isdigit() and len(text) <= 2:
        n = int(text)
        wanted = [KontraTarget(answer=n)] if re_word else [KontraTarget(declarer=n), KontraTarget(answer=n)]
        return Kontra(seat, next((t for t in wanted if t in targets), wanted[0]))
    if re_word and not text:
        res = [t for t in targets if t.answer is not None]
        if len(res) == 1:
            return Kontra(seat, res[0])
        if res:
            return _("Re on whose Kontra? {choices}").format(
                choices=", ".join(f"`{kontra_text(t, rules)}`" for t in res))
    if text:
        target = _target(text, rules)
        return target if isinstance(target, str) else Kontra(seat, target)
    if not kontras or GAME in targets:
        return Kontra(seat, GAME)
    if len(kontras) == 1:
        return kontras[0]
    return _("kontra on what? {choices}").format(
        choices=", ".join(f"`{kontra_text(a.target, rules)}`" for a in kontras))


def _variation(action: Action, **changes: object) -> Action:
    """``action`` with other field values (an action type of a variant, so the
    engine can tell why the variation is not allowed)."""
    template: Any = action
    return cast(Action, replace(template, **changes))


def _of_type(legal: Sequence[Action], tag: str) -> list[Action]:
    return [a for a in legal if a.type == tag]


def _talon_choice(words: Sequence[str], legal: Sequence[Action]) -> Action | str:
    """``talon N`` / ``take talon half N``: half N (from 1)."""
    halves = _of_type(legal, "talon")
    numbers = [int(w) for w in words if w.isdigit()]
    if not halves:
        return _("there is no talon half to choose now")
    if not numbers:
        return _("take which half? {choices}").format(choices=", ".join(f"`{typed(a)}`" for a in halves))
    pile = numbers[0] - 1
    found = next((a for a in halves if getattr(a, "pile", None) == pile), None)
    return found if found is not None else _variation(halves[0], pile=pile)


def _bei_choice(words: Sequence[str], legal: Sequence[Action], rules: RuleFacts | None) -> Action | str:
    """``bei GAME`` / ``GAME bei``: join the negative game GAME."""
    joins = _of_type(legal, "bei")
    if not joins:
        return _("there is no game to join (bei) now")
    if not words:
        if len(joins) == 1:
            return joins[0]
        return _("join which game? {choices}").format(
            choices=", ".join(f"`{typed(a, rules=rules)}`" for a in joins))
    found_name = _game_prefix(words, rules)
    name = found_name[0] if found_name is not None and not found_name[1] else "-".join(words)
    found = next((a for a in joins if getattr(a, "contract", None) == name), None)
    return found if found is not None else _variation(joins[0], contract=name)


def _cards_of(words: Sequence[str]) -> tuple[Card, ...]:
    return tuple(card_of(w) for w in words)


def _bare(folded: Sequence[str], legal: Sequence[Action], phase: str,
          rules: RuleFacts | None) -> Action | None:
    """A legal action written without its verb: ``dreier`` (a bid), ``rufspiel trull``
    (a bid with an addition), ``trull`` (an announcement), or exactly as
    :func:`typed` writes it."""
    text = " ".join(folded)
    for action in legal:
        if typed(action, phase, rules).casefold() == text or action.describe().casefold() == text:
            return action
    game = _game_prefix(folded, rules)
    if game is not None:
        name, rest = game[0], premium_words(game[1], rules)
        for action in legal:
            if isinstance(action, Bid) and action.contract == name and sorted(action.announce) == sorted(
                    rest):
                return action
    said = premium_words(folded, rules)
    for action in legal:
        if isinstance(action, Announce) and sorted(action.announce) == sorted(said):
            return action
    if len(folded) == 1:
        with suppress(CardError):
            card = card_of(folded[0])
            return next((a for a in legal if isinstance(a, Call) and a.card == card), None)
    return None


def parse_choice(text: str, obs: Observation) -> Action | str:
    """The action ``text`` names for ``obs.seat``, or a message saying what is wrong.

    A number picks from :func:`choices`.  The action is not checked against
    the rules here (see :class:`client.human.HumanPlayer`).
    """
    seat, legal, rules = obs.seat, choices(obs), obs.rules
    text = text.strip()
    if not text:
        return _("type a number 1..{n}, or ? for help").format(n=len(legal))
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return _("there is no choice {n}: choose 1..{count}").format(n=n, count=len(legal))
    words = [w for w in text.replace(",", " ").split() if w != "+"]
    word, rest = words[0].casefold().rstrip("!"), words[1:]
    folded = [w.casefold().rstrip("!") for w in rest]
    two = " ".join([word, *folded[:1]])
    try:
        if word in words_of("pass", _PASS_WORDS) | typed_words("gut"):
            return Pass(seat)
        if word in typed_words("vorhand") | {VORHAND}:
            return Bid(seat, VORHAND)
        if word in words_of("kontra", _KONTRA_WORDS) | typed_words("re"):
            return _kontra_choice(seat, folded, legal, word in typed_words("re") | {"re"}, rules)
        if word in words_of("talon", _TALON_WORDS) | typed_words("half"):
            return _talon_choice(folded, legal)
        if word in _GIVE_UP_WORDS or word in typed_words("give up") or two in typed_words("give up"):
            gave = _of_type(legal, "give-up")
            if gave:
                return gave[0]
            return _("you cannot give up now (only when the called King lies in the talon)")
        if word in typed_words("bei"):
            return _bei_choice(folded, legal, rules)
        if word in typed_words("call"):
            if rest:
                return Call(seat, card_of(rest[0]))
            calls = [a for a in legal if isinstance(a, Call)]
            return calls[0] if len(calls) == 1 else _("call which card? e.g. `{example}`").format(
                example=f"{typed_word('call')} XX")
        if word in typed_words("discard"):
            if not rest:
                example = cards_line([parse_card(c) for c in ("c7", "c8", "d4")])
                return _("discard which cards? e.g. `{example}`").format(
                    example=f"{typed_word('discard')} {example}")
            return Discard(seat, tuple(sorted(_cards_of(rest))))
        if word in typed_words("play"):
            return Play(seat, card_of(rest[0])) if rest else _("play which card? e.g. `{example}`").format(
                example=f"{typed_word('play')} XV")
        if word in typed_words("bid"):
            return _bid_choice(seat, folded, legal, rules)
        if word in words_of("announce", _ANNOUNCE_WORDS):
            return _announce_choice(seat, folded, legal, rules)
        if word in typed_words("trump"):
            if not rest:
                return _("trump which suit? e.g. `{example}` ({suits})").format(
                    example=f"{typed_word('trump')} {suit_letter('h')}",
                    suits=" ".join(suit_letter(s) for s in SUIT_LETTERS))
            suit = _suit_of(rest[0])
            return Trump(seat, suit if suit is not None else rest[0].strip().casefold())
        if folded and folded[-1] in typed_words("bei"):
            return _bei_choice([word, *folded[:-1]], legal, rules)
    except CardError as exc:
        return str(exc)
    bare = _bare([word, *folded], legal, obs.phase, rules)
    if bare is not None:
        return bare
    if _game_prefix([word, *folded], rules) is not None and any(isinstance(a, Bid) for a in legal):
        return _bid_choice(seat, [word, *folded], legal, rules)
    if len(words) == 1:
        with suppress(CardError):  # not a card either: say what is understood
            return Play(seat, card_of(words[0]))
    return _("I do not understand {text}: type a number 1..{n}, a card like XV, or ? for help").format(
        text=repr(text), n=len(legal))
