"""TXT records (RFC 6763 section 6) and adverts: round trips, the RFC's rules, and random bytes."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarock.net.advert import (
    RESERVED_KEYS,
    Advert,
    AdvertError,
    Seen,
    advert_from_txt,
    advert_to_txt,
    new_boot_nonce,
)
from tarock.net.transport import PeerAddress
from tarock.net.txt import TxtError, decode_txt, encode_txt


def txt(*entries: bytes) -> bytes:
    return b"".join(bytes([len(e)]) + e for e in entries)


def make_advert(**changes: object) -> Advert:
    fields: dict[str, object] = dict(
        node_id="0123456789abcdef0123456789abcdef",
        kind="table",
        name="Stammtisch Grünau",
        table_id="t-42",
        variant="koenigrufen-club",
        rules_hash="ab" * 32,
        free_seats=2,
        protocol=(1, 3),
        boot=new_boot_nonce(),
        port=7654,
        rounds=8,
    )
    fields.update(changes)
    return Advert(**fields)  # type: ignore[arg-type]


def text_fields(advert: Advert) -> list[tuple[str, str | None]]:
    """The advert's TXT entries as text, to be changed and encoded again."""
    return [(k, None if v is None else v.decode()) for k, v in decode_txt(advert_to_txt(advert)).items()]


# -- the TXT codec -----------------------------------------------------------------------


def test_encode_keeps_order_and_writes_length_prefixed_strings() -> None:
    data = encode_txt([("txtvers", "1"), ("a", "x=y"), ("flag", None), ("e", "")])
    assert data == txt(b"txtvers=1", b"a=x=y", b"flag", b"e=")
    assert list(decode_txt(data).items()) == [("txtvers", b"1"), ("a", b"x=y"), ("flag", None), ("e", b"")]


def test_empty_record_is_one_zero_byte() -> None:
    assert encode_txt([]) == b"\x00"
    assert decode_txt(b"\x00") == {}
    assert decode_txt(b"") == {}


def test_rfc6763_rules_when_decoding() -> None:
    data = txt(b"Key=first", b"KEY=second", b"=novalue", b"", b"\xffbin=1", b"ok=\xff\x00")
    # 6.4: keys are case-insensitive and only the first occurrence counts;
    # a string with an empty key or a non-printable key is ignored; values are opaque bytes.
    assert decode_txt(data) == {"key": b"first", "ok": b"\xff\x00"}


def test_truncated_record_is_refused() -> None:
    with pytest.raises(TxtError, match="claims 9 bytes but only 3 remain"):
        decode_txt(b"\x09abc")


@pytest.mark.parametrize(
    ("items", "words"),
    [
        ([("", "x")], "must not be empty"),
        ([("abcdefghij", "x")], "longer than 9"),
        ([("a=b", "x")], "without '='"),
        ([("ä", "x")], "printable ASCII"),
        ([("a", "1"), ("A", "2")], "given twice"),
        ([("a", "x" * 254)], "more than 255"),
    ],
)
def test_encode_refuses(items: list[tuple[str, str | None]], words: str) -> None:
    with pytest.raises(TxtError, match=words):
        encode_txt(items)


@given(st.binary(max_size=600))
def test_decode_of_random_bytes_never_crashes(data: bytes) -> None:
    try:
        fields = decode_txt(data)
    except TxtError as exc:
        assert "claims" in str(exc)
    else:
        assert all(key == key.lower() and key and "=" not in key for key in fields)


# -- adverts ---------------------------------------------------------------------------


def test_advert_round_trip_with_txtvers_first() -> None:
    advert = make_advert(extra={"lang": "de"})
    data = advert_to_txt(advert)
    assert data.startswith(b"\x09txtvers=1")
    keys = list(decode_txt(data))
    assert keys[: len(RESERVED_KEYS)] == list(RESERVED_KEYS)
    assert advert_from_txt(data, port=7654) == advert


def test_waiting_node_advert_round_trip() -> None:
    advert = make_advert(kind="waiting", name="bot3", table_id="", free_seats=0)
    assert advert_from_txt(advert_to_txt(advert), port=advert.port) == advert


def test_unknown_keys_are_kept_as_extra_and_missing_rounds_defaults() -> None:
    fields = [(k, v) for k, v in text_fields(make_advert()) if k != "rounds"]
    data = encode_txt([*fields, ("future", "yes"), ("flag", None)])
    advert = advert_from_txt(data, port=1)
    assert advert.rounds == 12
    assert dict(advert.extra) == {"future": "yes"}


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("txtvers", "2", "unsupported txtvers"),
        ("txtvers", None, "has no value"),
        ("node", "XYZ", "node id"),
        ("kind", "lobby", "kind"),
        ("name", "", "name"),
        ("name", "tab\tname", "control characters"),
        ("table", "", "needs a table id"),
        ("variant", "no spaces", "variant"),
        ("rules", "nothex", "rules hash"),
        ("free", "-1", "not a plain decimal"),
        ("free", "99", "free seats"),
        ("free", "01", "not a plain decimal"),
        ("proto", "3-1", "protocol range"),
        ("proto", "one", "LOW-HIGH"),
        ("boot", "", "boot nonce"),
        ("rounds", "0", "rounds"),
    ],
)
def test_malformed_fields_are_refused_with_the_field_named(key: str, value: str | None, words: str) -> None:
    fields = dict(text_fields(make_advert()))
    fields[key] = value
    with pytest.raises(AdvertError, match=words):
        advert_from_txt(encode_txt(list(fields.items())), port=7654)


