"""Broken: no version, so the rules hash could not tell its releases apart."""

from collections.abc import Sequence

from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec


class Unversioned:
    name = "unversioned"

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return []


PLUGIN = Unversioned
