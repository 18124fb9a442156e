"""Broken: a typo in the hook name (tarock_trick_winer)."""

from tarock.core.hookspecs import hookimpl


class Typo:
    name = "typo"
    version = "1.0"

    @hookimpl
    def tarock_trick_winer(self, state: object, trick: object) -> int | None:
        return None


PLUGIN = Typo
