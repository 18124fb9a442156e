"""One attempt at a hand's deal, and the hand played on it, as one node follows them.

A hand is dealt once, or again after a redeal: each attempt has its own dealer
(the dealing scheme's state), its virtual deal once the deal is fixed
(:class:`~net.virtual.VirtualHand`), and the steps, readies and acts of the log
that belong to it.  :class:`Attempt` holds that state and answers what the
hand-play state machine (:mod:`net.handplay`) asks of it: who owes a step, who
sees which position, whether every share a step needs is in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock.core.cards import Card
from tarock.net.dealing import HOST, DealContext, Dealer, Layout
from tarock.net.handlog import Author, Entry, HandFault, who
from tarock.net.virtual import VirtualHand


@dataclass
class Attempt:
    """The state of one attempt (``seats``: the table's)."""

    ctx: DealContext
    layout: Layout
    dealer: Dealer
    seats: int
    virtual: VirtualHand | None = None
    steps: dict[int, dict[Author, Entry]] = field(default_factory=dict)
    share_log: list[tuple[Author, int, int, str]] = field(default_factory=list)
    """(author, position, step, kind) of every share, in log order."""
    acts: list[Entry] = field(default_factory=list)
    expected: dict[int, frozenset[Author]] = field(default_factory=dict)
    """Step -> the contributors that owe it an entry, fixed when the step opens."""
    readies: dict[int, Entry] = field(default_factory=dict)
    redeals: dict[int, str] = field(default_factory=dict)
    unknown_before: set[int] = field(default_factory=set)
    """The positions nobody could read at the last act."""
    fixed_at: int | None = None
    """The log index at which the deal was fixed."""
    ready_owed: bool = False
    """This seat would say ready but its private cards have not come yet."""
    facts: list[tuple[Author, int, dict[str, Any]]] = field(default_factory=list)

    def copy(self) -> Attempt:
        """A copy whose state no later entry changes, but the virtual deal's (which keeps
        its own: :meth:`VirtualHand.save`)."""
        return dataclasses.replace(
            self, dealer=self.dealer.copy(), steps={k: dict(v) for k, v in self.steps.items()},
            share_log=list(self.share_log), acts=list(self.acts), expected=dict(self.expected),
            readies=dict(self.readies), redeals=dict(self.redeals), unknown_before=set(self.unknown_before),
            facts=list(self.facts))

    # -- who contributes ---------------------------------------------------------------
    @property
    def contributors(self) -> tuple[Author, ...]:
        return self.dealer.contributors()

    def expected_steps(self, k: int) -> set[Author]:
        owed = self.expected.get(k)
        if owed is not None:
            return set(owed)
        actor = self.acts[k - 1].author if k >= 1 else None
        return {a for a in self.contributors if a != actor}

    def step_complete(self, k: int) -> bool:
        return self.expected_steps(k) <= set(self.steps.get(k, {}))

    def open_step(self, k: int, before: Mapping[int, frozenset[int]] | None = None) -> None:
        """Fix who owes step ``k`` (docs/protocol.md, "The order of a hand"): every
        contributor but the actor, and the declarer of a contract that calls a card until it
        told the card (in every scheme: a card the rules call from its hand becomes public
        when it is called, and only the declarer can tell it; commit-reveal's seats are no
        contributors, so without this step they would tell it only with their next act,
        after others acted on a wrong card).  With public shares (mental poker), after a
        card played (``before``: what each seat saw before it) only one that has a share to
        give of a position the play showed, or that declarer, owes the step.  Every node
        decides this alike: the shares are in the log, what a play shows (the card, and
        what the rules show with it) does not hang on hidden cards, and the contract and
        its declarer are public.  After any other action every contributor but the actor
        owes the step: what it shows may hang on a hidden card (a discard the rules show if
        it is a tarock), so only the card's holder knows whether to give a share."""
        actor = self.acts[k - 1].author if k >= 1 else None
        everyone = {a for a in self.contributors if a != actor}
        teller = self.teller()
        if teller == actor:
            teller = None
        if before is None or not self.dealer.public_shares or self.virtual is None:
            self.expected[k] = frozenset(everyone | ({teller} if teller is not None else set()))
            return
        visible = self.virtual.visible_all()
        owing: set[Author] = {teller} if teller is not None else set()
        for c in everyone:
            new = {p for s, ps in visible.items() if s != c for p in ps - before.get(s, frozenset())}
            if any(c not in self.dealer.shared(p) for p in new):
                owing.add(c)
        self.expected[k] = frozenset(owing)

    def teller(self) -> int | None:
        """The declarer of a contract that calls a card, until it told the card (public: the
        contract and its declarer follow from the actions alone)."""
        if self.virtual is None:
            return None
        state = self.virtual.hand.state
        if state.contract is None or state.contract.spec.call is None or state.declarer is None \
                or state.declarer in self.virtual.called:
            return None
        return state.declarer

    # -- shares --------------------------------------------------------------------------
    def readable_by_someone(self, among: Iterable[int] | None = None) -> set[int]:
        """The positions (of ``among``, default all) that some seat can read with the shares so far."""
        contributors = set(self.contributors)
        out: set[int] = set()
        for p in range(len(self.layout.deck)) if among is None else among:
            shared = self.dealer.shared(p)
            if any(contributors - {s} <= shared for s in range(self.seats)):
                out.add(p)
        return out

    def take(self, author: Author, share: Any, k: int, kind: str) -> None:
        if share is None:
            return
        learned, covered = self.dealer.take(author, share)
        for p in sorted(covered):
            self.share_log.append((author, p, k, kind))
        if self.virtual is not None:
            self.virtual.learn(learned)

    def vouch(self, author: Author, facts: Any, k: int) -> None:
        if facts is None or facts == {}:
            return
        if not isinstance(facts, Mapping) or author == HOST or self.virtual is None:
            raise HandFault(f"{who(author)} told facts it cannot tell", author)
        self.virtual.vouch(author, facts)
        self.facts.append((author, k, dict(facts)))

    def check_shown(self) -> None:
        """Positions nobody could read before must now be readable by every seat that sees
        them: HandFault names a seat that withheld its share."""
        if not self.dealer.public_shares or self.virtual is None:
            return
        contributors = set(self.contributors)
        for s, positions in sorted(self.virtual.visible_all().items()):
            for p in sorted(positions & self.unknown_before):
                missing = sorted(contributors - {s} - self.dealer.shared(p))
                if missing:
                    raise HandFault(f"{who(missing[0])} did not show position {p} to seat {s}", missing[0])

    # -- the deal --------------------------------------------------------------------------
    def hand_of(self, seat: int) -> list[Card] | None:
        """``seat``'s dealt cards, if this node knows them all."""
        assert self.virtual is not None
        known = self.virtual.known
        where = self.layout.hands[seat]
        if any(p not in known for p in where):
            return None
        return [known[p] for p in where]

    def redeal_reason(self, seat: int, cards: Sequence[Card]) -> str | None:
        if self.layout.redeal is None:
            return None
        hands = [list(cards) if s == seat else [] for s in range(self.seats)]
        return self.layout.redeal(hands)
