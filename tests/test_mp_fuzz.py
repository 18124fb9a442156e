"""Fuzzing the frame decoder and every handler of mental-poker dealing (hypothesis).

The inputs are random plain values and, mostly, real messages spoiled: a field
replaced, dropped, duplicated or swapped, a hex digit flipped, a point of the
group put where another belongs (tests/mp_fuzz_support.py).  They go to

* the frame decoder (``FrameReader`` in random pieces, ``decode_body``): only
  FrameError escapes, every value it lets through is one the layers above can
  hash (canonical JSON), and ``parse`` answers it with a message or MessageError;
* every handler of :class:`~net.mental_poker.MentalDealer` -- ``entry`` (keys,
  shuffles), ``take`` (tokens), ``open`` -- of the seats and of the host, at
  every point of an honest deal;
* :meth:`HandPlay.receive <net.handplay.HandPlay.receive>` of a seat and of the
  host with entries that carry a correct signature, chain and head (so they
  reach the handlers), and with spoiled envelopes, at points all along a real
  hand; and ``private``.

The properties: nothing but the documented error escapes (PayloadError,
DealingFault, HandFault, FrameError, MessageError); a rejected message changes
nothing (a fingerprint of the whole state, before and after; an entry that is
well signed and in its place but cheats may enter the log, marked as the cheat
that stops the hand, and change nothing else); a checking
dealer accepts a key or token only if it is its seat's own; every example
finishes within the hypothesis deadline (no hang).  The examples are
derandomized so CI sees the same ones every run; the coverage-guided search
is fuzz/fuzz_mental_poker.py.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mp_fuzz_support import (
    SEATS,
    clone_dealer,
    clone_play,
    dealer_stages,
    dealer_state,
    feed_dealer,
    feed_entry,
    forge,
    hand_stages,
    play_at,
    play_state,
)
from time_bound import bounded

from tarock.net import barnett_smart as bs
from tarock.net import group
from tarock.net.dealing import DealingFault, PayloadError
from tarock.net.group import Group
from tarock.net.handplay import HandFault
from tarock.net.identity import canonical_bytes
from tarock.net.mental_poker import GROUPS, MENTAL_POKER, MENTAL_POKER_ED25519
from tarock.net.proofs import prove_key
from tarock.net.protocol.frames import FrameError, FrameReader, decode_body, encode_frame
from tarock.net.protocol.messages import MessageError, dump, parse
from tarock.net.secp256k1 import SECP256K1

FUZZ = settings(max_examples=250, deadline=timedelta(seconds=5), derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    with bounded(300):
        dealer_stages()  # built once, outside every example's deadline
        hand_stages()
        yield


# -- values --------------------------------------------------------------------------------------

HEX = "0123456789abcdef"


def _points() -> list[str]:
    stages = dealer_stages()
    last = stages.states[-1][0]
    grp = last.grp
    order = "little" if grp is group.ED25519 else "big"
    out = [grp.generator.hex(), grp.identity.hex(), "ff" * 32, "00" * 32, "02" + "ff" * 32, "03" + "00" * 32,
           grp.order.to_bytes(32, order).hex(), (grp.order - 1).to_bytes(32, order).hex()]
    out += [y.hex() for y in last.keys.values()]
    out += [t.hex() for p in (0, 1, 40) for t in last.tokens[p].values()]
    out += [c.hex() for c in last.deck[3]]
    return out


strings = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=HEX, max_size=140),
    st.text(alphabet=HEX, min_size=64, max_size=64),
    st.text(alphabet=HEX, min_size=66, max_size=66),
    st.deferred(lambda: st.sampled_from(_points())),
)
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2 ** 63), max_value=2 ** 64 - 1),
                    st.floats(allow_nan=False, allow_infinity=False), strings)
KEYS = ["t", "y", "c", "z", "deck", "commit", "tokens", "secret", "seed", "index", "share", "facts", "action",
        "redeal", "opening", "payload", "culprit", "reason", "type", "seat", "card", "cards"]
plain = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5),
                     max_leaves=16)


def mutate(draw: Any, value: Any, depth: int = 0) -> Any:
    """``value`` with one spot spoiled (or, now and then, replaced outright)."""
    if depth > 6 or draw(st.integers(0, 9)) == 0:
        return draw(plain)
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value)))
        op = draw(st.sampled_from(["deeper", "drop", "replace", "add"]))
        out = dict(value)
        if op == "deeper":
            out[key] = mutate(draw, value[key], depth + 1)
        elif op == "drop":
            del out[key]
        elif op == "replace":
            out[key] = draw(plain)
        else:
            out[draw(st.sampled_from(KEYS))] = draw(plain)
        return out
    if isinstance(value, list | tuple) and value:
        items = list(value)
        i = draw(st.integers(0, len(items) - 1))
        op = draw(st.sampled_from(["deeper", "deeper", "drop", "dup", "swap", "cut"]))
        if op == "deeper":
            items[i] = mutate(draw, items[i], depth + 1)
        elif op == "drop":
            del items[i]
        elif op == "dup":
            items.insert(i, items[i])
        elif op == "swap":
            j = draw(st.integers(0, len(items) - 1))
            items[i], items[j] = items[j], items[i]
        else:
            items = items[:i]
        return items
    if isinstance(value, str) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return value[:i] + draw(st.sampled_from(HEX + "gX")) + value[i + 1:]
    if isinstance(value, int) and not isinstance(value, bool) and draw(st.booleans()):
        return value + draw(st.sampled_from([-1, 1, 2 ** 32, -(2 ** 32)]))
    return draw(strings) if isinstance(value, str) else draw(plain)


def hashable(value: object) -> bool:
    try:
        canonical_bytes(value)
    except (ValueError, TypeError):
        return False
    return True


# -- the frame decoder ----------------------------------------------------------------------------

def _frames() -> list[bytes]:
    envs = hand_stages().envs
    return [encode_frame(dump(envs[i])) for i in (0, 1, 5, 9, 12, 60, len(envs) - 1)]


def _check_reader(data: bytes, cuts: list[int]) -> None:
    reader = FrameReader()
    pos = 0
    try:
        for cut in [*cuts, len(data)]:
            piece, pos = data[pos:pos + cut], pos + cut
            for value in reader.feed(piece):
                assert hashable(value), f"the decoder let through a value nobody can hash: {value!r:.80}"
                with contextlib.suppress(MessageError):
                    parse(value)
    except FrameError:
        with pytest.raises(FrameError):
            reader.feed(b"\x00\x00\x00\x01\xc0")
    with contextlib.suppress(FrameError):
        decode_body(data[4:])


@FUZZ
@given(st.binary(max_size=400), st.lists(st.integers(1, 64), max_size=12))
def test_random_bytes_are_frames_or_frame_errors(data: bytes, cuts: list[int]) -> None:
    _check_reader(data, cuts)


@FUZZ
@given(st.data())
def test_spoiled_frames_of_a_real_hand_are_frames_or_frame_errors(data: st.DataObject) -> None:
    frame = bytearray(data.draw(st.sampled_from(_frames())))
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "truncate", "double"]))
        i = data.draw(st.integers(0, max(0, len(frame) - 1)))
        if op == "flip" and frame:
            frame[i] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "insert":
            frame[i:i] = data.draw(st.binary(min_size=1, max_size=9))
        elif op == "delete":
            del frame[i:i + data.draw(st.integers(1, 9))]
        elif op == "truncate":
            del frame[i:]
        else:
            frame.extend(bytes(frame))
    _check_reader(bytes(frame), data.draw(st.lists(st.integers(1, 300), max_size=4)))


def test_a_frame_with_a_float_that_json_cannot_hold_is_refused() -> None:
    """msgpack carries NaN and infinity, canonical JSON (every signature and log hash) does
    not: such a frame must be refused at the decoder, not crash the node that hashes it."""
    import msgpack

    for bad in (math.nan, math.inf, -math.inf):
        body = msgpack.packb({"t": "ping", "n": [1, {"x": bad}]})
        with pytest.raises(FrameError, match="finite"):
            decode_body(body)
    assert decode_body(msgpack.packb({"x": 1.5})) == {"x": 1.5}
    json.dumps(decode_body(msgpack.packb({"x": 1.5})), allow_nan=False)


def test_a_signed_body_that_is_no_map_is_a_message_error() -> None:
    """Found by the entry fuzzer: ``parse`` let the ValueError of a signed envelope's
    opaque ``body`` through, where every caller (net/hosting.py, net/node.py) expects
    MessageError -- one such frame from a peer crashed the node's link task."""
    good = dump(hand_stages().envs[0])
    bodies: list[object] = [-1, {}, {"t": 3}, [], "x"]
    for body in bodies:
        with pytest.raises(MessageError, match="body"):
            parse({**good, "body": body}, "body")
    assert parse(good, "body") == hand_stages().envs[0]


