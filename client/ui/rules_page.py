"""A table's rules page in the player's language, generated from the rules' data.

Every contract with its value, partnership, talon, trick rules, goal,
Kontra and premiums; every premium with its values; every option with its
description and value; the counting and settlement facts.  ``tarock
rules`` prints the same page with the names the records, ``-o`` and
plugins.toml use (``names=True``).  Nothing is
written per variant, so a house rule's page is its own rules.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping

from tarock.client.i18n import _, n_, p_
from tarock.client.text.figures import points_text
from tarock.client.text.rule_words import (
    Terms,
    game_description,
    game_title,
    option_description,
    option_value_text,
    premium_title,
    tariff_text,
)
from tarock.client.ui.cards import cards_text
from tarock.client.words import PREMIUMS
from tarock.core.contracts import ContractSpec, PremiumSpec, TrickRules
from tarock.core.facts import RuleFacts
from tarock.core.options import Declared, show_value


def _partnership(spec: ContractSpec) -> str:
    return {
        "called": _("with a called partner"),
        "alone": _("alone against the others"),
        "each": _("each for himself"),
    }[spec.partnership]


def _talon(spec: ContractSpec) -> str:
    text = {
        "none": _("no talon"),
        "pile": _("takes the first talon pile"),
        "half": _("chooses a talon half"),
        "all": _("takes the whole talon"),
        "trick": _("talon cards go into the first tricks"),
        "last": _("the talon goes to the winner of the last trick"),
    }[spec.talon]
    if spec.talon in ("half", "all") and not spec.talon_open:
        text += " " + _("(face down)")
    return text


def play_rules(tricks: TrickRules) -> str:
    """The trick rules in a few words."""
    parts = [
        {
            "tarock": _("tarocks trump"),
            "colour": _("colour game (tarocks win only tarock tricks)"),
            "suit": _("a suit named by the declarer trumps, tarocks are a plain suit"),
        }[tricks.trump]
    ]
    if tricks.overtrump:
        parts.append(_("a trump on a trump must beat it"))
    if tricks.must_win:
        parts.append(_("Stichzwang (a card that wins must be played)"))
    if tricks.pagat_last:
        parts.append(_("the Pagat only as the last tarock"))
    if tricks.trull_trick:
        parts.append(_("the Pagat wins a trick with the whole Trull"))
    if tricks.xx_high:
        parts.append(_("XX high, Pagat low"))
    return ", ".join(parts)


def _goal(spec: ContractSpec, facts: RuleFacts) -> str:
    goal, unit = spec.goal, facts.facts.unit
    if goal.kind == "points":
        need = (
            _("at least {points} points").format(points=points_text(goal.points, unit))
            if goal.points
            else _("the majority of the points")
        )
        if goal.draw is not None:
            need += " " + _("({points} is a draw)").format(points=points_text(goal.draw, unit))
        return need
    if goal.kind == "tricks":
        return n_("exactly {n} trick", "exactly {n} tricks", goal.tricks).format(n=goal.tricks)
    return _("each for himself, settled by rank")


def summary(spec: ContractSpec, facts: RuleFacts) -> str:
    """A game in a few words from its data, for a game whose rules give no description."""
    parts = [_partnership(spec), _talon(spec), _goal(spec, facts)]
    if spec.tricks.trump != "tarock":
        parts.insert(2, play_rules(TrickRules(trump=spec.tricks.trump)))
    return "; ".join(parts)


def contract_lines(
    spec: ContractSpec, facts: RuleFacts, names: bool = False, number: int = 0
) -> Iterator[str]:
    """One game: its title and value, then its rules indented (``names``: with
    its name in the records, ``[solo-pagat]``, and its rank; else numbered ``number``)."""
    value = tariff_text(spec, facts)
    name = f" [{spec.name}]" if names else ""
    yield f"{spec.rank if names else number:>3}. {game_title(spec)}{name}: {value}"
    if spec.description:
        yield "     " + game_description(spec)
    who = [_partnership(spec)]
    if spec.call is not None:
        which = _("calls the highest missing of {cards}") if spec.call.highest else _("calls one of {cards}")
        who.append(which.format(cards=cards_text(spec.call.cards)))
    if spec.forehand_only:
        who.append(_("forehand only"))
    who += [p_("holding", r.description) for r in spec.requires if r.description]
    if spec.joinable:
        who.append(_("others may join (bei)"))
    yield "     " + _("who: {text}").format(text="; ".join(who))
    lead = _("the declarer leads") if spec.leader == "declarer" else _("the forehand leads")
    ouvert = _("hands open after the first trick") if spec.ouvert else ""
    parts = [_talon(spec), lead, *([ouvert] if ouvert else []), play_rules(spec.tricks)]
    yield "     " + _("play: {text}").format(text="; ".join(parts))
    kontra = (
        _("no Kontra")
        if spec.kontra == 0
        else _("Kontra up to {word}").format(word=Terms.of_rules(facts).kontra(spec.kontra))
    )
    yield "     " + _("goal: {goal}; {kontra}").format(goal=_goal(spec, facts), kontra=kontra)
    if spec.premiums:
        titles = [premium_title(p.name, facts) for p in facts.premiums if p.name in spec.premiums]
        text = ", ".join(titles)
        if spec.premium_scale == 2:
            text += "; " + _("premiums count double")
        elif spec.premium_scale > 1:
            text += "; " + _("premiums count {n} times").format(n=spec.premium_scale)
        if spec.announces:
            text += "; " + _("the bid announces {list}").format(
                list=", ".join(premium_title(n, facts) for n in spec.announces)
            )
        yield "     " + _("premiums: {text}").format(text=text)


def premium_line(premium: PremiumSpec, facts: RuleFacts, names: bool = False) -> str:
    """One premium and its values (``names``: with its name in the records)."""
    terms = Terms.of_rules(facts)
    parts = [
        _("silent {value}").format(value=terms.amount(premium.silent, sign=False))
        if premium.silent
        else _("only announced")
    ]
    if premium.announced:
        parts.append(_("announced {value}").format(value=terms.amount(premium.announced, sign=False)))
    if premium.silent_lost is not None and premium.silent_lost != premium.silent:
        parts.append(
            _("a silent attempt that fails {value}").format(
                value=terms.amount(premium.silent_lost, sign=False)
            )
        )
    name = f" [{premium.name}]" if names else ""
    if names and premium.material:
        name += " " + _("(material)")
    text = f"  {premium_title(premium.name, facts)}{name}: {', '.join(parts)}"
    if premium.description:
        text += " – " + p_("premium-description", premium.description)
    elif premium.name in PREMIUMS:  # the vocabulary's meaning where the rules give no description
        text += " – " + p_("premium-meaning", PREMIUMS[premium.name])
    return text


def _value(value: object) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) or "–"
    if isinstance(value, str):
        return option_value_text(value)
    return str(value)


def option_line(name: str, declared: Declared, value: object) -> str:
    spec = declared.spec
    return _("  {option}: {value} (default {default}) – {description}").format(
        option=p_("option-name", name),
        description=option_description(spec.description),
        value=_value(value),
        default=_value(spec.default),
    )


_KINDS = {bool: "bool", int: "int", float: "number", str: "text", tuple: "list"}
"""An option's type as ``tarock rules`` names it (as in plugins.toml)."""


