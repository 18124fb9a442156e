"""The dealing schemes by name: the one place that knows every implementation of
:class:`net.dealing.DealingScheme` (the interface knows none of them)."""

from __future__ import annotations

from tarock.net.commit_reveal import COMMIT_REVEAL, CommitReveal
from tarock.net.dealing import DealingScheme
from tarock.net.mental_poker import GROUPS, MentalPoker


def find_scheme(name: str) -> DealingScheme:
    """The scheme called ``name`` (:data:`net.dealing.SCHEMES`); ValueError naming the known ones."""
    schemes: dict[str, DealingScheme] = {group: MentalPoker(group) for group in GROUPS}
    schemes[COMMIT_REVEAL] = CommitReveal()
    scheme = schemes.get(name)
    if scheme is None:
        raise ValueError(f"unknown dealing scheme {name!r} (known: {', '.join(schemes)})")
    return scheme
