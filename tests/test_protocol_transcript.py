"""docs/protocol-transcript.md is what the real cores send; every vector in it decodes with the real codec."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from net_pump import CATALOGUE

from tarock.net import commit_reveal
from tarock.net.agreement import wire as raft_wire
from tarock.net.commit_reveal import deal_order
from tarock.net.dealing import DealContext
from tarock.net.game import Game
from tarock.net.identity import verify
from tarock.net.protocol.connection import Connection, Welcomed
from tarock.net.protocol.frames import decode_body, encode_body
from tarock.net.protocol.messages import HAND, Act, Dealing, HandEnd, Signed, inner_of, parse
from tarock.net.virtual import materialize
from tarock.tools.protocol_transcript import BEGIN, END, NAMES, TABLE, identity, render

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol-transcript.md"
TEXT = DOC.read_text(encoding="utf-8")
ENTRY = re.compile(r"^(\d+)\. (\S+) → ([^:]+): (.*)\n\n```\n((?:(?:hex|frame|json) .*\n)+)```", re.M)


def _generated() -> str:
    return TEXT.split(BEGIN + "\n", 1)[1].split("\n" + END, 1)[0]


@cache
def _entries() -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for match in ENTRY.finditer(_generated()):
        lines = dict(line.split(" ", 1) for line in match.group(5).splitlines())
        out.append((match.group(2), match.group(4), lines))
    return out


def test_the_transcript_is_what_the_code_sends() -> None:
    assert _generated() == render(), "run `python -m tarock.tools.protocol_transcript --write`"


def test_every_message_is_numbered_in_order() -> None:
    numbers = [int(m.group(1)) for m in ENTRY.finditer(_generated())]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 100


def _bytes(lines: dict[str, str]) -> bytes:
    if "frame" in lines:
        length, body = lines["frame"].split(" ")
        raw = bytes.fromhex(body)
        assert int(length, 16) == len(raw), "the length prefix is the body's length"
        return raw
    if "hex" in lines:
        return bytes.fromhex(lines["hex"])
    return encode_body(json.loads(lines["json"]))


def test_every_vector_decodes_to_its_json() -> None:
    for _sender, label, lines in _entries():
        raw = _bytes(lines)
        assert decode_body(raw) == json.loads(lines["json"]), label
        assert encode_body(json.loads(lines["json"])) == raw, f"{label}: JSON and bytes differ"


def _key(sender: str) -> str:
    return identity(NAMES.index(sender) if sender != "host" else 0).key


def test_every_signed_body_parses_and_its_signature_holds() -> None:
    game = Game.make(CATALOGUE, "tarock54", {}, 4, 2, "commit-reveal/1")
    kinds: set[str] = set()
    ctx = DealContext(TABLE, 1, 1, 4)
    cards = deal_order(ctx, game.layout(game.active(0)), [bytes([s + 1]) * 32 for s in range(4)])
    acts: list[Any] = []
    records: list[Any] = []
    for sender, label, lines in _entries():
        plain: Any = decode_body(_bytes(lines))
        if plain["t"].startswith("raft-"):
            raft_wire.decode(plain)
            kinds.add(plain["t"])
            continue
        if plain["t"] != "signed":
            if plain["t"] == "data":
                plain = plain["body"]
            else:
                assert parse(plain, "frame").tag == plain["t"]
                kinds.add(plain["t"])
                continue
        env = parse(plain, "body")
        assert isinstance(env, Signed)
        signed = b"tarock-sig/1\x00" + _canonical({k: v for k, v in plain.items() if k not in ("t", "sig")})
        assert verify(bytes.fromhex(_key(sender)), signed, env.sig), label
        inner = inner_of(env)
        kinds.add(inner.tag)
        if isinstance(inner, Dealing):
            commit_reveal.WIRE.parse(inner.payload)
        if isinstance(inner, Act) and env.deal == 1:  # positions '#p' stand for the deal's cards
            acts.append(game.rules.codec.encode_action(
                game.rules.codec.decode_action(materialize(inner.action, cards), 4)))
        if isinstance(inner, HandEnd):
            game.check(inner.record)
            records.append(inner.record)
        assert (env.seq > 0) == (type(inner) in HAND and env.to == ""), label
    assert {"hello", "challenge", "auth", "welcome", "seated", "begin", "dealing", "step", "ready", "act",
            "open", "hand-end", "checked", "raft-append", "raft-append-reply"} <= kinds
    assert records and all(r["actions"] == acts for r in records), "the acts are the record"


def test_the_handshake_goes_through_a_real_client_connection() -> None:
    frames = [_frame(lines) for _s, _l, lines in _entries()[:4]]
    hello = parse(decode_body(frames[0][4:]), "frame")
    client = Connection("client")
    client.hello(hello, identity=identity(3))  # type: ignore[arg-type]
    assert client.data_to_send() == frames[0]
    client.receive_data(frames[1])
    assert client.data_to_send() == frames[2], "the auth the client makes is the transcript's"
    client.receive_data(frames[3])
    assert any(isinstance(e, Welcomed) for e in client.events())


def _frame(lines: dict[str, str]) -> bytes:
    length, body = lines["frame"].split(" ")
    return bytes.fromhex(length + body)


def test_the_deal_is_the_worked_example_of_section_10() -> None:
    seeds = [json.loads(lines["json"])["body"]["payload"]["seed"]
             for _s, label, lines in _entries() if "`reveal`" in label]
    assert seeds == [f"{s + 1:02x}" * 32 for s in range(4)]


def _canonical(value: object) -> bytes:
    """Canonical JSON as docs/protocol.md section 4 writes it."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def test_the_chains_and_the_running_hash_are_the_documented_formulas() -> None:
    """Section 4's formulas, written here from the document, give the transcript's `prev`, `head`
    and the record's `net.log`."""
    running = ""
    seen = {""}
    last: dict[tuple[str, object], tuple[int, str]] = {}
    record_log = ""
    for _sender, _label, lines in _entries():
        plain: Any = decode_body(_bytes(lines))
        if plain.get("t") == "data":
            continue  # the same bodies again, inside D's first frames
        if plain.get("t") != "signed" or plain["deal"] != 1:
            continue
        if plain["body"]["t"] == "hand-end":
            record_log = plain["body"]["record"]["net"]["log"]
        if plain["seq"] == 0:
            continue
        assert plain["head"] in seen, "an entry names a running hash the log had"
        whole = {k: v for k, v in plain.items() if k != "t"}
        digest = hashlib.sha256(b"tarock-msg/1\x00" + _canonical(whole))
        author = (plain["author"], plain["seat"])
        seq, prev = last.get(author, (0, ""))
        assert (plain["seq"], plain["prev"]) == (seq + 1, prev)
        last[author] = (plain["seq"], digest.hexdigest())
        before = bytes.fromhex(running) if running else b""
        running = hashlib.sha256(b"tarock-log/1\x00" + before + digest.digest()).hexdigest()
        seen.add(running)
    assert record_log == running


def test_the_log_of_a_seat_that_comes_back_holds_the_entries_it_had() -> None:
    bodies = [decode_body(_bytes(lines)) for _s, _l, lines in _entries()]
    logs = [b for b in bodies if isinstance(b, dict) and b.get("t") == "signed" and b["body"]["t"] == "log"]
    assert logs, "the transcript shows a log"
    for log in logs:
        entries = log["body"]["entries"]
        assert entries and all(entry in bodies for entry in entries)
        assert [e["body"]["t"] for e in entries][:2] == ["begin", "dealing"]
