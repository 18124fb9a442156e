"""Bids, holds and calls judged by their expected settlement.

The search levels decide the auction (:data:`BIDDING`; the budgets:
:mod:`client.bots.levels`) by playing each choice on in worlds sampled
from the seat's observation (:func:`client.bots.plans.search_action`): the
rest of the auction and every decision outside card play by the rule of
thumb for every seat, the cards by the playout player (or the rule of
thumb), the finished hand settled by the table's own engine, so the
contract's goal, trump kind, talon, premiums and Kontra count as the table
counts them, whatever plugin added the contract.  The rule of thumb is the
prior twice over:

- only the choices it does not rule out badly are tried
  (:func:`candidates`): no bid of a contract the hand makes less than
  :data:`~client.bots.contract_odds.PRIOR_FLOOR` of the time by the
  contract's data (:mod:`client.bots.contract_odds`), and of the actions
  that announce premiums only those with at most one; where a table offers
  announcements and Kontras among the bids (an open auction such as
  docs/rules.md §14.3's) they are tried as on a turn of their own
  (:func:`client.bots.announce_judgement.worth_trying`): a Kontra on the
  game only where the rule of thumb says it;
- the rule of thumb's own choice stays unless another beats it by
  ``PlanBudget.confidence`` standard errors of the paired differences.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock.client.bots import announce_judgement, contract_odds
from tarock.client.bots.plans import shortlist
from tarock.client.bots.table import table_facts
from tarock.core.actions import Action, Bid, Join
from tarock.core.contracts import ContractSpec
from tarock.core.observation import Observation

BIDDING: frozenset[str] = frozenset({Bid.type, "call", Join.type})
"""The auction's decisions (action type tags): a bid or a hold, a call, a "bei"."""


def candidates(obs: Observation, legal: Sequence[Action], default: Action,
               open_cards: bool = False) -> list[Action]:
    """The choices of ``legal`` worth simulating (module docstring); ``default`` always.
    With ``open_cards`` (the simulations' cards played seeing every hand) no
    other bid that lays the hand open, announces a premium, is a contract
    whose declarer must hold certain cards (a bird to announce) or finds a
    partner by a call: such playouts cannot see what an open hand costs, play
    for no premium and let a called partner play as if he knew from the
    first card, so they overrate these (in ``koenigrufen-ooe`` self-play a
    Besserrufer so chosen won 4 of 11, a Solorufer 2 of 7)."""
    rules = table_facts(obs).rules
    kept: list[Action] = []
    for action in shortlist(obs, legal, default):
        if action != default:
            if not announce_judgement.worth_trying(obs, action, open_cards):
                continue
            if isinstance(action, (Bid, Join)):
                spec = rules.contract(action.contract)
                if spec is not None and (not contract_odds.sane(spec, obs.hand, contract_odds.PRIOR_FLOOR)
                                         or (open_cards and _priced_blind(action, spec))):
                    continue
        kept.append(action)
    return kept


def _priced_blind(action: Bid | Join, spec: ContractSpec) -> bool:
    """Whether open-card playouts misprice ``action`` (see :func:`candidates`)."""
    announces = isinstance(action, Bid) and bool(action.announce)
    called = spec.partnership == "called"
    return spec.ouvert or announces or called or any(h.at_least > 0 for h in spec.requires)


def underrated(obs: Observation, action: Action) -> bool:
    """Whether open-card playouts underrate ``action``: a bid of a contract
    its declarer plays alone against the rest.  Three defenders who see every
    card defend as no table does: in one 40-card hand the rule of thumb's suit
    game lost 15 of 16 such playouts and won 11 of 16 played by the rule of
    thumb's cards (docs/bots.md, "medium's auction search in the 40-card game")."""
    if not isinstance(action, Bid):
        return False
    spec = table_facts(obs).rules.contract(action.contract)
    return spec is not None and spec.partnership == "alone"


def doubtful(obs: Observation, action: Action) -> bool:
    """Whether ``action`` bids (or joins) a contract the hand makes less than
    :data:`~client.bots.contract_odds.SANE` of the time by its data: where the
    sampled worlds and the prior disagree, the worlds must say so twice
    (``PlanBudget.confirm``; docs/bots.md has the games such bids lost))."""
    if not isinstance(action, (Bid, Join)):
        return False
    spec = table_facts(obs).rules.contract(action.contract)
    return spec is not None and not contract_odds.sane(spec, obs.hand, contract_odds.SANE)
