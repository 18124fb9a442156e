"""The line-based human client: text for hands, tricks, results and the sheet,
a human seat that reads its choice from a line, and a listener that prints
what happens at the table from that seat's point of view.

Works with plain ``input``/``print`` (also through pipes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from client.bots.limits import chain_level
from client.session import HandOutcome, Session, SessionListener, WhyNot, kontra_word
from core.actions import Action, Announce, Bid, Call, Discard, Kontra, Pass, Play, Trump
from core.cards import (
    SUIT_LETTERS,
    SUIT_OF,
    TAROCK,
    Card,
    CardError,
    format_card,
    parse_card,
    sort_key,
)
from core.engine import Hand
from core.observation import Observation, TrickView, observe
from core.state import Announcement, HandResult, Reason
from core.table import Standing, Table, is_passed_out

MAX_LISTED = 20
"""More legal actions than this are summarised instead of listed."""

_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
           Fraction(1, 4): "¼", Fraction(3, 4): "¾"}

HELP = """\
Type the number of a choice, or write it out:
  a card to play        XV, Sküs (or skus), hK, c10, d1
  pass / weiter         pass in the bidding or in the Kontra round
  call [card]           call the tarock for a partner (e.g. call XX)
  bid GAME [ADDITIONS]  bid a game, e.g. `bid solo`, `bid rufspiel pagat trull`,
                        `bid solo absolut` (the game solo-absolut, or Solo + Absolut)
  announce ADDITIONS    announce additions, e.g. `announce valat`, `announce trull absolut`
                        (against the declarer they are "gegen das Spiel" by themselves)
  trump SUIT            name the trump suit: `trump h` (c s h d, or clubs/Kreuz ...)
  kontra [TARGET]       Kontra (Rekontra ...) on the game, or on an announcement:
                        `kontra trull`, `kontra valat`
  discard c7 c8 d4      lay cards away after taking the talon
Other commands:
  hand    show your cards and the trick again
  sheet   show the score sheet
  ?/help  this text
  quit    leave the table"""


class Quit(Exception):
    """The human left the table (``quit``) or the input ended (``eof``)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("end of input" if eof else "quit")
        self.eof = eof


# -- text ------------------------------------------------------------------
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


def signed(n: int) -> str:
    """``+3``, ``-2``, ``0``."""
    return f"{n:+d}" if n else "0"


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


def action_text(action: Action, names: Sequence[str], after: Observation | None = None) -> str:
    """What a seat did, as others saw it (a hidden discard shows no cards).

    With ``after``, the view just after the action, a Kontra is named by the
    level it reached (``Rekontra on trull``).
    """
    who = names[action.seat]
    if isinstance(action, Discard) and not action.cards:
        return f"{who}: discards"
    if isinstance(action, Kontra) and after is not None:
        word = kontra_word(chain_level(after, action.target)) or "Kontra"
        return f"{who}: {word}" + (f" on {action.target}" if action.target else "")
    return f"{who}: {action.describe()}"


def announcement_text(ann: Announcement, names: Sequence[str]) -> str:
    """``trull (Hilde, gegen das Spiel, Rekontra x4)``."""
    notes = [names[ann.seat]]
    if ann.against:
        notes.append("gegen das Spiel")
    if ann.kontra:
        notes.append(f"{kontra_word(ann.kontra)} x{2 ** ann.kontra}")
    return f"{ann.name} ({', '.join(notes)})"


def game_text(obs: Observation, names: Sequence[str]) -> str:
    """The game in play as a seat sees it: contract, called card, trump,
    declarer, partner if known, the game's Kontra and every announcement."""
    assert obs.contract is not None and obs.declarer is not None
    contract = obs.contract
    called = f", called {format_card(obs.called)}" if obs.called is not None else ""
    trump = f", trump {_SUIT_NAMES.get(contract.trump, contract.trump)}" if contract.trump else ""
    partner = f", partner {names[obs.partner]}" if obs.partner is not None else ""
    level = obs.kontra_level
    kontra = f", {kontra_word(level)} x{2 ** level}" if level else ""
    said = ", ".join(announcement_text(a, names) for a in obs.announcements)
    announced = f"; announced: {said}" if said else ""
    return f"Game: {contract.name}{called}{trump} by {names[obs.declarer]}{partner}{kontra}{announced}"


