"""An open auction: games, additions and Kontras in any order, until passes in a row.

docs/rules.md §14.3: "beginnend bei der Vorhand, reihum höhere Spiele an und/oder
Zusätze zum angesagten Spiel. Sobald drei Spieler nacheinander 'weiter'
gesagt haben (nur der Rufer muss zumindest einmal etwas ansagen), ist die
Lizitation beendet."  A generic mechanism over the table's contracts:

- the forehand (the round's Rufer) must open with a game: there is no pass-out;
- in his turn a player bids a higher game (with additions), adds to the game
  in play (``Announce``; ``against`` says the addition is for the declarer's
  opponents, "Gegen das Spiel", and must be set exactly then), raises a
  Kontra chain (``Kontra``: on the game, or on one addition), or passes;
- a higher game wipes the additions and Kontras of the one before; whoever
  agreed to the game in play (by passing, adding or a Kontra) may not bid a
  higher one over it;
- Kontra chains: the odd levels are said by the party the chain is not for,
  the even levels by its own party, up to the contract's Kontra limit;
- a player who acts for his side makes a secret partnership public;
- a Kontra duty (``tarock_kontra_duty``, the Pflichtkontra) leaves the bound
  player only a higher game or the Kontra on the game.

What may be added or raised beyond that is asked from
``tarock_announce_verdict`` and ``tarock_kontra_verdict``.  The game in play
is kept in the state as it stands (contract, declarer, announcements and
Kontra levels), so every observation shows it while the auction runs.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from tarock.core.actions import GAME, Action, Announce, Bid, Kontra, KontraTarget, Pass, kontra_on
from tarock.core.auction import bid_action, declare, game_refusal
from tarock.core.contracts import ContractSpec
from tarock.core.phases import BIDDING, Phase, kontra_action
from tarock.core.state import Announcement, HandState, Reason, first_reason

if TYPE_CHECKING:
    from tarock.core.rules import Rules

KEY = "open-auction"


@lru_cache(maxsize=4096)
def _addition(seat: int, names: tuple[str, ...], against: bool) -> Announce:
    """The addition as one value: the legal lists offer it turn after turn."""
    return Announce(seat, names, against)


class OpenAuction(Phase):
    """The open auction, ended by ``passes`` passes in a row (docs/rules.md §14.3: three)."""

    name = BIDDING

    def __init__(self, passes: int = 3) -> None:
        self.passes = passes

    def start(self, state: HandState, rules: Rules) -> None:
        state.data[KEY] = {"passes": 0, "agreed": []}
        state.to_move = state.forehand

    @staticmethod
    def info(state: HandState) -> dict[str, Any]:
        data: dict[str, Any] = state.data[KEY]
        return data

    # -- games ---------------------------------------------------------------
    def _game_refusal(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> Reason | None:
        current = state.contract.spec if state.contract is not None else None
        if current is not None and spec.rank <= current.rank:
            return Reason("bid-too-low", f"{spec.title} does not outbid {current.title}")
        return game_refusal(state, rules, seat, spec)

    def _with_bid(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> list[str]:
        out = []
        for name, premium in rules.premium_specs.items():
            if name in spec.premiums and name not in spec.announces and premium.announced:
                verdict = rules.announce_verdict(state, seat, name, spec)
                if verdict is None or verdict.allowed:
                    out.append(name)
        return out

    def _bids(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat in self.info(state)["agreed"]:
            return []
        out: list[Action] = []
        current = state.contract.spec.rank if state.contract is not None else None
        for spec in rules.contracts:
            if current is not None and spec.rank <= current:
                continue  # the refusal's first reason, without its sentence
            if self._game_refusal(state, rules, seat, spec) is not None:
                continue
            names = self._with_bid(state, rules, seat, spec)
            for k in range(len(names) + 1):
                out.extend(bid_action(seat, spec.name, combo) for combo in combinations(names, k))
        return out

    # -- additions -------------------------------------------------------------
    def _addition_refusal(self, state: HandState, rules: Rules, seat: int, name: str) -> Reason | None:
        assert state.contract is not None
        spec = state.contract.spec
        premium = rules.premium_specs.get(name)
        if premium is None or not premium.announced:
            known = [n for n, p in rules.premium_specs.items() if p.announced]
            return Reason("unknown-addition", f"{name!r} is no addition (only {', '.join(known)})")
        if any(a.name == name for a in state.announcements):
            return Reason("already-announced", f"{name} is already announced")
        if name not in spec.premiums:
            return Reason("not-with-this-game", f"{name} does not count in {spec.title}")
        verdict = rules.announce_verdict(state, seat, name, spec)
        if verdict is not None and not verdict.allowed:
            return verdict.reason or Reason("announce-not-allowed", f"{name} cannot be announced now")
        return None

    def _additions(self, state: HandState, rules: Rules, seat: int) -> list[str]:
        if state.contract is None:
            return []
        # _addition_refusal's questions in its order, the announcements looked at once
        spec = state.contract.spec
        said = {a.name for a in state.announcements}
        out = []
        for name, premium in rules.premium_specs.items():
            if premium.announced and name not in said and name in spec.premiums:
                verdict = rules.announce_verdict(state, seat, name, spec)
                if verdict is None or verdict.allowed:
                    out.append(name)
        return out

    # -- Kontra ----------------------------------------------------------------
    def kontra_refusal(self, state: HandState, rules: Rules, seat: int,
                       target: KontraTarget) -> Reason | None:
        """Why ``seat`` may not raise the chain ``target`` now (None: it may)."""
        assert state.contract is not None
        spec = state.contract.spec
        if spec.kontra == 0:
            return Reason("kontra-off", "this game is played without Kontra")
        party = state.declarer_party()
        if target.declarer is not None or target.answer is not None:
            return Reason("kontra-target", "Kontra the game or an addition by its name")
        if target.game:
            what, level, own = "the game", state.kontra_level, True
        else:
            ann = next((a for a in state.announcements if a.name == target.name), None)
            if ann is None:
                return Reason("no-such-announcement", f"{target.name!r} is not announced: nothing to Kontra")
            what, level, own = repr(target.name), ann.kontra, ann.seat in party
        verdict = rules.kontra_verdict(state, seat, target)
        if verdict is not None and not verdict.allowed:
            return verdict.reason or Reason("kontra-not-allowed", f"no Kontra on {what} now")
        if level >= spec.kontra:
            return Reason("kontra-max", f"the Kontra on {what} is at its highest level")
        if ((seat in party) == own) != (level % 2 == 1):
            who = "the other party" if level % 2 == 0 else "the party it is for"
            return Reason("kontra-wrong-party", f"the next Kontra on {what} is said by {who}")
        return None

    def _kontras(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if state.contract is None:
            return []
        spec = state.contract.spec
        if spec.kontra == 0:
            return []
        # kontra_refusal's conditions, the cheap ones first and the hook only where they
        # hold: the same list without a refusal's sentence per target
        party = state.declarer_party()
        mine = seat in party
        first: dict[str, tuple[int, bool]] = {}
        for a in state.announcements:
            first.setdefault(a.name, (a.kontra, a.seat in party))
        out: list[Action] = []
        for target, (level, own) in [(GAME, (state.kontra_level, True)),
                                     *((kontra_on(a.name), first[a.name]) for a in state.announcements)]:
            if level >= spec.kontra or (mine == own) != (level % 2 == 1):
                continue
            verdict = rules.kontra_verdict(state, seat, target)
            if verdict is None or verdict.allowed:
                out.append(kontra_action(seat, target))
        return out

    def _bound(self, state: HandState, rules: Rules, seat: int) -> bool:
        return (state.contract is not None and rules.kontra_duty(state, seat)
                and self.kontra_refusal(state, rules, seat, GAME) is None)

    # -- phase -------------------------------------------------------------
    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        bids = self._bids(state, rules, seat)
        if state.contract is None:
            return bids
        if self._bound(state, rules, seat):
            return [*bids, Kontra(seat, GAME)]
        out: list[Action] = [Pass(seat), *bids]
        names = self._additions(state, rules, seat)
        against = seat not in state.declarer_party()
        for k in range(1, len(names) + 1):
            out.extend(_addition(seat, combo, against) for combo in combinations(names, k))
        out.extend(self._kontras(state, rules, seat))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        seat = action.seat
        duty = Reason("pflichtkontra",
                      "the rules oblige you to say Kontra on the game (or bid a higher game)")
        if isinstance(action, Pass):
            if state.contract is None:
                return Reason("rufer-must-bid", "the Rufer must announce a game first")
            return duty if self._bound(state, rules, seat) else None
        if isinstance(action, Bid):
            spec = rules.contract(action.contract)
            if spec is None:
                return Reason("unknown-contract", f"there is no game {action.contract!r} "
                              f"(games: {', '.join(c.name for c in rules.contracts)})")
            if seat in self.info(state)["agreed"]:
                return Reason("already-agreed", "you agreed to the game in play: "
                              "only additions and Kontras are left to you")
            reason = self._game_refusal(state, rules, seat, spec)
            if reason is not None:
                return reason
            if len(set(action.announce)) != len(action.announce):
                return Reason("announced-twice", "each addition can be announced once")
            allowed = self._with_bid(state, rules, seat, spec)
            for name in action.announce:
                if name not in allowed:
                    verdict = rules.announce_verdict(state, seat, name, spec)
                    if verdict is not None and verdict.reason is not None:
                        return verdict.reason
                    return Reason("unknown-addition", f"{name!r} cannot be added to {spec.title}")
            return None
        if state.contract is None:
            return Reason("rufer-must-bid", "the Rufer must announce a game first")
        if not isinstance(action, Announce | Kontra):
            return Reason("wrong-phase", f"bid, add, kontra or pass now, not {action.describe()}")
        if self._bound(state, rules, seat) and not (isinstance(action, Kontra) and action.target.game):
            return duty
        if isinstance(action, Kontra):
            return self.kontra_refusal(state, rules, seat, action.target)
        if not action.announce:
            return Reason("nothing-announced", "name at least one addition")
        if len(set(action.announce)) != len(action.announce):
            return Reason("announced-twice", "each addition can be announced once")
        side = seat in state.declarer_party()
        if action.against == side:
            return Reason("wrong-side", "say 'gegen das Spiel' exactly when you play against the game")
        return first_reason(self._addition_refusal(state, rules, seat, name) for name in action.announce)

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = self.info(state)
        seat = action.seat
        if isinstance(action, Pass):
            info["passes"] += 1
            if seat not in info["agreed"]:
                info["agreed"].append(seat)
            if info["passes"] >= self.passes:
                state.to_move = None
                return
        else:
            info["passes"] = 0
            if isinstance(action, Bid):
                spec = rules.contract(action.contract)
                assert spec is not None
                declare(state, rules, spec, [seat], action.announce)
                state.kontra_level = 0
                info["agreed"] = [seat]
            else:
                if isinstance(action, Announce):
                    state.announcements.extend(Announcement(n, seat, action.against) for n in action.announce)
                elif isinstance(action, Kontra):
                    self._raise(state, action.target)
                if seat not in info["agreed"]:
                    info["agreed"].append(seat)
                if seat == state.partner:
                    state.partner_known = True
        state.to_move = state.next_seat(seat)

    @staticmethod
    def _raise(state: HandState, target: KontraTarget) -> None:
        if target.game:
            state.kontra_level += 1
            return
        state.announcements = [replace(a, kontra=a.kontra + 1) if a.name == target.name else a
                               for a in state.announcements]