@pytest.mark.parametrize("key", [k for k in RESERVED_KEYS if k != "rounds"])
def test_missing_required_key_is_refused(key: str) -> None:
    fields = text_fields(make_advert())
    with pytest.raises(AdvertError, match=f"'{key}' is missing"):
        advert_from_txt(encode_txt([(k, v) for k, v in fields if k != key]), port=7654)


def test_non_utf8_value_is_refused() -> None:
    data = advert_to_txt(make_advert()).replace(b"name=Stammtisch", b"name=\xffStammtisc")
    with pytest.raises(AdvertError, match="'name' is not UTF-8"):
        advert_from_txt(data, port=7654)


def test_bad_port_and_bad_extra_are_refused() -> None:
    with pytest.raises(AdvertError, match="port"):
        advert_from_txt(advert_to_txt(make_advert()), port=0)
    with pytest.raises(AdvertError, match="own keys"):
        make_advert(extra={"node": "x"})
    with pytest.raises(AdvertError, match="lowercase"):
        make_advert(extra={"Lang": "x"})


def test_too_long_name_does_not_fit() -> None:
    with pytest.raises(AdvertError, match="longer than 64"):
        make_advert(name="x" * 65)
    with pytest.raises(AdvertError, match="does not fit"):
        advert_to_txt(make_advert(extra={"big": "x" * 300}))


def test_adverts_are_values() -> None:
    extra = {"lang": "de"}
    advert = make_advert(extra=extra)
    extra["lang"] = "en"
    assert advert.extra["lang"] == "de"
    assert hash(advert) == hash(dataclasses.replace(advert))
    seen = Seen(advert, ("192.0.2.1", "192.0.2.2"))
    assert seen.endpoints == (PeerAddress("192.0.2.1", 7654), PeerAddress("192.0.2.2", 7654))


printable = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"))
names = st.text(printable, min_size=1, max_size=40)
adverts = st.builds(
    make_advert,
    node_id=st.text("0123456789abcdef", min_size=8, max_size=64),
    kind=st.sampled_from(["table", "waiting"]),
    name=names.map(str.strip).filter(lambda n: n and n.isprintable()),
    free_seats=st.integers(0, 16),
    protocol=st.tuples(st.integers(0, 100), st.integers(0, 100)).map(lambda p: (min(p), max(p))),
    port=st.integers(1, 65535),
    rounds=st.integers(1, 10_000),
    extra=st.dictionaries(st.text("abcdefxyz-_", min_size=1, max_size=9), st.text(max_size=30), max_size=3),
)


@given(adverts)
def test_any_valid_advert_round_trips(advert: Advert) -> None:
    assert advert_from_txt(advert_to_txt(advert), port=advert.port) == advert


@given(st.binary(max_size=600), st.integers(0, 70000))
def test_random_bytes_give_an_advert_or_a_clean_refusal(data: bytes, port: int) -> None:
    try:
        advert_from_txt(data, port=port)
    except AdvertError as exc:
        assert str(exc)


@given(adverts, st.data())
def test_corrupted_adverts_give_an_advert_or_a_clean_refusal(advert: Advert, data: st.DataObject) -> None:
    raw = bytearray(advert_to_txt(advert))
    for _ in range(data.draw(st.integers(1, 8))):
        op = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        pos = data.draw(st.integers(0, len(raw)))
        if op == "flip" and pos < len(raw):
            raw[pos] = data.draw(st.integers(0, 255))
        elif op == "cut":
            del raw[pos : pos + data.draw(st.integers(1, 20))]
        else:
            raw[pos:pos] = data.draw(st.binary(min_size=1, max_size=20))
    try:
        decoded = advert_from_txt(bytes(raw), port=advert.port)
    except AdvertError as exc:
        assert str(exc)
    else:
        assert advert_from_txt(advert_to_txt(decoded), port=decoded.port) == decoded


@given(st.lists(st.tuples(st.text(max_size=12), st.one_of(st.none(), st.text(max_size=40))), max_size=15))
def test_records_built_from_random_pairs(pairs: list[tuple[str, str | None]]) -> None:
    raw = b"".join(
        bytes([len(e)]) + e
        for e in ((k.encode() if v is None else f"{k}={v}".encode())[:255] for k, v in pairs)
    )
    try:
        advert_from_txt(raw, port=7654)
    except AdvertError as exc:
        assert str(exc)


@pytest.mark.parametrize("private", [True, False])
def test_a_private_table_says_so_in_its_advert_and_its_info(private: bool) -> None:
    """The lobby marks a private table and asks for its PIN: the ``private`` extra key survives
    the TXT record (mDNS) and comes from the info answer too (``--to``, manual discovery)."""
    from tarock.net.lobby import PRIVATE, advert_of_info, is_private
    from tarock.net.protocol.messages import Info

    node = "0123456789abcdef0123456789abcdef"
    info = Info(1, 1, node, "Hilde", "table", "ab" * 16, "Hildes Tisch", "tarock54", {}, "c" * 64, 1, 3, 1,
                node, 4711, "b00t", private)
    advert = advert_of_info(info, 4711)
    assert is_private(advert) is private
    again = advert_from_txt(advert_to_txt(advert), port=4711)
    assert is_private(again) is private and (PRIVATE in again.extra) is private
    assert not is_private(make_advert(extra={PRIVATE: "0"}))