def seating_text(seat: int, first: int, seats: int, direction: str, names: Sequence[str]) -> str:
    """The seats in play order from ``first``, each placed as ``seat`` sees the
    table: with counter-clockwise play the next player sits on one's right,
    with clockwise play on one's left."""
    clockwise = direction == "clockwise"
    where = {1: "on your left" if clockwise else "on your right", 2: "across",
             3: "on your right" if clockwise else "on your left"} if seats == 4 else {}
    order = [(first + i) % seats for i in range(seats)]
    listed = " -> ".join("you" if s == seat else f"{names[s]} ({where.get((s - seat) % seats, f'seat {s}')})"
                         for s in order)
    return f"Play goes {direction}, the forehand first: {listed}"


def result_lines(obs: Observation, names: Sequence[str]) -> list[str]:
    """A finished hand: contract, parties, points, premiums, factor, settlement."""
    result = obs.result
    assert result is not None
    if is_passed_out(result):
        return [f"Result: {result.note}; the deal is void and is dealt again."]
    return _result_lines(result, obs, names)


def _result_lines(result: HandResult, obs: Observation, names: Sequence[str]) -> list[str]:
    contract = obs.contract.name if obs.contract else "?"
    if obs.called is not None:
        contract += f" {format_card(obs.called)}"
    if result.declarers:
        lead = obs.declarer if obs.declarer in result.declarers else result.declarers[0]
        party = names[lead]
        others = [names[s] for s in result.declarers if s != lead]
        if others:
            party += " with " + " and ".join(others)
        elif obs.called is not None:
            party += " (alone)"
        ours, theirs = (points_text(p, result.unit) for p in result.points)
        outcome = {True: "won", False: "lost", None: "drawn"}[result.won]
        lines = [f"Result: {party} played {contract}: {ours} : {theirs} points, {outcome}"
                 f" (game {signed(result.game)})"]
    else:
        lines = [f"Result: {contract}, each for themselves (game {signed(result.game)})"]
    if obs.talon_seen or obs.discards:
        lines.append(f"Talon taken: {cards_text(obs.talon_seen)}; laid away: {cards_text(obs.discards)}")
    if result.premiums:
        prem = ", ".join(f"{p.name} {signed(p.value)}{' (announced)' if p.announced else ''}"
                         for p in result.premiums)
        lines.append(f"Premiums: {prem}")
    if result.factor != 1:
        lines.append(f"Kontra factor: x{result.factor}")
    if result.note:
        lines.append(f"Note: {result.note}")
    lines.append("Settlement: " + ", ".join(f"{n} {signed(a)}" for n, a in zip(names, result.settlement,
                                                                                 strict=True)))
    return lines


def sheet_lines(table: Table, names: Sequence[str]) -> list[str]:
    """The score sheet: per round dealer, declarers, contract and each seat's
    amount with its running total in brackets."""
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
        out.append(line)
    if not table.rows:
        out.append("  (no rounds played yet)")
    return out


def standings_lines(ranks: Sequence[Standing], names: Sequence[str]) -> list[str]:
    """``1. Franz  HP 3  SP +5`` per seat, best first."""
    width = max(len(n) for n in names)
    return [f"{s.place:>2}. {names[s.seat]:<{width}}  HP {number_text(s.main):<4} SP {signed(s.sub)}"
            for s in ranks]


# -- the human seat ------------------------------------------------------------
_SUIT_NAMES = {"c": "clubs", "s": "spades", "h": "hearts", "d": "diamonds"}
_SUIT_WORDS = {
    **{letter: letter for letter in SUIT_LETTERS},
    **{name: letter for letter, name in _SUIT_NAMES.items()},
    **{sym: SUIT_LETTERS[i] for i, sym in enumerate("♣♠♥♦")},
    "kreuz": "c", "treff": "c", "pik": "s", "herz": "h", "karo": "d",
}
_AGAINST_WORDS = frozenset({"against", "gegen", "das", "spiel"})


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
    names = [w for w in words if w not in _AGAINST_WORDS]
    if not names:
        return "announce what? e.g. `announce trull` or `announce valat`"
    for action in legal:
        if isinstance(action, Announce) and sorted(action.announce) == sorted(names):
            return action
    return Announce(seat, tuple(names), any(w in ("against", "gegen") for w in words))


def _kontra_choice(seat: int, words: Sequence[str], legal: Sequence[Action]) -> Action | str:
    """``kontra`` (the game's chain, or the only chain open) or ``kontra TARGET``."""
    kontras = [a for a in legal if isinstance(a, Kontra)]
    target = " ".join(w for w in words if w not in ("on", "auf"))
    if target in ("game", "spiel"):
        target = ""
    if target or not kontras or any(not a.target for a in kontras):
        return Kontra(seat, target)
    if len(kontras) == 1:
        return kontras[0]
    return "kontra on what? " + ", ".join(f"`kontra {a.target}`" for a in kontras)