# -- the dealer's handlers ---------------------------------------------------------------------------

@FUZZ
@given(st.data())
def test_every_dealer_handler_refuses_or_takes_and_a_refusal_changes_nothing(data: st.DataObject) -> None:
    stages = dealer_stages()
    i = data.draw(st.integers(0, len(stages.messages) - 1), label="base message")
    handler, author, base = stages.messages[i]
    # Mostly the moment the message was due (where a spoiled one gets furthest), else any.
    k = data.draw(st.sampled_from([i, i, i, *range(len(stages.states))]), label="stage")
    who = data.draw(st.integers(0, SEATS), label="dealer (4: the host)")
    dealer = clone_dealer(stages.states[k][who])
    payload = mutate(data.draw, base) if data.draw(st.integers(0, 5)) else base
    author = data.draw(st.sampled_from([author, author, (author + 1) % SEATS, -1, SEATS, 7]), label="author")
    if not feed_dealer(dealer, handler, author, payload):
        return
    if dealer.checks:  # what a checking dealer took is its seat's own
        honest = stages.states[-1][0]
        for s, y in dealer.keys.items():
            assert y == honest.keys[s]
        if dealer.fixed:
            for p, by in dealer.tokens.items():
                for s, t in by.items():
                    assert t == bs.token(dealer.grp, stages.secrets[s], dealer.deck[p])


