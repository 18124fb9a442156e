"""A sound house rule for any variant: a Valat counts double."""

from collections.abc import Generator, Sequence
from dataclasses import replace

from core.hookspecs import hookimpl
from core.state import HandState, Premium


class ValatDouble:
    name = "valat-double"
    version = "1.0"

    @hookimpl(wrapper=True)
    def tarock_premiums(self, state: HandState) -> Generator[None, Sequence[Premium] | None, list[Premium]]:
        premiums = yield
        return [replace(p, value=2 * p.value) if p.name == "valat" else p for p in premiums or ()]


PLUGIN = ValatDouble