def _find(legal: Sequence[Action], wanted: Action) -> Action | None:
    for action in legal:
        if action == wanted:
            return action
        if (isinstance(action, Discard) and isinstance(wanted, Discard)
                and sorted(action.cards) == sorted(wanted.cards)):
            return action
    return None


def _cards_of(words: Sequence[str]) -> tuple[Card, ...]:
    return tuple(parse_card(w) for w in words)


def choices(obs: Observation) -> list[Action]:
    """The legal actions in the order they are shown and numbered (cards in hand order)."""
    return sorted(obs.legal, key=lambda a: (0, sort_key(a.card)) if isinstance(a, Play) else (1, (0, 0)))


def parse_choice(text: str, obs: Observation) -> Action | str:
    """The action ``text`` names for ``obs.seat``, or a message saying what is wrong.

    A number picks from :func:`choices`.  The action is not checked against
    the rules here (see :class:`HumanPlayer`).
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
    word, rest = words[0].casefold(), words[1:]
    folded = [w.casefold() for w in rest]
    try:
        if word in ("pass", "weiter", "gut", "p"):
            return Pass(seat)
        if word in ("kontra", "rekontra", "subkontra", "re-sub", "resub", "k"):
            return _kontra_choice(seat, folded, legal)
        if word == "call":
            if rest:
                return Call(seat, parse_card(rest[0]))
            calls = [a for a in legal if isinstance(a, Call)]
            return calls[0] if len(calls) == 1 else "call which card? e.g. `call XX`"
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
    except CardError as exc:
        return str(exc)
    for action in legal:
        if action.describe().casefold() == text.casefold():
            return action
    if len(words) == 1:
        try:
            return Play(seat, parse_card(words[0]))
        except CardError:
            pass
    return f"I do not understand {text!r}: type a number 1..{len(legal)}, a card like XV, or ? for help"


def choice_text(action: Action, obs: Observation) -> str:
    """One choice as listed: the action's text, a Kontra with the level it reaches."""
    if isinstance(action, Kontra):
        word = kontra_word(chain_level(obs, action.target) + 1)
        return f"{action.describe()} ({word})" if word else action.describe()
    return action.describe()


def _basic(action: Action) -> bool:
    """Shown even in a long auction list: all but bids with additions and
    announcements of several additions at once."""
    if isinstance(action, Bid):
        return not action.announce
    if isinstance(action, Announce):
        return len(action.announce) == 1
    return True


