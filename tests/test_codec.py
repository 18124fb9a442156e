"""The type-hint codec (core/codec.py): typed values to plain data and back.

Records (JSON) and network frames (msgpack) carry plain data.  Every action
type of every variant, and the observations, results and table contexts of
random legal hands, must survive the trip to plain data, JSON text and
msgpack bytes unchanged.  Decoding anything else, random plain data or a
good value with one part spoiled, either gives a value or a RecordError
that names the place (``history[3].card``); it never raises anything else.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock.core.actions import GAME, Action, Bid, Kontra, KontraTarget, Play
from tarock.core.cards import CARD, DECK54
from tarock.core.codec import Codec, RecordError, check_plain
from tarock.core.context import TableContext
from tarock.core.deal import active_seats, deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.registry import available_variants, find_variant
from tarock.core.rules import Rules
from tarock.core.state import HandResult
from tarock.variants.koenigrufen.actions import TakeTalon

VARIANTS = ("tarock54", "tarock40", "tarock40-online", "koenigrufen-club", "koenigrufen-course")
SETTINGS = settings(max_examples=300, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@cache
def rules_of(variant: str) -> Rules:
    return find_variant(variant).rules()


def all_action_types() -> dict[str, type[Action]]:
    """Every action type of every installed variant, by its record tag."""
    out: dict[str, type[Action]] = {}
    for name in available_variants():
        out.update(rules_of(name).codec.actions)
    return out


CODEC = Codec(all_action_types().values())


def trips(value: object, hint: object, codec: Codec = CODEC, seats: int | None = None) -> Iterator[object]:
    """``value`` back from its plain form, from JSON text and from msgpack bytes."""
    plain = codec.encode(value, hint)
    assert check_plain(plain) == json.loads(json.dumps(plain))  # plain data only
    yield codec.decode(plain, hint, seats=seats)
    yield codec.decode(json.loads(json.dumps(plain, ensure_ascii=False)), hint, seats=seats)
    yield codec.decode(msgpack.unpackb(msgpack.packb(plain), strict_map_key=True), hint, seats=seats)


# -- values from type hints ------------------------------------------------------------------

NAMES = st.from_regex(r"[a-z][a-z0-9_-]{0,11}", fullmatch=True)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
TARGETS = st.one_of(st.just(GAME), NAMES.map(KontraTarget),
                    st.integers(0, 4).map(lambda s: KontraTarget(declarer=s)),
                    st.integers(0, 4).map(lambda s: KontraTarget(answer=s)))


def values(hint: object) -> st.SearchStrategy[Any]:
    """Random values of the type ``hint`` (the kinds action fields use)."""
    if typing.get_origin(hint) is typing.Annotated and CARD in hint.__metadata__:  # type: ignore[union-attr]
        return st.sampled_from(DECK54)
    if hint is KontraTarget:
        return TARGETS
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(0, 12)
    if hint is str:
        return TEXT
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(values(args[0]), max_size=4).map(tuple)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(values(a) for a in args))
    if hint is type(None):
        return st.none()
    raise AssertionError(f"no strategy for {hint!r}")


def actions_of(cls: type[Action], seats: int = 5) -> st.SearchStrategy[Action]:
    hints = typing.get_type_hints(cls, include_extras=True)
    fields = {f.name: values(hints[f.name]) for f in dataclasses.fields(cls) if f.init and f.name != "seat"}
    return st.builds(cls, seat=st.integers(0, seats - 1), **fields)


ANY_ACTION = st.one_of(*(actions_of(cls) for cls in all_action_types().values()))


def test_every_variant_action_type_is_known() -> None:
    """The core actions and those Königrufen adds (talon, give-up)."""
    assert {"pass", "call", "bid", "discard", "kontra", "trump", "play", "announce", "bei", "talon",
            "give-up"} <= set(all_action_types())


@SETTINGS
@given(action=ANY_ACTION)
def test_every_action_round_trips(action: Action) -> None:
    for again in trips(action, Action, seats=5):
        assert again == action and type(again) is type(action)
    record = CODEC.encode_action(action)
    assert record["type"] == action.type and record["seat"] == action.seat
    assert CODEC.decode_action(json.loads(json.dumps(record)), seats=5) == action


def test_record_forms_are_the_documented_ones() -> None:
    """docs/records.md: fields at their default are left out; cards by name; a Kontra target is
    its text form ("" the game, an announcement's name, "game@N", "re@N")."""
    assert CODEC.encode_action(Play(2, 0)) == {"seat": 2, "type": "play", "card": "I"}  # card 0: the Pagat
    assert CODEC.encode_action(TakeTalon(1, 0)) == {"seat": 1, "type": "talon", "pile": 0}
    assert CODEC.encode_action(Bid(1, "solo")) == {"seat": 1, "type": "bid", "contract": "solo"}
    assert CODEC.encode_action(Bid(1, "solo", ("trull",)))["announce"] == ["trull"]
    assert CODEC.encode_action(Kontra(0)) == {"seat": 0, "type": "kontra"}
    assert CODEC.encode_action(Kontra(0, KontraTarget("trull")))["target"] == "trull"
    assert CODEC.encode_action(Kontra(0, KontraTarget(declarer=2)))["target"] == "game@2"
    assert CODEC.encode_action(Kontra(0, KontraTarget(answer=3)))["target"] == "re@3"
    # the text form given to the constructor is parsed into the value
    assert Kontra(0, "game@2") == Kontra(0, KontraTarget(declarer=2))  # type: ignore[arg-type]
    raw = {"seat": 0, "type": "kontra", "target": "re@1"}
    assert CODEC.decode_action(raw) == Kontra(0, KontraTarget(answer=1))


def test_a_seat_beyond_the_table_is_refused_in_a_record() -> None:
    with pytest.raises(RecordError, match=r"needs a seat 0\.\.3, not 4"):
        CODEC.decode_action({"seat": 4, "type": "pass"}, seats=4)
    assert CODEC.decode_action({"seat": 4, "type": "pass"}, seats=5).seat == 4


# -- observations, results, contexts of random legal hands ------------------------------------------

def random_hands(variant: str, seed: int, seats: int = 4) -> Iterator[Hand]:
    """A hand of ``variant`` at a random point of its random legal play, and finished."""
    rules = rules_of(variant)
    rng = random.Random(seed)
    dealer = rng.randrange(seats)
    active = active_seats(seats, dealer, rules.players_per_hand)
    hand = Hand(rules, dealer, *deal(rules, rng, seats, active), seats=seats, active=active,
                context=TableContext(round=1 + seed % 7, dealer=dealer))
    stop = rng.randrange(60)
    while not hand.done:
        if len(hand.state.actions) == stop:
            yield hand
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(rng.choice(hand.legal(seat)))
    yield hand


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_and_results_round_trip(variant: str) -> None:
    codec = rules_of(variant).codec
    checked = 0
    for seed in range(12):
        for hand in random_hands(variant, seed):
            for seat in range(hand.state.seats):
                obs = observe(hand, seat)
                for again in trips(obs, Observation, codec, seats=hand.state.seats):
                    assert again == obs
                    checked += 1
            if hand.done:
                result = hand.state.result
                assert result is not None
                for again in trips(result, HandResult, codec):
                    assert again == result
                    assert again.items == result.items and again.settlement == result.settlement
    assert checked > 100


@pytest.mark.parametrize("variant", ["koenigrufen-club", "koenigrufen-course"])
def test_observations_of_a_table_of_five_round_trip(variant: str) -> None:
    """docs/rules.md §3.5: five at the table, the dealer sits out; seat 4 acts too."""
    codec = rules_of(variant).codec
    for seed in range(6):
        for hand in random_hands(variant, seed, seats=5):
            obs = observe(hand, 4)
            for again in trips(obs, Observation, codec):
                assert again == obs
            for again in trips(obs, Observation, codec, seats=5):
                assert again == obs


PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=12)