@FUZZ
@given(st.data())
def test_a_share_message_refused_at_any_of_its_shares_leaves_none_of_them_behind(data: st.DataObject) -> None:
    """A ``tokens`` message is refused as a whole: the shares before the bad one must not
    stay with the dealer (they came in a message that is not in the log)."""
    stages = dealer_stages()
    takes = [i for i, m in enumerate(stages.messages) if m[0] == "take"]
    i = data.draw(st.sampled_from(takes), label="message")
    _, author, base = stages.messages[i]
    who = data.draw(st.integers(0, SEATS), label="dealer (4: the host)")
    dealer = clone_dealer(stages.states[i][who])
    tokens = [list(t) for t in base["tokens"]]
    j = data.draw(st.integers(1, len(tokens) - 1), label="the bad share")
    spoil = data.draw(st.sampled_from(["token", "proof", "order", "twice", "point"]), label="spoiled")
    if spoil == "token" or (spoil == "point" and not dealer.checks):
        tokens[j][1] = tokens[j][1][:-1] + ("1" if tokens[j][1][-1] == "0" else "0")
    elif spoil == "proof":
        tokens[j][2] = tokens[j - 1][2]
    elif spoil == "order":
        tokens[j][0] = tokens[j - 1][0]
    elif spoil == "twice":
        tokens[j] = list(tokens[j - 1])
    else:
        tokens[j][1] = tokens[j - 1][1]  # a valid point, the share of another position
    before = dealer_state(dealer)
    try:
        dealer.take(author, {**base, "tokens": tokens})
    except (PayloadError, DealingFault):
        assert dealer_state(dealer) == before, "the shares before the bad one stayed"
        return
    assert not dealer.checks, "a checking dealer took a spoiled share"


# -- the hand's log ------------------------------------------------------------------------------------

def _points_of_the_hand() -> list[int]:
    envs = hand_stages().envs
    every = list(range(1, len(envs) + 1))
    kinds = [str(e.body.get("t")) for e in envs]
    firsts = [i + 1 for i, t in enumerate(kinds) if t != (kinds[i - 1] if i else "")]
    return sorted({1, 2, 5, 8, 9, 10, *firsts[:40], *every[-8:], *every[::17]})


