"""A cheating node for tests/test_net_cheats.py: the real ``tarock`` command with one step altered.

``python tests/cheat_node.py KIND tarock-arguments...`` runs ``client.cli.main`` on the
arguments after changing what this node's :class:`net.handplay.HandPlay` sends, once, at
the first chance it gets (after that the node plays honestly, so the table can go on):

- ``not-held``: plays a card of another seat's hand (a position it was not dealt);
- ``twice``: plays again a card it played earlier in the hand;
- ``renege``: plays a card it holds that the rules forbid (follow suit, tarock, overtrump),
  which only the end-of-hand replay can find;
- ``bad-proof``: sends a reveal token whose Chaum-Pedersen proof does not hold;
- ``forged``: sends an entry in the name of another seat;
- ``replay``: sends again, byte for byte, the first entry it sent in this hand;
- ``refuse-open``: keeps its opening back at the hand's end;
- ``stall-deal``: never sends its shuffle of the deck;
- ``host-bad-begin``: as the host, signs every ``begin`` badly -- not once: every deal (a host
  whose entries no seat accepts, as when the seats cannot check its key).

Only the messages change; everything goes through the real protocol and the real program.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarock.core.actions import Action, Play
from tarock.core.engine import Hand
from tarock.net import handplay
from tarock.net.handplay import HandPlay, Out
from tarock.net.identity import signed_bytes
from tarock.net.protocol.messages import Act, Begin, Dealing, Inner, Opened, Signed, Step, dump, parse

KINDS = ("not-held", "twice", "renege", "bad-proof", "forged", "replay", "refuse-open", "stall-deal")
"""The cheats of a seat."""
HOST_KINDS = ("host-bad-begin",)
"""The cheats of a host."""
done = False
first: dict[tuple[int, int], Signed] = {}
"""(epoch, deal) -> the first entry this node signed in that hand (for ``replay``)."""


def _mine(play: HandPlay) -> bool:
    return play.me is not None and not play.is_host and play.signer is not None


def _played(play: HandPlay) -> list[str]:
    return [str(e.msg.action.get("card")) for e in play.acts
            if e.author == play.me and isinstance(e.msg, Act) and e.msg.action.get("type") == "play"]


def _alter(play: HandPlay, kind: str, body: Inner) -> Inner | None:
    """The changed body, or None when this body is not the one to change."""
    if isinstance(body, Act) and body.action.get("type") == "play":
        if kind == "not-held" and play.virtual is not None:
            other = (play.me + 1) % play.seats if play.me is not None else 0
            unknown = [p for p in play.layout.hands[other] if p not in play.virtual.known]
            if unknown:
                return Act(body.index, {**body.action, "card": f"#{unknown[0]}"}, body.share, body.facts)
        if kind == "twice" and _played(play):
            return Act(body.index, {**body.action, "card": _played(play)[0]}, None, body.facts)
    if kind == "bad-proof" and isinstance(body, Step | Act) and isinstance(body.share, dict):
        tokens = [list(t) for t in body.share.get("tokens", [])]
        if tokens and tokens[0][2] != tokens[0][3]:
            tokens[0][2], tokens[0][3] = tokens[0][3], tokens[0][2]  # c and z swapped: the proof fails
            share = {**body.share, "tokens": tokens}
            return Step(body.index, share, body.facts) if isinstance(body, Step) else \
                Act(body.index, body.action, share, body.facts)
    return None


def install(kind: str) -> None:
    if kind not in (*KINDS, *HOST_KINDS):
        raise SystemExit(f"unknown cheat {kind!r} (known: {', '.join((*KINDS, *HOST_KINDS))})")
    sign, flush, decide = HandPlay.sign, HandPlay.flush, HandPlay.decide

    def cheat_sign(self: HandPlay, body: Inner, to: int | None = None) -> Signed:
        global done
        if kind == "host-bad-begin" and self.is_host and isinstance(body, Begin):
            fields = dump(sign(self, body, to))
            fields["sig"] = ("0" if fields["sig"][0] != "0" else "1") + fields["sig"][1:]
            bad = parse(fields, "body")
            assert isinstance(bad, Signed)
            return bad
        if not _mine(self) or to is not None:
            return sign(self, body, to)
        hand = (self.ctx.epoch, self.ctx.deal)
        if not done:
            changed = _alter(self, kind, body)
            if changed is not None:
                done = True
                return sign(self, changed, to)
            if kind == "replay" and hand in first and isinstance(body, Act):
                done = True
                sign(self, body, to)  # its own chain moves on; the host is sent the old entry
                return first[hand]
            if kind == "forged" and isinstance(body, Act):
                done = True
                env = sign(self, body, to)
                other = (env.seat + 1) % self.seats if env.seat is not None else 0
                fields = dump(env)
                fields["author"], fields["seat"] = self.roster.seats[other].node, other
                assert self.signer is not None
                fields["sig"] = self.signer.sign(signed_bytes(fields))
                forged = parse(fields, "body")
                assert isinstance(forged, Signed)
                return forged
        env = sign(self, body, to)
        first.setdefault(hand, env)
        return env

    def cheat_flush(self: HandPlay) -> list[Out]:
        global done
        out = flush(self)
        if done or not _mine(self) or kind not in ("refuse-open", "stall-deal"):
            return out
        kept: list[Out] = []
        for o in out:
            msg = parse(o.env.body, "inner")
            if (kind == "refuse-open" and isinstance(msg, Opened)) or \
                    (kind == "stall-deal" and isinstance(msg, Dealing) and msg.payload.get("t") == "shuffle"):
                done = True
                continue
            kept.append(o)
        return kept

    def cheat_decide(self: HandPlay, index: int, action: Action) -> tuple[list[Out], str | None]:
        global done
        v = self.virtual
        if done or kind != "renege" or not isinstance(action, Play) or v is None or self.me is None:
            return decide(self, index, action)
        legal = set(v.observation().legal)
        held = list(v.hand.state.hands[self.me])
        wrong = [c for c in held if Play(seat=self.me, card=c) not in legal]
        if not wrong:
            return decide(self, index, action)
        checked = Hand.apply
        Hand.apply = Hand.apply_unchecked  # type: ignore[method-assign]
        try:
            result = decide(self, index, Play(seat=self.me, card=wrong[0]))
        finally:
            Hand.apply = checked  # type: ignore[method-assign]
        done = bool(result[0])
        return result

    HandPlay.sign = cheat_sign  # type: ignore[method-assign]
    HandPlay.flush = cheat_flush  # type: ignore[method-assign]
    HandPlay.decide = cheat_decide  # type: ignore[method-assign]
    assert handplay.HandPlay is HandPlay


def main(argv: list[str]) -> int:
    install(argv[0])
    from tarock.client.cli import main as tarock

    return tarock(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