def allowed_text(declared: Declared) -> str:
    """What an option accepts, in words: ``true or false``, ``one of "a", "b"``."""
    spec = declared.spec
    if spec.choices:
        return _("one of {list}").format(list=", ".join(show_value(c) for c in spec.choices))
    kind = {
        bool: _("true or false"),
        int: _("an integer"),
        float: _("a number"),
        str: _("a string"),
        tuple: _("a list of strings"),
    }[spec.kind]
    if spec.minimum is not None and spec.maximum is not None:
        return _("{kind} from {least} to {most}").format(kind=kind, least=spec.minimum, most=spec.maximum)
    if spec.minimum is not None:
        return _("{kind} of at least {least}").format(kind=kind, least=spec.minimum)
    if spec.maximum is not None:
        return _("{kind} of at most {most}").format(kind=kind, most=spec.maximum)
    return kind


def option_detail(name: str, declared: Declared, value: object) -> str:
    """An option as ``-o`` and plugins.toml write it: name, type, default (and
    the table's value where it differs), what it accepts, description, plugin."""
    spec = declared.spec
    now = "" if value == spec.default else _(", here {value}").format(value=show_value(value))
    line = _("  {option} ({kind}, default {default}{now}; allowed: {allowed}): {description}  [{plugin}]")
    return line.format(
        option=name,
        kind=_KINDS[spec.kind],
        default=show_value(spec.default),
        now=now,
        allowed=allowed_text(declared),
        description=option_description(spec.description),
        plugin=declared.plugin,
    )