ENVELOPE = st.one_of(
    st.just({}), st.just({}), st.just({}),
    st.fixed_dictionaries({"seq": st.integers(-1, 300)}),
    st.fixed_dictionaries({"prev": st.text(alphabet=HEX, max_size=64)}),
    st.fixed_dictionaries({"head": st.text(alphabet=HEX, max_size=64)}),
    st.fixed_dictionaries({"deal": st.integers(0, 3)}),
    st.fixed_dictionaries({"epoch": st.integers(0, 3)}),
    st.fixed_dictionaries({"table": st.sampled_from(["", "00" * 16, "f0" * 16])}),
    st.fixed_dictionaries({"to": st.sampled_from(["x", "00" * 16])}),
    st.fixed_dictionaries({"sig": st.text(alphabet=HEX, min_size=128, max_size=128)}),
)


@FUZZ
@given(st.data())
def test_every_entry_of_the_log_is_taken_or_refused_and_a_refusal_changes_nothing(
        data: st.DataObject) -> None:
    stages = hand_stages()
    k = data.draw(st.sampled_from(_points_of_the_hand()), label="entries already taken")
    play = play_at(k, host=data.draw(st.booleans(), label="the host's HandPlay"))
    due = list(stages.envs[k:k + 1]) or [stages.envs[-1]]
    base = data.draw(st.sampled_from([*due, *due, *due, *stages.envs[k + 1:k + 3], *stages.envs]),
                     label="base entry")
    body = mutate(data.draw, base.body) if data.draw(st.integers(0, 7)) else base.body
    if not hashable(body):
        body = base.body  # the frame decoder lets no such value through (tested above)
    seat = data.draw(st.sampled_from([base.seat, base.seat, None, 0, 1, 2, 3]), label="seat")
    change = data.draw(ENVELOPE, label="envelope change")
    try:
        env = forge(play, seat, body, **change)
    except MessageError:
        return  # an envelope the frame layer already refuses
    feed_entry(play, env)


@FUZZ
@given(st.data())
def test_a_private_message_is_refused_in_mental_poker_and_changes_nothing(data: st.DataObject) -> None:
    stages = hand_stages()
    k = data.draw(st.sampled_from(_points_of_the_hand()))
    play = play_at(k)
    base = data.draw(st.sampled_from(stages.envs))
    body = mutate(data.draw, base.body)
    if not hashable(body):
        body = base.body
    try:
        env = forge(play, data.draw(st.sampled_from([None, 0, 1, 3])), body,
                    to=data.draw(st.sampled_from(["", play.signer.node if play.signer else ""])))
    except MessageError:
        return
    before = play_state(play)
    with pytest.raises(HandFault):
        play.private(-1, env)
    assert play_state(play) == before


def _spoiled_acts() -> list[int]:
    envs = hand_stages().envs
    return [k for k, e in enumerate(envs) if e.body.get("t") in ("act", "step") and e.body.get("share")]


@FUZZ
@given(st.data())
def test_an_entry_refused_after_its_shares_are_read_changes_nothing(data: st.DataObject) -> None:
    """An act (or step) whose shares are good but whose action or facts are not is refused
    as a whole: no share of it stays with the dealer, the virtual deal or the share log."""
    stages = hand_stages()
    k = data.draw(st.sampled_from(_spoiled_acts()), label="entry")
    play = play_at(k, host=data.draw(st.booleans(), label="the host's HandPlay"))
    env = stages.envs[k]
    body = dict(env.body)
    seat = env.seat
    assert seat is not None
    spoil = data.draw(st.sampled_from(["foreign", "type", "seat", "facts", "called"]), label="spoiled")
    if body["t"] == "step" and spoil in ("foreign", "type", "seat"):
        spoil = "facts"
    if spoil == "foreign":
        other = data.draw(st.sampled_from([s for s in range(SEATS) if s != seat]))
        position = data.draw(st.sampled_from(play.layout.hands[other]))
        body["action"] = {k_: (f"#{position}" if isinstance(v, str) and v.startswith("#") else v)
                          for k_, v in body["action"].items()}
        if body["action"] == env.body["action"]:
            body["action"] = {**body["action"], "card": f"#{position}"}
    elif spoil == "type":
        body["action"] = {**body["action"], "type": "no-such-action"}
    elif spoil == "seat":
        body["action"] = {**body["action"], "seat": (seat + 1) % SEATS}
    elif spoil == "facts":
        body["facts"] = {"unknown": "fact"}
    else:
        body["facts"] = {"called": "XXI"}
    assert not feed_entry(play, forge(play, seat, body)), "a spoiled entry was taken"


