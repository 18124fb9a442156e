"""Broken: the hook method lacks @hookimpl, so pluggy would silently ignore it."""

from collections.abc import Mapping, Sequence
from typing import Any

from tarock.core.contracts import PremiumSpec


class Forgetful:
    name = "forgetful"
    version = "1.0"

    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Sequence[PremiumSpec]:
        return [PremiumSpec("valat", "Valat", silent=24)]


PLUGIN = Forgetful
