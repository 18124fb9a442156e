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

from tarock.core.actions import Play
from tarock.core.cards import Card
from tarock.net.dealing import HOST, DealContext, Dealer, Layout, RandomBytes
from tarock.net.handlog import Author, Entry, HandFault, who
from tarock.net.protocol.messages import Act, Step
from tarock.net.virtual import VirtualHand, refs


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
        # Entries go to the step of the current action only (a step's number is the number of
        # acts so far), so the steps before it are complete and are shared, not copied.
        k = len(self.acts)
        steps = {i: dict(v) if i >= k else v for i, v in self.steps.items()}
        return dataclasses.replace(
            self, dealer=self.dealer.copy(), steps=steps,
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

    def waiting(self, to_move: int | None) -> tuple[list[Author], bool]:
        """Whose entry the attempt waits for (the hand not over), and whether it is a player's
        decision (``to_move``: the seat to move, None when it is nobody's turn)."""
        if not self.dealer.fixed:
            return list(self.dealer.waiting()), False
        k = len(self.acts)
        if not self.step_complete(k):
            return sorted(self.expected_steps(k) - set(self.steps.get(k, {}))), False
        if len(self.readies) < self.seats:
            return [s for s in range(self.seats) if s not in self.readies], False
        return ([to_move] if to_move is not None else []), True

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

    def learn_cards(self, author: Author, payload: Mapping[str, Any]) -> bool:
        """This seat's private cards, sent by ``author``: whether the ready they held back is
        due now."""
        learned, _ = self.dealer.take(author, payload, public=False)
        if self.virtual is None:
            return False
        self.virtual.learn(learned)
        return self.ready_owed and self.step_complete(0) and not self.acts

    def step(self, entry: Entry, msg: Step, k: int) -> None:
        """The step ``k`` of ``entry`` (checked to be in order): its shares and facts."""
        self.take(entry.author, msg.share, k, "step")
        self.vouch(entry.author, msg.facts, k)
        self.steps.setdefault(k, {})[entry.author] = entry

    def act(self, entry: Entry, msg: Act, k: int) -> Mapping[int, frozenset[int]] | None:
        """The action ``k`` of ``entry`` (checked to be in order), with its shares and facts,
        played on the virtual deal; for a card played with public shares, what each seat saw
        before it (:meth:`open_step`)."""
        assert self.virtual is not None
        # Shares only accumulate: a position someone could read stays readable, so only the
        # positions nobody could read at the last act need asking again.
        self.unknown_before -= self.readable_by_someone(self.unknown_before)
        self.take(entry.author, msg.share, k + 1, "act")
        # What each seat saw before matters only for a card played, which names its position.
        before = self.virtual.visible_all() if self.dealer.public_shares and refs(msg.action) else None
        action = self.virtual.play_other(entry.author, msg.action)
        self.vouch(entry.author, msg.facts, k + 1)
        self.acts.append(entry)
        return before if isinstance(action, Play) else None

    @property
    def done(self) -> bool:
        """The hand played on this attempt is over."""
        return self.virtual is not None and self.virtual.hand.done

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
    def fix(self, index: int, virtual: VirtualHand) -> None:
        """The deal is fixed at log entry ``index``: the virtual deal follows it, step 0 opens."""
        self.fixed_at = index
        self.virtual = virtual
        self.unknown_before = set(range(len(self.layout.deck))) - self.readable_by_someone()
        self.open_step(0)

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

    def redeal(self, author: int, redeal: str, share: Any) -> None:
        """Seat ``author`` said ready: a redeal it claims, with its hand shown (``share``), must
        be one its hand calls for; HandFault if not."""
        if redeal:
            self.take(author, share, 0, "redeal")
            hand = self.hand_of(author)
            if hand is None:
                raise HandFault(f"seat {author} claims a redeal without showing its hand", author)
            if self.redeal_reason(author, hand) is None:
                raise HandFault(f"seat {author} claims a redeal its hand does not call for", author)
            self.redeals[author] = redeal
        elif share is not None:
            raise HandFault(f"seat {author} showed its hand without a redeal", author)


@dataclass
class Attempts:
    """How each attempt at one deal (``ctx``) starts for this node, and this node's dealing
    secrets of the attempts so far (at first those the store kept: a node that restarts deals
    with them again).  ``me``: this node's seat (None: the host, ``host`` True, or a watcher);
    ``checks``: its dealers verify every proof."""

    game: Any
    ctx: DealContext
    active: Sequence[int]
    me: int | None
    host: bool
    checks: bool
    rand: RandomBytes
    secrets: dict[int, Mapping[str, Any]]

    def copy(self) -> Attempts:
        """A copy whose secrets a later redeal does not change."""
        return dataclasses.replace(self, secrets=dict(self.secrets))

    def start(self, n: int = 1) -> Attempt:
        """Attempt ``n``, dealt by the game's scheme (with this node's secret of it, if kept)."""
        ctx = dataclasses.replace(self.ctx, attempt=n)
        layout: Layout = self.game.layout(self.active)
        dealer: Dealer = self.game.scheme.dealer(ctx, layout, self.me, host=self.host, rand=self.rand,
                                                 secret=self.secrets.get(n), checks=self.checks)
        return Attempt(ctx, layout, dealer, self.game.seats)

    def redeal(self, att: Attempt) -> Attempt:
        """The attempt after ``att``, whose secret is kept (HandFault after 1000 attempts)."""
        n = att.ctx.attempt
        if n >= 1000:
            raise HandFault("no acceptable deal in 1000 attempts", None)
        self.secrets[n] = att.dealer.secret()
        return self.start(n + 1)

    def secret(self, att: Attempt) -> dict[str, Any]:
        """This node's dealing secrets by attempt, ``att`` (the current one) included."""
        out = {str(a): v for a, v in self.secrets.items()}
        out[str(att.ctx.attempt)] = att.dealer.secret()
        return out