def test_the_fuzzers_start_from_a_hand_that_plays_through() -> None:
    """The stages are real: replaying the whole log brings a fresh seat to the hand's end,
    and a copy of a stage is independent of it."""
    stages = hand_stages()
    end = play_at(len(stages.envs))
    assert end.opened and end.done_at is not None
    mid = play_at(20)
    copy_ = clone_play(mid)
    copy_.receive(stages.envs[20])
    assert play_state(mid) != play_state(copy_) and play_state(mid) == play_state(play_at(20))


_TORSION = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
"""A point of order 8 of edwards25519 (libsodium's list of small-order points)."""


def _off_curve() -> bytes:
    """``02 || x`` for the first ``x = 1, 2, ...`` with no point on secp256k1."""
    return next(c for c in (b"\x02" + x.to_bytes(32, "big") for x in range(1, 100)) if not SECP256K1.valid(c))


GROUP_REFUSES = "not a point of the prime-order group"
ENCODING_REFUSED = "must be 66 lowercase hex digits, starting 02 or 03"


def _bad_points() -> dict[tuple[str, str], tuple[bytes, str]]:
    """Points no group validation accepts, and what the refusal says."""
    outside = group.add(group.base((7).to_bytes(32, "little")), _TORSION)
    return {(MENTAL_POKER_ED25519, "of small order"): (_TORSION, GROUP_REFUSES),
            (MENTAL_POKER_ED25519, "outside the prime-order subgroup"): (outside, GROUP_REFUSES),
            (MENTAL_POKER_ED25519, "not canonical"): (bytes.fromhex("ed" + "ff" * 30 + "7f"), GROUP_REFUSES),
            (MENTAL_POKER, "not on the curve"): (_off_curve(), GROUP_REFUSES),
            (MENTAL_POKER, "x not below the field's prime"): (b"\x02" + b"\xff" * 32, GROUP_REFUSES),
            (MENTAL_POKER, "no compressed encoding"): (b"\x04" + SECP256K1.generator[1:], ENCODING_REFUSED),
            (MENTAL_POKER, "the neutral element"): (SECP256K1.identity, ENCODING_REFUSED)}


@pytest.mark.parametrize("dealing, kind", sorted(_bad_points()))
def test_a_token_that_is_no_point_of_the_group_is_refused_by_its_proof_and_named(dealing: str,
                                                                                 kind: str) -> None:
    """A seat validates a token through its proof's check (docs/protocol.md, section 9):
    the group's scalar multiplication refuses what its validation refuses (libsodium's
    crypto_core_ed25519_is_valid_point; secp256k1: on the curve), so a token that is no
    point of the group is refused, its author named, and nothing is kept."""
    grp = GROUPS[dealing]
    bad, said = _bad_points()[dealing, kind]
    assert not grp.valid(bad)
    with pytest.raises(group.GroupError):
        grp.mul(grp.reduce64(bytes([5]) + bytes(63)), bad)
    stages = dealer_stages(dealing)
    k = next(i for i, (handler, _, _) in enumerate(stages.messages) if handler == "take")
    _, author, payload = stages.messages[k]
    tokens = [list(t) for t in payload["tokens"]]
    tokens[0][1] = bad.hex()
    seat = next(s for s in range(SEATS) if s != author)
    dealer = clone_dealer(stages.states[k][seat])
    before = dealer_state(dealer)
    with pytest.raises(DealingFault) as found:
        dealer.take(author, {**payload, "tokens": tokens})
    assert found.value.seat == author and said in found.value.reason
    assert dealer_state(dealer) == before


