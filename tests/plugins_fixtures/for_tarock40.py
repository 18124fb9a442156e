"""Incompatible over tarock54: written for the 40-card game."""

from core.hookspecs import hookimpl


class Forty:
    name = "forty-only"
    version = "1.0"
    applies_to = ("tarock40",)

    @hookimpl
    def tarock_options(self) -> dict[str, object]:
        return {"forty_rule": True}


PLUGIN = Forty