@SETTINGS
@given(round_=st.integers(1, 40), deal_=st.integers(1, 5), dealer=st.integers(0, 4), factor=st.integers(1, 4),
       raised=st.integers(0, 5), memory=st.dictionaries(NAMES, PLAIN, max_size=3))
def test_contexts_round_trip(round_: int, deal_: int, dealer: int, factor: int, raised: int,
                             memory: dict[str, Any]) -> None:
    context = TableContext(round_, deal_, dealer, factor, raised, memory)
    for again in trips(context, TableContext):
        assert again == context


def plugin_module(source: str) -> dict[str, Any]:
    """Run ``source`` as a module of its own, without this file's ``from __future__`` import."""
    name = "club_plugin_for_codec_test"
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, f"{name}.py", "exec", dont_inherit=True), module.__dict__)
    return module.__dict__


def test_a_plugins_action_needs_no_serialisation_and_no_future_import() -> None:
    """Issue 7: "action encoding derived from type hints, so a plugin's new action needs no
    hand-written serialisation and works without ``from __future__ import annotations``"."""
    namespace = plugin_module(  # as a club would write it: no future import, hints evaluated at once
        "from dataclasses import dataclass\n"
        "from typing import ClassVar\n"
        "from tarock.core.actions import Action, KontraTarget\n"
        "from tarock.core.cards import Card\n"
        "@dataclass(frozen=True, slots=True)\n"
        "class Swap(Action):\n"
        "    give: Card = 0\n"
        "    take: tuple[Card, ...] = ()\n"
        "    why: str | None = None\n"
        "    target: KontraTarget = KontraTarget()\n"
        "    type: ClassVar[str] = 'swap'\n")
    swap_cls = namespace["Swap"]
    codec = Codec([*rules_of("tarock54").codec.actions.values(), swap_cls])
    swap = swap_cls(1, 21, (0, 30), "club", KontraTarget("trull"))
    plain = codec.encode_action(swap)
    assert plain == {"seat": 1, "type": "swap", "give": "Sküs", "take": ["I", "sK"], "why": "club",
                     "target": "trull"}
    assert codec.decode_action(json.loads(json.dumps(plain))) == swap
    with pytest.raises(RecordError, match=r"^take\[1\]: 'cX' is not a card"):
        codec.decode_action({"seat": 1, "type": "swap", "take": ["I", "cX"]})


