"""Broken: its option hook raises while a table's rules are built."""

from core.hookspecs import hookimpl


class FailsEarly:
    name = "fails-early"
    version = "1.0"

    @hookimpl
    def tarock_options(self) -> dict[str, object]:
        return {"rate": 1 // 0}


PLUGIN = FailsEarly
