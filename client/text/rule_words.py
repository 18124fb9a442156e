"""The rules' words: the games' and premiums' titles, descriptions and
values, the Kontra levels and the unit of amounts (:class:`Terms`), the
phases, a pass, seats by name, the notes of a result and the reasons an
action is refused.

What differs between rulesets is read from the table's rule facts
(:class:`core.facts.RuleFacts`, :class:`core.facts.VariantFacts`), never
from a variant's name: ``money`` is the unit of settlements (``ct``; empty
for game points), ``kontra_words`` name the Kontra levels from level 1 up.
Every word goes through the catalogue with its context (``game``,
``premium``, ``money``, ``kontra``, ``phase``, ``reason``, ``note``...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tarock.client.i18n import NP_, _, fill, p_
from tarock.client.text.figures import PLAIN, Style, factor_text, number_text, signed
from tarock.core.auction import VORHAND
from tarock.core.cards import Card
from tarock.core.contracts import ContractSpec
from tarock.core.facts import KONTRA_WORDS, RuleFacts, VariantFacts
from tarock.core.state import Reason

MONEY_NAMES: Mapping[str, str] = {"ct": NP_("money-name", "cents")}
"""Long names of money units, for headings."""

PHASES = {p: p for p in (NP_("phase", "bidding"), NP_("phase", "call"), NP_("phase", "talon"),
                         NP_("phase", "discard"), NP_("phase", "announce"), NP_("phase", "kontra"),
                         NP_("phase", "trump"), NP_("phase", "birds"), NP_("phase", "play"))}
"""The phases the engine and the shipped variants name (a house rule's own show as named)."""


@dataclass(frozen=True, slots=True)
class Terms:
    """How one ruleset writes amounts and Kontra levels (module docstring)."""

    money: str = ""
    kontra_words: tuple[str, ...] = KONTRA_WORDS

    @classmethod
    def of(cls, facts: VariantFacts) -> Terms:
        """The terms a ruleset's facts declare (money unit, names of the Kontra levels)."""
        return cls(facts.money, facts.kontra_words or KONTRA_WORDS)

    @classmethod
    def of_rules(cls, rules: RuleFacts | None) -> Terms:
        """The terms of a table's rules (the defaults without them)."""
        return cls.of(rules.facts) if rules is not None else cls()

    @property
    def unit(self) -> str:
        """The unit after an amount (``ct``), in the player's language; empty for game points."""
        return p_("money", self.money) if self.money else ""

    @property
    def unit_name(self) -> str:
        """``cents`` for ``ct``; empty for game points."""
        if self.money in MONEY_NAMES:
            return p_("money-name", MONEY_NAMES[self.money])
        return self.unit

    def amount(self, n: int | Fraction, style: Style = PLAIN, sign: bool = True) -> str:
        """An amount with its unit: ``+30 ct``, ``-2`` (unsigned: ``30 ct``)."""
        text = signed(n, style) if sign else number_text(n, style)
        return f"{text} {self.unit}" if self.money else text

    def kontra(self, level: int, style: Style = PLAIN) -> str:
        """The name of Kontra ``level`` (1 = Kontra); ``x2**level`` beyond the named ones."""
        if 1 <= level <= len(self.kontra_words):
            return p_("kontra", self.kontra_words[level - 1])
        return "" if level <= 0 else factor_text(2 ** level, style)


def game_title(game: ContractSpec | str | None, rules: RuleFacts | None = None) -> str:
    """A game's title in the player's language (``Solo mit Pagat``), from its
    spec or by its name in the table's rules."""
    if isinstance(game, ContractSpec):
        return p_("game", game.title)
    if game == VORHAND:
        return _("Vorhand!")
    spec = rules.contract(game) if rules is not None and game else None
    return p_("game", spec.title if spec is not None else game or "")


_CITATION = re.compile(
    r"\s*\((?:[^()]*?;\s*)?docs/[\w./]+(?:\s*§[\d.]+)?\)"  # "(…; docs/rules.md §4.5)", "(docs/rules.md §13)"
    r"|(?:,\s*)?docs/[\w./]+(?:\s*§[\d.]+)?:\s*"  # "docs/rules.md §16: "
    r"|,?\s*docs/[\w./]+(?:\s*§[\d.]+)?"  # a bare citation
)


def player_words(text: str) -> str:
    """``text`` without the citations of the project's documents a rule's data may carry
    (a player reads the rule, not where the developers found it)."""
    def keep(m: re.Match[str]) -> str:
        return ": " if m.group(0).startswith(",") and ":" in m.group(0) else ""

    return _CITATION.sub(keep, text).strip()


def option_description(description: str) -> str:
    """An option's description in the player's language and words."""
    return player_words(p_("option", description))


def option_value_text(value: object) -> str:
    """One of an option's choices in the player's words (``queen``: "eine Dame rufen")."""
    return p_("option-value", str(value))


def game_description(spec: ContractSpec) -> str:
    return p_("game-description", spec.description) if spec.description else ""


def variant_description(text: str) -> str:
    """A variant's description; a house-rule variant's is its base's and the house rules' names."""
    base, sep, rules = text.partition(" House rules: ")
    out = player_words(p_("variant-description", base))
    return out + " " + _("House rules: {names}").format(names=rules.rstrip(".")) if sep else out


def tariff_text(spec: ContractSpec, rules: RuleFacts | None, style: Style = PLAIN) -> str:
    """What a game pays: ``1``, ``20 ct``, ``30 ct / lost 40 ct``."""
    terms = Terms.of_rules(rules)
    value = terms.amount(spec.value, style, sign=False)
    if spec.lost is not None and spec.lost != spec.value:
        return _("{value} / lost {lost}").format(value=value, lost=terms.amount(spec.lost, style, sign=False))
    return value


def premium_title(name: str, rules: RuleFacts | None) -> str:
    """A premium's title in the player's language (``Vier Könige``), from its name."""
    spec = rules.premium(name) if rules is not None else None
    return p_("premium", spec.title if spec is not None else name)


def premium_description(name: str, rules: RuleFacts | None) -> str:
    spec = rules.premium(name) if rules is not None else None
    return p_("premium-description", spec.description) if spec is not None and spec.description else ""


def premium_values(name: str, rules: RuleFacts | None, style: Style = PLAIN) -> str:
    """``silent 1, announced 2``."""
    spec = rules.premium(name) if rules is not None else None
    if spec is None:
        return ""
    terms = Terms.of_rules(rules)
    parts = []
    if spec.silent:
        parts.append(_("silent {value}").format(value=terms.amount(spec.silent, style, sign=False)))
    if spec.announced:
        parts.append(_("announced {value}").format(value=terms.amount(spec.announced, style, sign=False)))
    return ", ".join(parts)


def premiums_text(names: Sequence[str], rules: RuleFacts | None) -> str:
    """Premiums by their titles: ``Trull, Vier Könige``."""
    return ", ".join(premium_title(n, rules) for n in names)


def cards_points(cards: Sequence[Card], rules: RuleFacts | None) -> Fraction:
    """The card points of ``cards`` as the variant counts them (one by one
    here: a 54-card deck's groups of three are summed as thirds)."""
    if rules is None:
        return Fraction(0)
    unit = rules.facts.unit
    values = rules.facts.card_values
    return Fraction(sum(values[c] * unit - (unit - 1) for c in cards), unit)


def phase_text(phase: str) -> str:
    """A phase's name in the player's language (``bidding``: ``Lizitation``)."""
    return p_("phase", phase) if phase in PHASES else phase


def pass_text(phase: str) -> str:
    """What a pass is called in ``phase``: "Weiter" (bidding, Kontra), "Gut!"
    among the announcements, no higher bird in the bird contest."""
    if phase == "announce":
        return _("Gut!")
    if phase == "birds":
        return _("No higher bird")
    return _("Pass")


def pass_meaning(phase: str, kontra: bool = False) -> str:
    """What a pass means in ``phase`` (``kontra``: it lets a Kontra go)."""
    if phase == "announce":
        return _("nothing more to announce (three Gut! in a row end the announcements)")
    if phase == "birds":
        return _("the other Besserrufer plays")
    if phase == "bidding":
        return _("no bid now")
    return _("no Kontra") if kontra else _("let it go")


# -- seats ----------------------------------------------------------------------------------

def is_you(name: str) -> bool:
    """Whether ``name`` is the catalogue's word for the player reading (``You``,
    ``Du``): a sentence about that seat is written in the second person."""
    return name == _("You")


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's name, ``seat N`` where it has none."""
    return names[seat] if 0 <= seat < len(names) else _("seat {n}").format(n=seat)


def and_text(named: Sequence[str]) -> str:
    """``Hilde``, ``Hilde and Sepp``, ``Franz, Sepp and Resi``; the reading player after
    another name as the pronoun in lower case (``Hilde und du``)."""
    if len(named) == 1:
        return named[0]
    named = [named[0], *(p_("subject", "you") if is_you(n) else n for n in named[1:])]
    return _("{names} and {last}").format(names=", ".join(named[:-1]), last=named[-1])


def names_text(seats: Sequence[int], names: Sequence[str]) -> str:
    """The seats by name: ``Hilde``, ``Hilde and Sepp``, ``Franz, Sepp and Resi``."""
    return and_text([seat_name(names, s) for s in seats])


# -- notes and reasons ----------------------------------------------------------------------

def reason_text(reason: Reason | None) -> str:
    """Why an action is not allowed, in the catalogue: by the reason's
    sentence, else by the template it was written from (its figures kept),
    else by its code, else the engine's own sentence."""
    if reason is None:
        return ""
    by_message = p_("reason", reason.message)
    if by_message != reason.message:
        return player_words(by_message)
    by_template = fill(reason.message)
    if by_template is not None:
        return by_template
    by_code = p_("reason-code", reason.code)
    return player_words(by_code if by_code != reason.code else reason.message)


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
        if template == "{seat}'s game" and seats and is_you(seat_name(names, seats[0])):
            return p_("note", "your game")
        out = p_("note", template)
        if seats and "{seat}" in out:
            return out.replace("{seat}", seat_name(names, seats[0]), 1)
        return out

    return "; ".join(", ".join(part(p) for p in chunk.split(", ")) for chunk in note.split("; "))
