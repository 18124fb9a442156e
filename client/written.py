"""The written forms of actions: what a human types, the numbered choices and
the help for the phase at hand.

A number picks from the numbered choices; otherwise a line is read as a
command (``pass``, ``gut``, ``vorhand``, ``bid dreier``, ``piccolo bei``,
``talon 1``, ``give up``, ``call dK``, ``discard c7 c8 d4``,
``announce trull``, ``kontra game@2``, ``re``, ``trump h``, a card).  Action
types a variant adds are matched by their record tag (``talon``, ``bei``,
``give-up``) against the legal actions, and an illegal variation is built
from a legal one of the same type, so the engine can say why it is not
allowed; no variant is named here.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace
from typing import Any, cast

from client.bots.limits import chain_level
from client.render import parallel_kontra, talon_text
from client.words import (
    VORHAND,
    Terms,
    kontra_choice_text,
    kontra_meaning,
    premium_label,
    premium_meaning,
    premium_words,
)
from core.actions import (
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
from core.cards import SUIT_LETTERS, Card, CardError, format_card, parse_card, sort_key
from core.observation import Observation

MAX_LISTED = 20
"""More legal actions than this are summarised instead of listed."""

COMMANDS = """\
Other commands:
  hand    show your cards and the table again
  sheet   show the score sheet
  ?/help  this text
  quit    leave the table"""

HELP = """\
Type the number of a choice, or write it out:
  a card to play        XV, Sküs (or skus), hK, c10, d1
  pass / weiter / gut   pass in the bidding, the Kontra round; Gut! among the announcements
  vorhand               say Vorhand! (the forehand's opening, where the rules have it)
  call [card]           call a card for a partner (e.g. call XX, call dK)
  bid GAME [ADDITIONS]  bid a game, e.g. `bid solo`, `bid dreier`, `bid rufspiel pagat trull`
  GAME bei              join a negative game another player bid, e.g. `piccolo bei`
  talon N               take talon half N (1 or 2)
  give up               give the game up (schleifen) when the called King lies in the talon
  announce ADDITIONS    announce premiums, e.g. `announce trull`, `announce uhu`, `announce valat`
  trump SUIT            name the trump suit: `trump h` (c s h d, or clubs/Kreuz ...)
  kontra [TARGET]       Kontra (Re, Rekontra ...) on the game, or on an announcement:
                        `kontra trull`; against one declarer of a negative game `kontra game@2`,
                        his answer `re 3` (or `kontra re@3`)
  discard c7 c8 d4      lay cards away after taking the talon
""" + COMMANDS

_SUIT_WORDS = {
    **{letter: letter for letter in SUIT_LETTERS},
    "clubs": "c", "spades": "s", "hearts": "h", "diamonds": "d",
    **{sym: SUIT_LETTERS[i] for i, sym in enumerate("♣♠♥♦")},
    "kreuz": "c", "treff": "c", "pik": "s", "herz": "h", "karo": "d",
}
_AGAINST_WORDS = frozenset({"against", "gegen", "das", "spiel"})
_KONTRA_WORDS = frozenset({"kontra", "rekontra", "subkontra", "re-sub", "resub", "k", "re"})
_GIVE_UP_WORDS = frozenset({"give", "give-up", "giveup", "aufgeben", "schleifen"})


# -- the choices ---------------------------------------------------------------

def choices(obs: Observation) -> list[Action]:
    """The legal actions in the order they are shown and numbered (cards in hand order)."""
    return sorted(obs.legal, key=lambda a: (0, sort_key(a.card)) if isinstance(a, Play) else (1, (0, 0)))


def typed(action: Action, phase: str = "") -> str:
    """How to write ``action`` (``bid solo pagat``, ``talon 2``, ``kontra game@1``)."""
    if isinstance(action, Pass):
        return "gut" if phase == "announce" else "pass"
    if isinstance(action, Bid):
        return VORHAND if action.contract == VORHAND else " ".join(("bid", action.contract, *action.announce))
    if isinstance(action, Announce):
        return " ".join(("announce", *action.announce))
    if isinstance(action, Kontra):
        return kontra_text(action.target)
    if isinstance(action, Play):
        return format_card(action.card)
    if action.type == "talon":
        return f"talon {int(getattr(action, 'pile', 0)) + 1}"
    if action.type == "give-up":
        return "give up"
    if isinstance(action, Join):
        return f"{action.contract} bei"
    return action.describe()


def kontra_text(target: KontraTarget) -> str:
    """How to write a Kontra on ``target``: ``kontra``, ``kontra trull``, ``kontra game@2``."""
    return "kontra" if target.game else f"kontra {target.to_data()}"


def choice_text(action: Action, obs: Observation, names: Sequence[str] | None = None,
                terms: Terms | None = None) -> str:
    """One choice as listed: its written form, explained where it is not plain."""
    terms = terms or Terms()
    names = names or [f"seat {s}" for s in range(obs.seats)]
    if isinstance(action, Kontra):
        level = chain_level(obs, action.target) + 1
        if parallel_kontra(obs, obs.seat, action.target):
            return f"{typed(action)} ({terms.kontra(1)}: doubles it again, x{2 ** level})"
        return kontra_choice_text(action.target, names, terms, level)
    if isinstance(action, Pass):
        return {"announce": "gut (Gut!)", "birds": "pass (no higher bird)"}.get(obs.phase, "pass")
    if isinstance(action, Bid) and action.contract == VORHAND:
        return "vorhand (Vorhand!)"
    if action.type == "talon":
        pile = int(getattr(action, "pile", 0))
        shown = obs.talon_shown[pile] if pile < len(obs.talon_shown) else ()
        cards = f": {' '.join(format_card(c) for c in sorted(shown, key=sort_key))}" if shown else ""
        return f"talon {pile + 1}{cards}"
    if action.type == "give-up":
        return "give up (schleifen: pay the game without playing)"
    if isinstance(action, Announce) and len(action.announce) == 1:
        label = premium_label(action.announce[0], obs.rules)
        if label:
            return f"{action.describe()} ({label})"
    if isinstance(action, Join):
        return f"{typed(action)} (play it too)"
    return action.describe()


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
        items = [(i, format_card(a.card)) for i, a in numbered if isinstance(a, Play)]
    else:
        items = [(i, choice_text(a, obs, names, terms)) for i, a in numbered]
    width = len(str(max(i for i, _ in items)))
    item = max(len(t) for _, t in items)
    per_row = max(1, 76 // (width + item + 5))
    cells = [f"{i:>{width}}) {t:<{item}}" for i, t in items]
    out = ["  " + "   ".join(cells[j:j + per_row]).rstrip() for j in range(0, len(cells), per_row)]
    if len(legal) > len(items):
        out.append(f"  ... {len(legal)} choices in all (numbers 1..{len(legal)} work)")
        if auction:
            examples = [a for a in legal if not _basic(a)][:2]
            out.append("  several additions at once: " + ", ".join(f"`{typed(a)}`" for a in examples))
        if all(isinstance(a, Discard) for a in legal):
            cards = sorted({c for a in legal if isinstance(a, Discard) for c in a.cards}, key=sort_key)
            size = len(legal[0].cards) if isinstance(legal[0], Discard) else 0
            out.append(f"  discard {size} of: {' '.join(format_card(c) for c in cards)}"
                       f" (e.g. `{legal[0].describe()}`)")
    return out


# -- help for the phase at hand ------------------------------------------------------

def help_lines(obs: Observation, names: Sequence[str] | None = None, terms: Terms | None = None) -> list[str]:
    """What the current phase accepts, written out, with a word on each form."""
    terms = terms or Terms()
    names = names or [f"seat {s}" for s in range(obs.seats)]
    legal = choices(obs)
    out = ["Type the number of a choice, or write it out.",
           f"Now ({obs.phase}) you may write:"]

    def form(text: str, meaning: str) -> None:
        out.extend(textwrap.wrap(meaning, 78, initial_indent=f"  {text:<22}", subsequent_indent=" " * 24))

    kinds = {a.type for a in legal}
    if "play" in kinds:
        cards = " ".join(format_card(a.card) for a in legal if isinstance(a, Play))
        form("a card", f"play it: {cards}")
    if "pass" in kinds:
        form(*{"announce": ("gut", "Gut!: your turn is over (three Gut! in a row end the announcements)"),
               "birds": ("pass", "name no bird: the other Besserrufer plays"),
               "bidding": ("pass / weiter", "Weiter!: no bid now (final: you cannot bid later)")}
             .get(obs.phase, ("pass", "let it go")))
    bids = [a for a in legal if isinstance(a, Bid)]
    if any(b.contract == VORHAND for b in bids):
        form("vorhand", "Vorhand!: keep the forehand's games (Rufer ...) unless someone bids a game")
    games = sorted({b.contract for b in bids if b.contract != VORHAND}, key=[b.contract for b in bids].index)
    if games:
        form("bid GAME", "games you may bid now: " + ", ".join(games))
    joins = [typed(a) for a in legal if isinstance(a, Join)]
    if joins:
        form("GAME bei", "play that negative game too (values add up in the auction): " + ", ".join(joins))
    calls = [format_card(a.card) for a in legal if isinstance(a, Call)]
    if calls:
        form("call CARD", "its holder is your secret partner: " + " ".join(calls))
    piles = [typed(a) for a in legal if a.type == "talon"]
    if piles:
        shown = f" ({talon_text(obs.talon_shown)})" if any(obs.talon_shown) else ""
        form("talon N", f"take talon half N: {', '.join(piles)}{shown}")
    if "give-up" in kinds:
        form("give up", "give the game up (schleifen): you pay it without playing")
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        away = sorted({c for a in discards for c in a.cards}, key=sort_key)
        form("discard C C C", f"lay {len(discards[0].cards)} of these away: "
                              + " ".join(format_card(c) for c in away))
    for a in legal:
        if isinstance(a, Announce) and len(a.announce) == 1:
            name = a.announce[0]
            form(typed(a), premium_meaning(name, obs.rules))
    for a in legal:
        if isinstance(a, Kontra):
            form(typed(a), kontra_meaning(a.target, names, terms, chain_level(obs, a.target) + 1))
    if "trump" in kinds:
        form("trump SUIT", "name the trump suit: " + " ".join(a.suit for a in legal if isinstance(a, Trump)))
    out.append(COMMANDS)
    return out


# -- reading a line ----------------------------------------------------------------

def _bid_choice(seat: int, words: Sequence[str], legal: Sequence[Action]) -> Action | str:
    """``bid GAME [ADDITIONS]``: the legal bid with exactly these additions (in
    any order); a game name of two words may be written with a space
    (``solo absolut`` = ``solo-absolut`` where that game is offered)."""
    if not words:
        return "bid which game? e.g. `bid solo` or `bid rufspiel pagat trull`"
    bids = [a for a in legal if isinstance(a, Bid)]
    offered = {b.contract for b in bids}
    name, rest = words[0], list(words[1:])
    for n in range(len(words), 1, -1):
        joined = "-".join(words[:n])
        if joined in offered:
            name, rest = joined, list(words[n:])
            break
    for bid in bids:
        if bid.contract == name and sorted(bid.announce) == sorted(rest):
            return bid
    return Bid(seat, name, tuple(rest))


def _announce_choice(seat: int, words: Sequence[str], legal: Sequence[Action]) -> Action | str:
    """``announce ADDITIONS [gegen das Spiel]``: the side is the seat's own."""
    names = premium_words([w for w in words if w not in _AGAINST_WORDS])
    if not names:
        return "announce what? e.g. `announce trull` or `announce valat`"
    for action in legal:
        if isinstance(action, Announce) and sorted(action.announce) == sorted(names):
            return action
    return Announce(seat, tuple(names), any(w in ("against", "gegen") for w in words))


def _kontra_choice(seat: int, words: Sequence[str], legal: Sequence[Action], re_word: bool) -> Action | str:
    """``kontra`` (the game's chain, or the only chain open), ``kontra TARGET``
    (``trull``, ``game@2``, ``re@3``: the record forms), ``kontra game`` (the
    one declarer's game open to a Kontra, if the game has no chain of its
    own), ``kontra 2`` (= ``game@2``), ``re`` / ``re 3`` (= ``re@3``)."""
    kontras = [a for a in legal if isinstance(a, Kontra)]
    targets = [a.target for a in kontras]
    text = " ".join(w for w in words if w not in ("on", "auf"))
    if text in ("game", "spiel"):
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
            return "Re on whose Kontra? " + ", ".join(f"`{kontra_text(t)}`" for t in res)
    if text:
        try:
            return Kontra(seat, KontraTarget.from_data(text))
        except ValueError as exc:
            return str(exc)
    if not kontras or GAME in targets:
        return Kontra(seat, GAME)
    if len(kontras) == 1:
        return kontras[0]
    return "kontra on what? " + ", ".join(f"`{kontra_text(a.target)}`" for a in kontras)


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
        return "there is no talon half to choose now"
    if not numbers:
        return "take which half? " + ", ".join(f"`{typed(a)}`" for a in halves)
    pile = numbers[0] - 1
    found = next((a for a in halves if getattr(a, "pile", None) == pile), None)
    return found if found is not None else _variation(halves[0], pile=pile)


def _bei_choice(words: Sequence[str], legal: Sequence[Action]) -> Action | str:
    """``bei GAME`` / ``GAME bei``: join the negative game GAME."""
    joins = _of_type(legal, "bei")
    name = "-".join(words)
    if not joins:
        return "there is no game to join (bei) now"
    if not name:
        if len(joins) == 1:
            return joins[0]
        return "join which game? " + ", ".join(f"`{typed(a)}`" for a in joins)
    found = next((a for a in joins if getattr(a, "contract", None) == name), None)
    return found if found is not None else _variation(joins[0], contract=name)


def _cards_of(words: Sequence[str]) -> tuple[Card, ...]:
    return tuple(parse_card(w) for w in words)


def _bare(folded: Sequence[str], legal: Sequence[Action], phase: str) -> Action | None:
    """A legal action written without its verb: ``dreier`` (a bid), ``trull``
    (an announcement), or exactly as :func:`typed` writes it."""
    text = " ".join(folded)
    for action in legal:
        if typed(action, phase).casefold() == text or action.describe().casefold() == text:
            return action
    joined = "-".join(folded)
    for action in legal:
        if isinstance(action, Bid) and not action.announce and action.contract == joined:
            return action
        if isinstance(action, Announce) and list(action.announce) == premium_words(folded):
            return action
    return None


def parse_choice(text: str, obs: Observation) -> Action | str:
    """The action ``text`` names for ``obs.seat``, or a message saying what is wrong.

    A number picks from :func:`choices`.  The action is not checked against
    the rules here (see :class:`client.human.HumanPlayer`).
    """
    seat, legal = obs.seat, choices(obs)
    text = text.strip()
    if not text:
        return f"type a number 1..{len(legal)}, or ? for help"
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return f"there is no choice {n}: choose 1..{len(legal)}"
    words = [w for w in text.replace(",", " ").split() if w != "+"]
    word, rest = words[0].casefold().rstrip("!"), words[1:]
    folded = [w.casefold().rstrip("!") for w in rest]
    try:
        if word in ("pass", "weiter", "gut", "p"):
            return Pass(seat)
        if word == VORHAND:
            return Bid(seat, VORHAND)
        if word in _KONTRA_WORDS:
            return _kontra_choice(seat, folded, legal, word == "re")
        if word in ("talon", "take", "half"):
            return _talon_choice(folded, legal)
        if word in _GIVE_UP_WORDS:
            gave = _of_type(legal, "give-up")
            return gave[0] if gave else "you cannot give up now (only when the called King lies in the talon)"
        if word == "bei":
            return _bei_choice(folded, legal)
        if word == "call":
            if rest:
                return Call(seat, parse_card(rest[0]))
            calls = [a for a in legal if isinstance(a, Call)]
            return calls[0] if len(calls) == 1 else "call which card? e.g. `call XX` or `call dK`"
        if word == "discard":
            if not rest:
                return "discard which cards? e.g. `discard c7 c8 d4`"
            return Discard(seat, tuple(sorted(_cards_of(rest))))
        if word == "play":
            return Play(seat, parse_card(rest[0])) if rest else "play which card? e.g. `play XV`"
        if word == "bid":
            return _bid_choice(seat, folded, legal)
        if word in ("announce", "ansage", "ansagen"):
            return _announce_choice(seat, folded, legal)
        if word == "trump":
            if not rest:
                return "trump which suit? e.g. `trump h` (c s h d)"
            suit = _SUIT_WORDS.get(folded[0], rest[0].strip().casefold())
            return Trump(seat, suit)
        if folded and folded[-1] == "bei":
            return _bei_choice([word, *folded[:-1]], legal)
    except CardError as exc:
        return str(exc)
    bare = _bare([word, *folded], legal, obs.phase)
    if bare is not None:
        return bare
    if len(words) == 1:
        with suppress(CardError):  # not a card either: say what is understood
            return Play(seat, parse_card(words[0]))
    return f"I do not understand {text!r}: type a number 1..{len(legal)}, a card like XV, or ? for help"
