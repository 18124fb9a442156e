"""What the full-screen client knows of its table: the seat's view, what is
chosen and shown, and what the player may count.

:class:`TableState` holds the fields :class:`client.ui.model.TableModel`
works on; the card and dialog controls (:mod:`client.ui.hand_controls`,
:mod:`client.ui.dialog_controls`) change them, the layout reads them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from tarock.client.i18n import _
from tarock.client.text.rule_words import cards_points
from tarock.client.ui.cards import hand_order
from tarock.client.ui.decisions import Decision
from tarock.client.ui.hint import Hint, HintFn
from tarock.core.actions import Action, Discard
from tarock.core.cards import Card
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation, TrickView
from tarock.core.options import Declared
from tarock.core.state import Reason
from tarock.core.table import Standing

Overlay = Literal["menu", "sheet", "last", "tricks", "rules", "help", "settlement", "standings", "quit"]
WhyNot = Callable[[Action], Reason | None]
LOG_SIZE = 8
"""The lines the log pane shows at most; the log itself keeps the whole hand."""


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """One round on the score sheet, with who declared and who was the partner."""

    number: int
    dealer: int
    declarer: int | None
    partners: tuple[int, ...]
    game: str
    settlement: tuple[int, ...]
    totals: tuple[int, ...]
    factor: int = 1


@dataclass
class Stage:
    """Where the player is within a dialog: choosing an option, or ticking its additions."""

    option: int = 0
    additions: bool = False
    row: int = 0
    chosen: frozenset[str] = frozenset()



@dataclass
class TableState:
    """See the module docstring."""

    seat: int
    names: list[str]
    title: str = ""
    rounds: int = 12
    hint_fn: HintFn | None = None
    hint_strength: str = "heuristic"
    option_specs: Mapping[str, Declared] = field(default_factory=dict)
    """The table's options with their descriptions (for the rules page)."""
    on_change: Callable[[], None] = lambda: None
    round: int = 0
    deal_no: int = 1
    obs: Observation | None = None
    settled: Observation | None = None
    """The last finished hand, as the settlement shows it (a network table may deal the next meanwhile)."""
    log: list[str] = field(default_factory=list)
    """The hand's events; the first line says who deals and leads (the pane keeps it in view)."""
    log_back: int = 0
    """How many lines the log pane is scrolled back from the newest (PgUp/PgDn)."""
    decision: Decision | None = None
    why_not: WhyNot | None = None
    lifted: Card | None = None
    cursor: int = 0
    chosen: set[Card] = field(default_factory=set)
    stage: Stage = field(default_factory=Stage)
    message: str = ""
    overlay: Overlay | None = None
    overlay_after: list[Overlay] = field(default_factory=list)
    """What shows, in turn, once the overlay shown now is closed (a settlement that came while the
    player was asked whether to leave, the standings after the last settlement)."""
    settlement: list[str] = field(default_factory=list)
    sheet: list[RoundInfo] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    over: bool = False
    left_early: bool = False
    network: bool = False
    """A table over the network (leaving it is not ending it; no undo)."""
    can_undo: Callable[[], bool] = lambda: False
    """Whether the player's last action may be taken back now (a local table against bots)."""
    watching: bool = False
    """Following a table without a seat (public information only)."""
    hint: Hint | None = None
    menu_index: int = 0
    scroll: int = 0
    _answer: asyncio.Future[Action] | None = None
    _continue: asyncio.Future[None] | None = None
    _phase: str = ""

    # -- what the table tells ----------------------------------------------------------
    @property
    def rules(self) -> RuleFacts | None:
        return self.obs.rules if self.obs is not None else None

    def changed(self) -> None:
        self.on_change()

    def _seats(self, obs: Observation) -> None:
        """Names for every seat of ``obs`` (a network seat may see a hand before the roster)."""
        while len(self.names) < obs.seats:
            self.names.append(_("Seat {n}").format(n=len(self.names) + 1))

    def choose(self, action: Action) -> None:
        """The player's choice: it must be one of the legal actions."""
        obs = self.obs
        if self._answer is None or self._answer.done() or obs is None:
            return
        if action not in obs.legal and not (
            isinstance(action, Discard)
            and any(isinstance(a, Discard) and sorted(a.cards) == sorted(action.cards) for a in obs.legal)
        ):
            self.message = _("That is not allowed now.")
            self.changed()
            return
        self.decision = None
        self.lifted = None
        self.chosen = set()
        self.message = ""
        self.hint = None
        answer, self._answer = self._answer, None
        answer.set_result(action)
        self.changed()

    @property
    def waiting(self) -> bool:
        """Whether the player is asked something now."""
        return self._answer is not None and not self._answer.done() and self.decision is not None

    # -- the hand ------------------------------------------------------------------------
    def hand(self) -> list[Card]:
        """The seat's cards in display order (the game's trumps first)."""
        obs = self.obs
        if obs is None:
            return []
        contract = obs.contract
        tricks = contract.spec.tricks if contract is not None else None
        suit = contract.suit if contract is not None else None
        return hand_order(obs.hand, tricks, suit)

    def playable(self, card: Card) -> bool:
        d = self.decision
        return d is not None and d.kind == "play" and card in d.playable

    def _first_cursor(self) -> int:
        return 0

    # -- what is counted ---------------------------------------------------------------------
    def own_tricks(self) -> list[TrickView]:
        obs = self.obs
        return [t for t in obs.tricks if t.winner == self.seat] if obs is not None else []

    def party(self) -> tuple[int, ...]:
        """The seats this seat knows to play with: the partner once known, the
        other opponents of a lone declarer; nobody where each plays for himself."""
        obs = self.obs
        if obs is None or obs.declarer is None or obs.contract is None:
            return ()
        me, spec = self.seat, obs.contract.spec
        active = obs.active or tuple(range(obs.seats))
        if spec.partnership == "each" or len(obs.contract.declarers) > 1:
            return ()
        if spec.partnership == "alone":
            return () if me == obs.declarer else tuple(s for s in active if s not in (me, obs.declarer))
        if obs.partner is None:
            return ()
        side = {obs.declarer, obs.partner}
        if me in side:
            return tuple(s for s in sorted(side) if s != me)
        return tuple(s for s in active if s not in side and s != me)

    def partner_tricks(self) -> list[TrickView]:
        obs, party = self.obs, self.party()
        if obs is None or not party:
            return []
        return [t for t in obs.tricks if t.winner in party]

    def points(self) -> Fraction:
        """Card points of this seat's tricks and the known partner's (what a player may count)."""
        cards: list[Card] = [c for t in (*self.own_tricks(), *self.partner_tricks()) for c in t.cards]
        return cards_points(cards, self.rules)

    def last_trick(self) -> TrickView | None:
        obs = self.obs
        return obs.tricks[-1] if obs is not None and obs.tricks else None

    def shown_trick(self) -> tuple[TrickView | None, bool]:
        """The trick for the middle of the table: the one being played, or
        (before the next lead) the last one, marked as done."""
        obs = self.obs
        if obs is None:
            return None, False
        if obs.trick is not None and obs.trick.cards:
            return obs.trick, False
        if obs.tricks and obs.result is None:
            return obs.tricks[-1], True
        return None, False

    def opponents(self) -> Sequence[int]:
        obs = self.obs
        seats = obs.seats if obs is not None else len(self.names)
        return [(self.seat + k) % seats for k in range(1, seats)]
