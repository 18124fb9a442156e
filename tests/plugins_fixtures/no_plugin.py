"""Broken: defines a plugin class but does not export it as PLUGIN."""

from collections.abc import Sequence

from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec


class Forgotten:
    name = "forgotten"
    version = "1.0"

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return []
