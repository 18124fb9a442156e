"""Broken: defines a plugin class but does not export it as PLUGIN."""

from core.hookspecs import hookimpl


class Forgotten:
    name = "forgotten"
    version = "1.0"

    @hookimpl
    def tarock_options(self) -> dict[str, object]:
        return {}