def test_two_action_types_with_one_tag_are_refused() -> None:
    namespace = plugin_module(
        "from dataclasses import dataclass\nfrom typing import ClassVar\n"
        "from tarock.core.actions import Action\n"
        "@dataclass(frozen=True, slots=True)\nclass Pass2(Action):\n    type: ClassVar[str] = 'pass'\n")
    with pytest.raises(TypeError, match=r"two action classes use the type tag 'pass'"):
        Codec([*CODEC.actions.values(), namespace["Pass2"]])


# -- refusing what is not a value -------------------------------------------------------------------

HINTS: dict[str, object] = {"action": Action, "observation": Observation, "result": HandResult,
                            "context": TableContext}


def decode_or_refuse(raw: object, hint: object) -> object | None:
    """Decode ``raw``; None when it is refused with a RecordError (anything else fails the test)."""
    try:
        return CODEC.decode(raw, hint)
    except RecordError as exc:
        assert str(exc)
        return None


@SETTINGS
@given(raw=PLAIN, kind=st.sampled_from(sorted(HINTS)))
def test_random_plain_data_is_decoded_or_refused_cleanly(raw: object, kind: str) -> None:
    decode_or_refuse(raw, HINTS[kind])


@SETTINGS
@given(action=ANY_ACTION, field=st.sampled_from(["seat", "type", "card", "cards", "contract", "announce",
                                                 "target", "against", "suit", "pile", "extra"]),
       junk=PLAIN)
def test_an_action_with_a_field_spoiled_is_refused_cleanly(action: Action, field: str, junk: object) -> None:
    raw = CODEC.encode_action(action)
    raw[field] = junk
    decoded = decode_or_refuse(raw, Action)
    if decoded is not None:
        assert isinstance(decoded, Action)


def leaves(plain: object, path: str = "") -> Iterator[tuple[str, Callable[[object], object]]]:
    """Every leaf of a plain value with its path in the codec's notation, and a
    function that returns a copy of the whole value with that leaf replaced."""
    if isinstance(plain, Mapping):
        for key, item in plain.items():
            sub = f"{path}.{key}" if path else key
            for where, put in leaves(item, sub):
                yield where, (lambda new, k=key, p=put: {**plain, k: p(new)})
    elif isinstance(plain, list):
        for i, item in enumerate(plain):
            for where, put in leaves(item, f"{path}[{i}]"):
                yield where, (lambda new, i=i, p=put: [*plain[:i], p(new), *plain[i + 1:]])
    else:
        yield path, lambda new: new


