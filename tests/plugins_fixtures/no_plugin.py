"""Broken: defines a plugin class but does not export it as PLUGIN."""

from collections.abc import Sequence

from core.hookspecs import hookimpl
from core.options import OptionSpec


class Forgotten:
    name = "forgotten"
    version = "1.0"

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return []