def rules_page(
    facts: RuleFacts, options: Mapping[str, Declared] | None = None, names: bool = False
) -> list[str]:
    """The whole page, one string per line (unwrapped).  ``names``: as
    ``tarock rules`` prints it, with the names the records, ``-o`` and
    plugins.toml use (variant, games, premiums, options with their types)."""
    f = facts.facts
    direction = _("counter-clockwise") if f.direction == "counterclockwise" else _("clockwise")
    talon = "+".join(str(n) for n in facts.talon_piles) or _("none")
    lines = [
        p_("variant", facts.title) + (f" [{facts.variant}]" if names else ""),
        _("{cards} cards, {each} each, talon {talon}; {players} play a hand; play goes {direction}").format(
            cards=len(facts.deck),
            each=facts.hand_size,
            talon=talon,
            players=facts.players,
            direction=direction,
        ),
        "",
        _("Games, lowest first:"),
    ]
    for number, spec in enumerate(facts.contracts, start=1):
        lines.extend(contract_lines(spec, facts, names, number))
    lines += ["", _("Premiums:")]
    lines += [premium_line(p, facts, names) for p in facts.premiums] or ["  " + _("none")]
    scope = (
        _("one Kontra chain doubles the game and every premium")
        if f.kontra_scope == "game"
        else _("the game and every announcement carry a Kontra chain of their own")
    )
    unit = _("in thirds of a point") if f.unit == 3 else _("card by card")
    money = _("in {unit}").format(unit=p_("money", f.money)) if f.money else _("in game points")
    lines += [
        "",
        _("Settlement: amounts {money} per opponent; {scope}; card points counted {unit}.").format(
            money=money, scope=scope, unit=unit
        ),
    ]
    if options and names:
        lines += ["", _("Options:")]
        lines += [option_detail(n, d, facts.options.get(n, d.spec.default)) for n, d in options.items()]
    elif options:
        lines += ["", _("Options:")]
        lines += [option_line(n, d, facts.options.get(n, d.spec.default)) for n, d in options.items()]
    elif facts.options:
        lines += ["", _("Options:")]
        lines += [f"  {p_('option-name', name)}: {_value(value)}" for name, value in facts.options.items()]
    if names:
        lines += ["", _("Plugins: {list}").format(list=", ".join(f"{n} {v}" for n, v in facts.plugins))]
    return lines


def rules_lines(facts: RuleFacts, width: int, options: Mapping[str, Declared] | None = None) -> list[str]:
    """The page wrapped to ``width`` columns."""
    out: list[str] = []
    for line in rules_page(facts, options):
        indent = " " * (len(line) - len(line.lstrip()))
        wrapped = textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_on_hyphens=False)
        out.extend(wrapped or [""])
    return out
