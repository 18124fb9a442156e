"""The forms of a new table in the lobby: against bots here, or opened on the
network; each a list of fields (the variant, its options typed as declared,
the rounds, the bots or the seats for them, a PIN)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from tarock.client.bots import BOT_KINDS
from tarock.client.i18n import _, p_
from tarock.client.text.rule_words import option_description, option_value_text
from tarock.core.options import Declared
from tarock.core.plugins import Catalogue
from tarock.core.rules import RuleError

BOT_NAMES = ("Franz", "Hilde", "Sepp", "Resi")
LABEL_WIDTH = 24
"""The form's label column (the same for every game, so it does not jump when the game changes)."""
ROUNDS = (1, 2, 4, 6, 8, 12, 16, 24)


@dataclass
class Field:
    """One row of a form: a value chosen among ``values`` (←→), or text typed."""

    key: str
    label: str
    values: list[Any]
    index: int = 0
    detail: str = ""
    text: str | None = None
    show: Callable[[Any], str] = str

    @property
    def value(self) -> Any:
        return self.text if self.text is not None else self.values[self.index]

    def shown(self) -> str:
        return self.text if self.text is not None else self.show(self.value)

    def step(self, n: int) -> None:
        if self.text is None and self.values:
            self.index = (self.index + n) % len(self.values)


def _flag(value: Any) -> str:
    return _("yes") if value else _("no")


def option_field(name: str, declared: Declared, value: Any) -> Field | None:
    """A form field for an option, by its type (None for a list option: kept as it is)."""
    spec = declared.spec
    label = p_("option-name", name)
    detail = option_description(spec.description)
    if spec.choices:
        values = list(spec.choices)
        index = values.index(value) if value in values else 0
        return Field(f"option:{name}", label, values, index, detail, show=option_value_text)
    if spec.kind is bool:
        return Field(f"option:{name}", label, [True, False], 0 if value else 1, detail, show=_flag)
    if spec.kind is int:
        low = spec.minimum if spec.minimum is not None else min(0, int(value))
        high = spec.maximum if spec.maximum is not None else max(int(value) * 4, int(value) + 20)
        values = list(range(low, high + 1))
        return Field(
            f"option:{name}", label, values, values.index(int(value)) if int(value) in values else 0, detail
        )
    if spec.kind is float:
        values = sorted({float(value), *(float(value) + k * 0.5 for k in range(-4, 9))} - {-0.5, -1.0})
        return Field(f"option:{name}", label, values, values.index(float(value)), detail)
    if spec.kind is str:
        return Field(f"option:{name}", label, [], detail=detail, text=str(value))
    return None


def bot_label(kind: str) -> str:
    return p_("bot", kind)


@dataclass
class Form:
    """A new table: against bots here, or opened on the network."""

    kind: Literal["bots", "open"]
    fields: list[Field]
    row: int = 0
    message: str = ""

    def rows(self) -> int:
        return len(self.fields) + 2

    def field(self, key: str) -> Field | None:
        return next((f for f in self.fields if f.key == key), None)


def new_form(
    catalogue: Catalogue, kind: Literal["bots", "open"], player: str, variant: str | None = None
) -> Form:
    """The form of a new table of ``kind``, ``variant`` (else the first offered) chosen."""
    variants = list(catalogue.offered().values())
    names = [v.name for v in variants]
    index = names.index(variant) if variant in names else 0
    fields = [
        Field(
            "variant",
            _("Game"),
            names,
            index,
            show=lambda n: p_("variant", catalogue.variants[n].title),
        )
    ]
    if kind == "open":
        fields.append(
            Field("name", _("Table name"), [], text=_("{name}'s table").format(name=player))
        )
    fields.append(Field("rounds", _("Rounds"), list(ROUNDS), ROUNDS.index(12)))
    if kind == "bots":
        for seat in range(1, 4):
            fields.append(
                Field(
                    f"bot:{seat}",
                    BOT_NAMES[seat - 1],
                    list(BOT_KINDS),
                    BOT_KINDS.index("heuristic") if "heuristic" in BOT_KINDS else 0,
                    _("how this bot plays"),
                    show=bot_label,
                )
            )
    else:
        fields.append(
            Field(
                "bots",
                _("Seats for bots"),
                [0, 1, 2, 3],
                0,
                _("seats filled by bots at once; the others wait for players"),
            )
        )
        fields.append(
            Field(
                "strength",
                _("Bots play"),
                list(BOT_KINDS),
                BOT_KINDS.index("heuristic") if "heuristic" in BOT_KINDS else 0,
                _("how the bots at this table play"),
                show=bot_label,
            )
        )
        fields.append(
            Field(
                "pin",
                _("PIN"),
                [],
                detail=_("empty: anyone on the network may join; a PIN: only who knows it"),
                text="",
            )
        )
    form = Form(kind, fields)
    option_fields(catalogue, form)
    return form


def option_fields(catalogue: Catalogue, form: Form) -> None:
    """The chosen variant's options, each a field with its description."""
    form.fields = [f for f in form.fields if not f.key.startswith("option:")]
    variant_field = form.field("variant")
    assert variant_field is not None
    variant = catalogue.variants[variant_field.value]
    try:
        rules = variant.rules()
    except RuleError as exc:
        form.message = str(exc)
        return
    for name, declared in rules.option_specs.items():
        f = option_field(name, declared, rules.options.get(name, declared.spec.default))
        if f is not None:
            form.fields.append(f)