@pytest.mark.parametrize("dealing", [MENTAL_POKER, MENTAL_POKER_ED25519])
def test_a_deck_point_that_is_no_point_of_the_group_is_refused_where_it_is_computed_with(
        dealing: str) -> None:
    """Seat s's deck is validated by seat s + 1, which shuffles it next, and the final deck
    by every seat (docs/protocol.md, section 9): each names the deck's author."""
    stages = dealer_stages(dealing)
    bad = _TORSION if dealing == MENTAL_POKER_ED25519 else _off_curve()
    shuffles = [i for i, (handler, _, payload) in enumerate(stages.messages)
                if handler == "entry" and payload.get("t") == "shuffle"]
    for k in (shuffles[0], shuffles[-1]):
        _, author, payload = stages.messages[k]
        deck = list(payload["deck"])
        deck[1] = bad.hex()
        users = [author + 1] if author + 1 < SEATS else [s for s in range(SEATS) if s != author]
        for seat in users:
            dealer = clone_dealer(stages.states[k][seat])
            before = dealer_state(dealer)
            with pytest.raises(DealingFault) as found:
                dealer.entry(author, {**payload, "deck": deck})
            assert found.value.seat == author and "not a point of the prime-order group" in found.value.reason
            assert dealer_state(dealer) == before


@pytest.mark.parametrize("dealing", [MENTAL_POKER, MENTAL_POKER_ED25519])
def test_an_opening_with_a_zero_secret_is_refused_and_named(dealing: str) -> None:
    """A secret of zero opens no key (every key is a point other than the neutral
    element): the opening is refused at once, naming its seat, and nothing is kept;
    with the honest opening the audit then passes (before, the audit's ``0·G`` raised)."""
    stages = dealer_stages(dealing)
    k = next(i for i, (handler, _, _) in enumerate(stages.messages) if handler == "open")
    _, author, payload = stages.messages[k]
    dealer = clone_dealer(stages.states[k][0])
    before = dealer_state(dealer)
    with pytest.raises(DealingFault) as found:
        dealer.open(author, {**payload, "secret": "00" * 32})
    assert found.value.seat == author and "zero" in found.value.reason
    assert dealer_state(dealer) == before
    for handler, who, body in stages.messages[k:]:
        if handler == "open":
            dealer.open(who, body)
    assert len(dealer.audit()) == len(stages.layout.deck)


@pytest.mark.parametrize("dealing", [MENTAL_POKER, MENTAL_POKER_ED25519])
def test_keys_that_sum_to_the_neutral_element_are_refused_and_named(dealing: str) -> None:
    """Seats that know all their secrets together could make the joint key the neutral
    element (every card would lie open); the last key that does so is refused at once,
    naming its seat, and nothing is kept."""
    stages = dealer_stages(dealing)
    grp = GROUPS[dealing]
    keys = [i for i, (handler, _, payload) in enumerate(stages.messages)
            if handler == "entry" and payload.get("t") == "key"]
    k = keys[-1]
    _, author, payload = stages.messages[k]
    seat = next(s for s in range(SEATS) if s != author)
    dealer = clone_dealer(stages.states[k][seat])
    others = sorted(dealer.keys)
    # The key minus the others' keys, with a valid proof: its secret is minus the sum of
    # the others' secrets (the test knows them all, as such a coalition would).
    secret = stages.secrets[others[0]]
    for s in others[1:]:
        secret = grp.s_add(secret, stages.secrets[s])
    x = grp.s_mul(secret, _minus_one(grp))
    y = grp.base(x)
    c, z = prove_key(grp, dealer._ctx(author), x, y, os.urandom)
    forged = {**payload, "y": y.hex(), "c": c.hex(), "z": z.hex()}
    before = dealer_state(dealer)
    with pytest.raises(DealingFault) as found:
        dealer.entry(author, forged)
    assert found.value.seat == author and "neutral element" in found.value.reason
    assert dealer_state(dealer) == before


def _minus_one(grp: Group) -> bytes:
    order = "little" if grp is group.ED25519 else "big"
    return (grp.order - 1).to_bytes(32, order)