def choices_lines(obs: Observation) -> list[str]:
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
        items = [(i, choice_text(a, obs)) for i, a in numbered]
    width = len(str(max(i for i, _ in items)))
    item = max(len(t) for _, t in items)
    per_row = max(1, 76 // (width + item + 5))
    cells = [f"{i:>{width}}) {t:<{item}}" for i, t in items]
    out = ["  " + "   ".join(cells[j:j + per_row]).rstrip() for j in range(0, len(cells), per_row)]
    if len(legal) > len(items):
        out.append(f"  ... {len(legal)} choices in all (numbers 1..{len(legal)} work)")
        if auction:
            examples = [a for a in legal if not _basic(a)][:2]
            out.append("  several additions at once: "
                       + ", ".join(f"`{_typed(a)}`" for a in examples))
        if all(isinstance(a, Discard) for a in legal):
            cards = sorted({c for a in legal if isinstance(a, Discard) for c in a.cards}, key=sort_key)
            size = len(legal[0].cards) if isinstance(legal[0], Discard) else 0
            out.append(f"  discard {size} of: {' '.join(format_card(c) for c in cards)}"
                       f" (e.g. `{legal[0].describe()}`)")
    return out


def _typed(action: Action) -> str:
    """How to type a bid or an announcement with its additions."""
    if isinstance(action, Bid):
        return " ".join(("bid", action.contract, *action.announce))
    if isinstance(action, Announce):
        return " ".join(("announce", *action.announce))
    return action.describe()


class HumanPlayer:
    """A seat played by a person at a line-based terminal."""

    def __init__(self, name: str = "You", read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print,
                 names: Callable[[], Sequence[str]] | None = None,
                 sheet: Callable[[], list[str]] | None = None) -> None:
        self.name = name
        self._read = read
        self._write = write
        self._names = names
        self._sheet = sheet
        self._why_not: WhyNot | None = None

    def explain_with(self, why_not: WhyNot) -> None:
        self._why_not = why_not

    def names(self, obs: Observation) -> list[str]:
        if self._names is not None:
            return list(self._names())
        return [self.name if s == obs.seat else f"Seat {s}" for s in range(obs.seats)]

    def show(self, obs: Observation) -> None:
        """Hand, contract, current trick, whose turn and the numbered choices."""
        names = self.names(obs)
        w = self._write
        if obs.declarer is not None and obs.contract is not None:
            w(game_text(obs, names))
        w(f"Your hand: {cards_text(obs.hand)}")
        if obs.trick is not None:
            number = len(obs.tricks) + 1
            w(f"Trick {number}: {trick_text(obs.trick, names) if obs.trick.cards else '(you lead)'}")
        w(f"{names[obs.seat]}, your turn ({obs.phase}):")
        for line in choices_lines(obs):
            w(line)

    def decide(self, obs: Observation) -> Action:
        """Ask until the line names a legal action."""
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has nothing to do in phase {obs.phase!r}")
        self.show(obs)
        while True:
            try:
                line = self._read("> ")
            except EOFError:
                raise Quit(eof=True) from None
            text = line.strip()
            if not text:
                self._write(f"Type a number 1..{len(obs.legal)}, or ? for help.")
                continue
            command = text.casefold()
            if command in ("?", "help", "h"):
                self._write(HELP)
                continue
            if command in ("quit", "exit", "q"):
                raise Quit(eof=False)
            if command == "hand":
                self.show(obs)
                continue
            if command == "sheet":
                for row in self._sheet() if self._sheet else ["(no score sheet here)"]:
                    self._write(row)
                continue
            choice = parse_choice(text, obs)
            if isinstance(choice, str):
                self._write(f"Sorry: {choice}")
                continue
            found = _find(obs.legal, choice)
            if found is not None:
                return found
            self._write(f"Not allowed: {self._reason(choice)}")

    def _reason(self, action: Action) -> str:
        reason: Reason | None = self._why_not(action) if self._why_not else None
        if reason is None:
            return f"{action.describe()} is not possible now; choose one of the numbers shown"
        return reason.message


# -- what the human sees happen -----------------------------------------------
class TableView(SessionListener):
    """Prints what happens at the table as seen from ``seat``."""

    def __init__(self, seat: int = 0, write: Callable[[str], None] = print) -> None:
        self.seat = seat
        self.write = write
        self._talon_shown = False
        self._partner_shown = False
        self._phase = ""

    def hand_started(self, session: Session, hand: Hand) -> None:
        names = session.names
        obs = observe(hand, self.seat)
        self._talon_shown = self._partner_shown = False
        self._phase = obs.phase
        again = f", deal {session.deal_no}" if session.deal_no > 1 else ""
        self.write("")
        self.write(f"=== Round {session.round} of {session.table.rounds}{again}: "
                   f"{names[obs.dealer]} deals, {names[obs.forehand]} is forehand ===")
        self.write(seating_text(self.seat, obs.forehand, obs.seats, session.direction, names))
        self.write(f"Your hand: {cards_text(obs.hand)}")

    def action_taken(self, session: Session, hand: Hand, action: Action) -> None:
        names = session.names
        obs = observe(hand, self.seat)
        seen = obs.history[-1]
        phase, self._phase = self._phase, obs.phase
        if not isinstance(seen, Play) and seen.seat != self.seat:
            text = action_text(seen, names, obs)
            if isinstance(seen, Pass) and phase not in ("bidding", ""):
                text += f" ({phase})"  # e.g. "weiter" in the Kontra round
            self.write(text)
        if obs.talon_seen and not self._talon_shown and obs.result is None:
            self._talon_shown = True
            self.write(f"You take from the talon: {cards_text(obs.talon_seen)}")
        self._tell_partner(obs, names)

    def trick_done(self, session: Session, hand: Hand, trick: TrickView) -> None:
        names = session.names
        obs = observe(hand, self.seat)
        self.write(f"Trick {len(obs.tricks)}: {trick_text(trick, names)}")
        self._tell_partner(obs, names)

    def _tell_partner(self, obs: Observation, names: Sequence[str]) -> None:
        if self._partner_shown or obs.partner is None or obs.declarer is None or obs.result is not None:
            return
        self._partner_shown = True
        if obs.partner == self.seat:
            self.write(f"You hold the called card: you play with {names[obs.declarer]} (secretly).")
        else:
            self.write(f"{names[obs.partner]} is {names[obs.declarer]}'s partner.")

    def hand_over(self, session: Session, outcome: HandOutcome) -> None:
        names = session.names
        obs = observe(outcome.hand, self.seat)
        for line in result_lines(obs, names):
            self.write(line)
        if outcome.row is not None:
            self.write("Score sheet:")
            for line in sheet_lines(session.table, names):
                self.write(line)

    def table_over(self, session: Session) -> None:
        self.write("")
        self.write(f"Final standings after {session.table.rounds} rounds:")
        for line in standings_lines(session.table.standings(), session.names):
            self.write(line)