def spoiled(plain: object, rng: random.Random, count: int) -> Iterator[tuple[str, object]]:
    found = list(leaves(plain))
    for where, put in rng.sample(found, min(count, len(found))):
        yield where, put({"not": ["what", "belongs", "here"]})


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_spoiled_observation_is_refused_naming_the_place(variant: str) -> None:
    """A map where a card, a number, a word or a flag belongs: refused, and the message starts
    with the path of that place (``history[3].card``); where the hint allows any plain data
    (a contract's own facts, a house rule's memory) it is accepted."""
    codec = rules_of(variant).codec
    rng = random.Random(variant)
    refused = 0
    for seed in range(3):
        hand = next(random_hands(variant, seed))
        plain = codec.encode(observe(hand, seed % 4), Observation)
        for where, bad in spoiled(plain, rng, 60):
            try:
                codec.decode(bad, Observation)
            except RecordError as exc:
                # an action's type tag is named with the action ("history[2]: unknown action type")
                place = where.removesuffix(".type") if where.endswith(".type") else where
                assert str(exc).startswith(place), (where, str(exc))
                refused += 1
            else:
                assert ".extra." in where or ".memory." in where or ".options." in where, where
    assert refused > 100


def test_spoiled_results_name_the_place() -> None:
    codec = rules_of("koenigrufen-club").codec
    hand = list(random_hands("koenigrufen-club", 3))[-1]
    plain = codec.encode(hand.state.result, HandResult)
    for where, bad in spoiled(plain, random.Random(1), 40):
        with pytest.raises(RecordError) as err:
            codec.decode(bad, HandResult)
        assert str(err.value).startswith(where)


@pytest.mark.parametrize(("raw", "message"), [
    ({"seat": 0, "type": "play", "card": "hX"}, r"^card: 'hX' is not a card"),
    ({"seat": 0, "type": "play", "card": 3}, r"^card must be a card name, not 3"),
    ({"seat": 0, "type": "discard", "cards": ["I", 7]}, r"^cards\[1\] must be a card name"),
    ({"seat": 0, "type": "bid", "contract": "solo", "announce": "trull"}, r"^announce must be a list"),
    ({"seat": True, "type": "pass"}, r"^seat must be an integer, not True"),
    ({"seat": -1, "type": "pass"}, r"needs a seat 0\.\.3, not -1"),
    ({"seat": 0, "type": "kontra", "target": "game@x"}, r"^target: 'game@x' is no Kontra target"),
    ({"seat": 0, "type": "kontra", "target": 2}, r"^target: a Kontra target is a string"),
    ({"seat": 0, "type": "nonsense"}, r"unknown action type 'nonsense' \(known: .*bid"),
    ({"seat": 0, "type": "pass", "extra": 1}, r"action 'pass' has unknown fields: extra"),
    ({"type": "pass"}, r"action 'pass' lacks the field 'seat'"),
    ([0, "pass"], r"an action must be a map"),
])
def test_malformed_actions_say_what_and_where(raw: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        CODEC.decode_action(raw, seats=4)


def test_plain_data_only() -> None:
    assert check_plain({"a": [1, None, "x", 2.5, True]}) == {"a": [1, None, "x", 2.5, True]}
    with pytest.raises(RecordError, match=r"^a\[1\] is not plain data"):
        check_plain({"a": [1, object()]})
    with pytest.raises(RecordError, match="key that is not a string"):
        check_plain({1: 2})
    deep: list[Any] = []
    cur = deep
    for _ in range(40):
        cur.append([])
        cur = cur[0]
    with pytest.raises(RecordError, match="nested too deeply"):
        check_plain(deep)


def test_unknown_kinds_of_hint_are_a_programming_error() -> None:
    class Opaque:
        pass

    with pytest.raises(TypeError, match="cannot encode"):
        CODEC.encode(Opaque(), Opaque)
    with pytest.raises(TypeError, match="cannot decode"):
        CODEC.decode({}, Opaque)


def test_sequences_of_actions_keep_their_order() -> None:
    hand = list(random_hands("tarock54", 8))[-1]
    hint = tuple[Action, ...]
    plain: Sequence[object] = CODEC.encode(tuple(hand.state.actions), hint)
    assert CODEC.decode(plain, hint, seats=4) == tuple(hand.state.actions)
