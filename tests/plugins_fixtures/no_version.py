"""Broken: no version, so the rules hash could not tell its releases apart."""

from core.hookspecs import hookimpl


class Unversioned:
    name = "unversioned"

    @hookimpl
    def tarock_options(self) -> dict[str, object]:
        return {}


PLUGIN = Unversioned
