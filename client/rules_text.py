"""A variant's rules as text, generated from its data (``tarock rules VARIANT``).

Everything printed here is read from the ruleset: the contracts with their
values and play rules, the premiums with their values, the options with
their types, defaults and descriptions.  Nothing is written by hand per
variant, so the page is always what the engine plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from core.cards import format_cards
from core.contracts import ContractSpec, PremiumSpec, TrickRules
from core.facts import RuleFacts
from core.options import Declared, show_value

_PARTNERSHIP = {"called": "with a called partner", "alone": "alone against the others",
                "each": "each for himself"}
_TALON = {"none": "no talon", "pile": "takes the first talon pile", "half": "chooses a talon half",
          "all": "takes the whole talon", "trick": "talon cards go into the first tricks",
          "last": "the talon goes to the winner of the last trick"}
_TRUMP = {"tarock": "tarocks trump", "colour": "colour game (tarocks win only tarock tricks)",
          "suit": "a suit named by the declarer trumps, tarocks are a plain suit"}


def _points(value: int, unit: int) -> str:
    if unit == 1:
        return str(value)
    whole, rest = divmod(value, unit)
    return f"{whole}" if not rest else f"{whole} {rest}/{unit}"


def _amount(value: int, money: str) -> str:
    return f"{value} {money}" if money else str(value)


def play_rules(tricks: TrickRules) -> str:
    """The trick rules in a few words."""
    parts = [_TRUMP[tricks.trump]]
    if tricks.overtrump:
        parts.append("a trump on a trump must beat it")
    if tricks.must_win:
        parts.append("Stichzwang")
    if tricks.pagat_last:
        parts.append("Pagat only as the last tarock")
    if tricks.trull_trick:
        parts.append("the Pagat wins a trick with the whole Trull")
    if tricks.xx_high:
        parts.append("XX high, Pagat low")
    return ", ".join(parts)


def contract_lines(spec: ContractSpec, facts: RuleFacts) -> Iterator[str]:
    """One contract: its name and value, then its rules indented."""
    money, unit = facts.facts.money, facts.facts.unit
    value = _amount(spec.value, money)
    if spec.lost is not None and spec.lost != spec.value:
        value += f", lost {_amount(spec.lost, money)}"
    yield f"{spec.rank:>3}. {spec.title} [{spec.name}]: {value}"
    if spec.description:
        yield f"       {spec.description}"
    who = [_PARTNERSHIP[spec.partnership]]
    if spec.call is not None:
        who.append(f"calls {'the highest missing of' if spec.call.highest else 'one of'} "
                   f"{' '.join(format_cards(spec.call.cards))}")
    if spec.forehand_only:
        who.append("forehand only")
    who += [r.description for r in spec.requires if r.description]
    if spec.joinable:
        who.append("others may join (bei)")
    yield f"       who: {'; '.join(who)}"
    talon = _TALON[spec.talon]
    if spec.talon in ("half", "all") and not spec.talon_open:
        talon += " (face down)"
    lead = "the declarer leads" if spec.leader == "declarer" else "the forehand leads"
    yield f"       talon: {talon}; {lead}; {'hands open after the first trick; ' if spec.ouvert else ''}" \
          f"{play_rules(spec.tricks)}"
    goal = spec.goal
    if goal.kind == "points":
        need = f"at least {_points(goal.points, unit)} points" if goal.points else \
            "the majority of the points"
        if goal.draw is not None:
            need += f" ({_points(goal.draw, unit)} is a draw)"
    elif goal.kind == "tricks":
        need = f"exactly {goal.tricks} trick{'s' if goal.tricks != 1 else ''}"
    else:
        need = "each for himself, settled by rank"
    words = facts.facts.kontra_words
    top = words[spec.kontra - 1] if 0 < spec.kontra <= len(words) else f"level {spec.kontra}"
    kontra = "no Kontra" if spec.kontra == 0 else f"Kontra up to {top}"
    yield f"       goal: {need}; {kontra}"
    if spec.premiums:
        names = [p.title for p in facts.premiums if p.name in spec.premiums]
        scale = "; premiums count double" if spec.premium_scale == 2 else \
            f"; premiums count {spec.premium_scale} times" if spec.premium_scale > 1 else ""
        announced = f"; the bid announces {', '.join(spec.announces)}" if spec.announces else ""
        yield f"       premiums: {', '.join(names)}{scale}{announced}"


def premium_line(premium: PremiumSpec, money: str) -> str:
    """One premium and its values."""
    parts = [f"silent {_amount(premium.silent, money)}" if premium.silent else "only announced"]
    if premium.announced:
        parts.append(f"announced {_amount(premium.announced, money)}")
    if premium.silent_lost is not None and premium.silent_lost != premium.silent:
        parts.append(f"a silent attempt that fails {_amount(premium.silent_lost, money)}")
    kind = " (material)" if premium.material else ""
    text = f"  {premium.title} [{premium.name}]{kind}: {', '.join(parts)}"
    return text + (f" - {premium.description}" if premium.description else "")


def option_line(declared: Declared, value: object) -> str:
    """One option: name, type, default (and the table's value where it differs), description."""
    spec = declared.spec
    kind = {bool: "bool", int: "int", float: "number", str: "text", tuple: "list"}[spec.kind]
    now = "" if value == spec.default else f", here {show_value(value)}"
    return (f"  {spec.name} ({kind}, default {show_value(spec.default)}{now}; allowed: {spec.allowed()}): "
            f"{spec.description}  [{declared.plugin}]")


def rules_page(facts: RuleFacts, options: Mapping[str, Declared]) -> list[str]:
    """The whole page: heading, contracts, premiums, options, scoring facts."""
    f = facts.facts
    lines = [f"{facts.title} [{facts.variant}]",
             f"{len(facts.deck)} cards, {facts.hand_size} each, talon {list(facts.talon_piles) or 'none'}; "
             f"{facts.players} play a hand; play goes {f.direction}",
             "plugins: " + ", ".join(f"{n} {v}" for n, v in facts.plugins),
             "", "Contracts, lowest first:"]
    for spec in facts.contracts:
        lines.extend(contract_lines(spec, facts))
    lines += ["", "Premiums:"]
    lines += [premium_line(p, f.money) for p in facts.premiums] or ["  none"]
    scope = ("one Kontra chain doubles the game and every premium" if f.kontra_scope == "game"
             else "the game and every announcement carry a Kontra chain of their own")
    unit = "thirds of a point" if f.unit == 3 else "points" if f.unit == 1 else f"1/{f.unit} points"
    money = f"in {f.money}" if f.money else "in game points"
    lines += ["", f"Settlement: amounts {money} per opponent; {scope}; card points counted in {unit}.",
              "", "Options:"]
    lines += [option_line(d, facts.options.get(n, d.spec.default)) for n, d in options.items()] or ["  none"]
    return lines
