"""Broken: a hook implementation asks for an argument the hook does not have."""

from tarock.core.hookspecs import hookimpl


class WrongArgs:
    name = "wrong-args"
    version = "1.0"

    @hookimpl
    def tarock_trick_winner(self, state: object, cards: object) -> int | None:
        return None


PLUGIN = WrongArgs
