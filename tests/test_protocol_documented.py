"""docs/protocol.md documents every message, every field, the engine values and the test vectors."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from net_pump import CATALOGUE

from tarock.core.cards import format_card, parse_card
from tarock.net import barnett_smart as bs
from tarock.net import group
from tarock.net.commit_reveal import Stream, commitment, deal_from_seeds, deal_key, shuffle
from tarock.net.dealing import DealContext
from tarock.net.docgen import engine_values, field_format, messages, refresh
from tarock.net.game import Game
from tarock.net.identity import Identity, fingerprint
from tarock.net.protocol.frames import decode_body
from tarock.net.secp256k1 import SECP256K1
from tarock.tools.protocol_transcript import transcript

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
TEXT = DOC.read_text(encoding="utf-8")


def _sections() -> dict[str, str]:
    parts = re.split(r"^### `([^`]+)`\s*$", TEXT, flags=re.M)
    return {parts[i]: parts[i + 1].split("\n## ")[0] for i in range(1, len(parts), 2)}


def _documented() -> dict[str, type]:
    return messages()


def test_every_message_has_a_section() -> None:
    missing = sorted(set(_documented()) - set(_sections()))
    assert not missing, f"messages without a section in docs/protocol.md: {missing}"


def test_no_section_for_a_message_that_does_not_exist() -> None:
    stale = sorted(set(_sections()) - set(_documented()))
    assert not stale, f"docs/protocol.md documents messages that do not exist: {stale}"


def test_every_field_is_in_its_section_table() -> None:
    sections = _sections()
    for name, cls in _documented().items():
        rows = set(re.findall(r"^\| `(\w+)` \|", sections[name], flags=re.M))
        fields = {f.name for f in dataclasses.fields(cls)}
        assert fields <= rows, f"{name}: fields not documented: {sorted(fields - rows)}"
        assert rows <= fields, f"{name}: documented fields that do not exist: {sorted(rows - fields)}"


def test_every_field_type_is_the_one_the_code_gives() -> None:
    assert refresh(TEXT) == TEXT, "run `python -m tarock.net.docgen --write`"


_FORMS = {"32 hex digits (16 bytes)": r"[0-9a-f]{32}", "64 hex digits (32 bytes)": r"[0-9a-f]{64}",
          "128 hex digits (64 bytes)": r"[0-9a-f]{128}", "hex, at most 256 digits": r"(?:[0-9a-f]{2}){0,128}",
          "text, 1..40 printable characters": r"\S(?:.{0,38}\S)?", "text": r".*"}


def _matches(form: str, value: str) -> bool:
    if form.endswith(" or empty") and value == "":
        return True
    form = form.removesuffix(" or empty").removesuffix(",")
    return re.fullmatch(_FORMS[form], value) is not None


def _walk(section: str, value: object, found: list[tuple[str, str, str]]) -> None:
    """Every string field of every message inside ``value`` (a plain map), by section."""
    if isinstance(value, list):
        for item in value:
            _walk(section, item, found)
        return
    if not isinstance(value, dict):
        return
    tag = value.get("t")
    if isinstance(tag, str):
        section = f"commit-reveal/1 {tag}" if section == "dealing" else tag
    for name, item in value.items():
        if isinstance(item, str) and name != "t":
            found.append((section, name, item))
        elif isinstance(item, list) and item and all(isinstance(x, str) for x in item):
            found += [(section, name, x) for x in item]
        else:
            inner = {"table": "TableInfo", "roster": "SeatInfo", "payload": "dealing"}.get(name, section)
            _walk(inner, item, found)


def test_every_string_in_the_transcript_has_its_documented_form() -> None:
    parts = transcript()
    found: list[tuple[str, str, str]] = []
    for shot in (*parts.handshake, *parts.bodies, *parts.agreement):
        raw = shot.raw[4:] if shot.frame else shot.raw
        _walk("", decode_body(raw), found)
    checked = 0
    for section, name, value in found:
        form = field_format(section, name)
        if form is not None and section in messages():
            assert _matches(form, value), f"{section}.{name} = {value!r} is not {form}"
            checked += 1
    assert checked > 500


def test_engine_values_section_is_generated_from_the_code() -> None:
    found = re.search(r"<!-- engine-values.*?-->\n```\n(.*?)```\n<!-- end engine-values -->", TEXT, re.S)
    assert found is not None
    assert found.group(1) == engine_values() + "\n", (
        "run `python -m tarock.net.docgen` and refresh docs/protocol.md")


def _vectors() -> dict[str, str]:
    found = re.search(r"<!-- vectors -->\n```\n(.*?)```\n<!-- end vectors -->", TEXT, re.S)
    assert found is not None
    line = re.compile(r"^(hand_id|key|block0|below|commit \d|tarock\d\d (?:order|talon|hand \d)) (.*)$")
    out = {}
    for text in found.group(1).splitlines():
        match = line.match(text)
        assert match is not None, f"unreadable vector line: {text!r}"
        out[match.group(1)] = match.group(2)
    return out


def test_the_worked_example_is_what_the_code_computes() -> None:
    vectors = _vectors()
    ctx = DealContext("00112233445566778899aabbccddeeff", 1, 1, 4)
    seeds = [bytes([s + 1]) * 32 for s in range(4)]
    assert vectors["hand_id"] == ctx.hand_id
    for s in range(4):
        assert vectors[f"commit {s}"] == commitment(ctx, s, seeds[s])
    key = deal_key(ctx, seeds)
    assert vectors["key"] == key.hex()
    assert vectors["block0"] == Stream(key).take(32).hex()
    stream = Stream(key)
    draws = " ".join(str(stream.below(m)) for m in (54, 53, 52, 51, 50))
    assert vectors["below"] == "54 53 52 51 50 -> " + draws
    for variant in ("tarock54", "tarock40"):
        game = Game.make(CATALOGUE, variant, {}, 4, 1, "commit-reveal/1")
        order = shuffle(game.rules.deck, Stream(key))
        assert vectors[f"{variant} order"] == " ".join(format_card(c) for c in order)
        hands, talon = deal_from_seeds(ctx, game.layout(game.active(0)), seeds)
        for s in range(4):
            assert vectors[f"{variant} hand {s}"] == " ".join(format_card(c) for c in hands[s])
        if talon:
            piles = " | ".join(" ".join(format_card(c) for c in pile) for pile in talon)
            assert vectors[f"{variant} talon"] == piles


def test_the_documented_decks_are_the_variants_decks() -> None:
    markers = (("tarock54", "`tarock54`\n(and the Königrufen variants): `"), ("tarock40", "`tarock40`: `"))
    for variant, marker in markers:
        start = TEXT.index(marker) + len(marker)
        written = " ".join(TEXT[start:TEXT.index("`", start)].split())
        deck = Game.make(CATALOGUE, variant, {}, 4, 1, "commit-reveal/1").rules.deck
        names = [format_card(c) for c in deck]
        if "..." in written:
            head, tail = written.split(" ... ")
            assert names[:len(head.split())] == head.split()
            assert names[-len(tail.split()):] == tail.split()
        else:
            assert written.split() == names


def test_the_mental_poker_vectors_are_what_the_code_computes() -> None:
    found = re.search(r"<!-- mp-vectors -->\n```\n(.*?)```\n<!-- end mp-vectors -->", TEXT, re.S)
    assert found is not None
    vectors = dict(line.rsplit(" ", 1) for line in found.group(1).splitlines() if not line.startswith("perm"))
    perm_line = next(line for line in found.group(1).splitlines() if line.startswith("perm 54 "))
    hand = b"00112233445566778899aabbccddeeff:1:1"
    key = bs.shuffle_key(hand, 0, bytes([1]) * 32)
    assert vectors["shuffle key"] == key.hex()
    assert vectors["shuffle commit"] == bs.shuffle_commitment(hand, 0, bytes([1]) * 32)
    assert perm_line.split()[2:] == [str(k) for k in bs.permutation(key, 54)[:12]]
    found2 = re.search(r"<!-- mp2-vectors -->\n```\n(.*?)```\n<!-- end mp2-vectors -->", TEXT, re.S)
    assert found2 is not None
    vectors2 = dict(line.rsplit(" ", 1) for line in found2.group(1).splitlines())
    for grp, order, written in ((group.ED25519, "little", vectors), (SECP256K1, "big", vectors2)):
        assert written["card XXI"] == bs.card_point(grp, parse_card("XXI")).hex()
        assert written["card Sküs"] == bs.card_point(grp, parse_card("Sküs")).hex()
        assert written["mask 0"] == bs.mask(grp, key, 0).hex()
        keys = [grp.base((s + 2).to_bytes(32, order)) for s in range(4)]
        assert written["y 0"] == keys[0].hex()
        assert written["joint"] == bs.joint_key(grp, keys).hex()
    me = Identity(bytes([1]) * 32)
    assert vectors["public key"] == me.key and vectors["node"] == me.node
    table = "00112233445566778899aabbccddeeff"
    assert vectors["fingerprint"] == fingerprint(table, [Identity(bytes([s + 1]) * 32).key for s in range(4)])
