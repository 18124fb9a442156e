"""The table cores wired directly (tests/net_pump.py): whole tables in both dealing
schemes, away seats, a lying or forging host caught and named, host loss with
take-over, and random bodies against the host."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_pump import Pump, identity, make_table, node_id
from time_bound import bounded

from tarock.client.bots import make_bot
from tarock.core.actions import Action
from tarock.core.cards import format_card
from tarock.core.observation import Observation
from tarock.core.record import load, replay
from tarock.net.agreement.outcome import Outcome
from tarock.net.effects import Effect, HandOver, Propose, Voided
from tarock.net.game import Sheet
from tarock.net.host import OWN_VOIDS, HostCore
from tarock.net.identity import signed_bytes
from tarock.net.protocol.limits import Timing
from tarock.net.protocol.messages import Act, HandEnd, MessageError, Signed, dump, parse
from tarock.net.seat import SeatCore
from tarock.net.store import Store

SCHEMES = ("mental-poker/2", "mental-poker/1", "commit-reveal/1")


def records(tmp: Path, i: int) -> list[bytes]:
    return [p.read_bytes() for p in sorted((tmp / f"records{i}").glob("*.json"))]


def inner(body: Signed) -> str:
    return str(body.body.get("t"))


@pytest.mark.parametrize("dealing", SCHEMES)
def test_a_table_of_four_and_a_watcher_end_with_identical_records(tmp_path: Path, dealing: str) -> None:
    pump = make_table(tmp_path, rounds=2, watchers=1, dealing=dealing)
    for i in range(5):
        pump.join(node_id(i))
    assert pump.done and all(leave.code == "done" for leave in pump.left.values())
    first = records(tmp_path, 0)
    assert len(first) >= 2 and all(records(tmp_path, i) == first for i in range(4))
    for path in sorted((tmp_path / "records0").glob("*.json")):
        rep = replay(load(path))  # the files are ordinary records for tarock replay
        assert rep.error_index is None and rep.hand is not None and rep.hand.done
        assert json.loads(path.read_text())["net"]["opening"]["scheme"] == dealing
    assert pump.host.sheet.table.totals == pump.seats[node_id(0)].sheet.table.totals  # type: ignore[union-attr]
    watcher = pump.seats[node_id(4)]
    assert watcher.sheet is not None and watcher.sheet.table.totals == pump.host.sheet.table.totals


def test_a_node_killed_between_its_store_and_its_record_file_writes_the_file_on_restart(
        tmp_path: Path) -> None:
    """The store is the truth and the file its export: a restarted node writes the record file
    of every hand its store holds and the folder lacks (and leaves the others as they are)."""
    pump = make_table(tmp_path, rounds=2)
    for i in range(4):
        pump.join(node_id(i))
    assert pump.done
    whole = records(tmp_path, 1)
    files = sorted((tmp_path / "records1").glob("*.json"))
    files[-1].unlink()  # killed after the store took the hand, before the file was written
    old = pump.seats[node_id(1)]
    again = SeatCore(old.me, old.name, old.catalogue, Store(tmp_path / "seat1.sqlite"),
                     records_dir=tmp_path / "records1", identity=old.identity)
    assert again.restore(pump.host.info.id)
    assert records(tmp_path, 1) == whole


def test_every_node_shows_the_same_roster_fingerprint(tmp_path: Path) -> None:
    from tarock.net.effects import Joined

    pump = make_table(tmp_path, rounds=1)
    for i in range(4):
        pump.join(node_id(i))
    prints = {[e for e in pump.shown[node_id(i)] if isinstance(e, Joined)][-1].fingerprint for i in range(4)}
    assert len(prints) == 1 and len(prints.pop()) == 14


@pytest.mark.parametrize("dealing", ("mental-poker/2", "commit-reveal/1"))
def test_a_seat_away_mid_hand_voids_it_and_a_bot_plays_it_from_the_next_deal(tmp_path: Path,
                                                                             dealing: str) -> None:
    """With commit-reveal/1 the bot also takes the private messages of its seat (its seed goes
    to the host, its cards come from the host): addressed to the host's node, which plays it."""
    pump = make_table(tmp_path, rounds=2, timing=Timing(seat_timeout=5.0), dealing=dealing)
    away = node_id(3)

    def vanish(to: str, body: Signed) -> Signed | None:
        # The fourth seat's link dies silently when the first card of the table is played.
        if to == away and inner(body) == "act" and body.body.get("action", {}).get("type") == "play":
            pump.connected.discard(away)
            return None
        return body
    pump.tamper = vanish
    with bounded(60, "a table with a seat away"):
        for i in range(4):
            pump.join(node_id(i))
        pump.run(pump.host.disconnected(away, pump.now))
        pump.tick(1.0)
        assert not pump.done and 1 not in pump.host.sheet.void
        pump.tick(5.0)  # its cards cannot be opened without it: the deal is void, nobody named
    voids = [e for e in pump.shown[node_id(0)] if isinstance(e, Voided)]
    assert voids and voids[0].deal == 1 and voids[0].culprit == "" and "away" in voids[0].reason
    assert pump.done, pump.log[-5:]
    shown = [e for e in pump.shown[node_id(0)] if isinstance(e, HandOver)]
    assert shown and all(e.bots for e in shown)
    data = json.loads(records(tmp_path, 0)[0])
    bots = data["net"]["bots"]
    assert bots and all(data["actions"][i]["seat"] == 3 for i in bots)


@pytest.mark.parametrize("garbage", ("unsigned", "signed"))
def test_a_commit_reveal_seat_that_sends_garbage_costs_one_deal(tmp_path: Path, garbage: str) -> None:
    """commit-reveal/1, seat 3 sends garbage instead of its seed: a body that is no signed
    message (a protocol error: its connection is closed, it is away, the deal is void naming
    nobody, and a bot of the host's node plays it from the next deal), or a seed it signed that
    is no seed (a provable offence: the deal is void naming it).  Either way the table goes on."""
    pump = make_table(tmp_path, rounds=2, timing=Timing(seat_timeout=5.0), dealing="commit-reveal/1")
    cheater = node_id(3)
    receive = pump.host.receive
    sent: list[str] = []

    def spoil(node: str, body: object, now: float) -> list[Effect]:
        if node == cheater and not sent and isinstance(body, Signed) and body.to \
                and body.body.get("payload", {}).get("t") == "reveal":
            sent.append(garbage)
            if garbage == "unsigned":
                return receive(node, {"t": "reveal", "seed": "00" * 32}, now)
            fields = dump(body)
            fields["body"] = {"t": "dealing", "payload": {"t": "reveal", "seed": "not a seed"}}
            fields["sig"] = identity(3).sign(signed_bytes(fields))
            return receive(node, parse(fields, "body"), now)
        return receive(node, body, now)
    pump.host.receive = spoil  # type: ignore[method-assign]
    with bounded(60, "a table with a seat that sends garbage"):
        for i in range(4):
            pump.join(node_id(i))
        assert sent
        for _ in range(3):
            pump.tick(5.0)
    voids = [e for e in pump.shown[node_id(0)] if isinstance(e, Voided)]
    assert [v.deal for v in voids] == [1], voids
    assert voids[0].culprit == ("" if garbage == "unsigned" else cheater), voids[0]
    assert pump.done, pump.log[-5:]
    bots = [e.bots for e in pump.shown[node_id(0)] if isinstance(e, HandOver)]
    assert bots and all(bots) == (garbage == "unsigned")


def test_a_returning_seat_plays_again(tmp_path: Path) -> None:
    pump = make_table(tmp_path, rounds=2, timing=Timing(seat_timeout=1.0), seed=3)
    for i in range(3):
        pump.join(node_id(i))
    pump.join(node_id(3))
    assert pump.done


@pytest.mark.parametrize("dealing", SCHEMES)
def test_a_host_that_lies_in_the_record_is_caught_and_named(tmp_path: Path, dealing: str) -> None:
    def tamper(to: str, body: Signed) -> Signed | None:
        if inner(body) == "hand-end" and body.deal == 1:
            msg = parse(body.body, "inner")
            assert isinstance(msg, HandEnd)
            record = copy.deepcopy(msg.record)
            record["actions"] = record["actions"][:-1]
            return pump.host.seating.signed(HandEnd(record), to, body.deal)
        return body
    pump = make_table(tmp_path, rounds=1, dealing=dealing)
    pump.tamper = tamper
    for i in range(4):
        pump.join(node_id(i))
        if pump.done:
            break
    voids = [e for e in pump.shown[node_id(1)] if isinstance(e, Voided)]
    assert voids and voids[0].culprit == pump.host.me, voids
    assert 1 in pump.host.sheet.void and 1 not in pump.host.sheet.counted
    assert not list((tmp_path / "records1").glob("*-d001-*.json"))  # the void deal has no file


def test_a_host_that_changes_an_entry_it_relays_is_named(tmp_path: Path) -> None:
    """The host changes a seat's signed action on its way to seat 2: the signature no longer
    holds, and seat 2 names the host (the host signs nothing in a seat's name)."""
    changed: list[int] = []

    def tamper(to: str, body: Signed) -> Signed | None:
        if to == node_id(2) and inner(body) == "act" and not changed:
            fields = dump(body)
            fields["body"] = {**body.body, "index": body.body["index"]}
            fields["body"]["facts"] = {"called": "XX"}
            changed.append(1)
            out = parse(fields, "body")
            assert isinstance(out, Signed)
            return out
        return body
    pump = make_table(tmp_path, rounds=1)
    pump.tamper = tamper
    for i in range(4):
        pump.join(node_id(i))
    voids = [e for e in pump.shown[node_id(2)] if isinstance(e, Voided)]
    assert changed and voids and voids[0].culprit == pump.host.me, voids


def _take_over(pump: Pump, successor: int, tmp: Path) -> Pump:
    """What net.node.Node.take_over does: the successor hosts at epoch + 1."""
    seat = pump.seats[node_id(successor)]
    assert seat.info is not None and seat.table.game is not None and seat.sheet is not None
    sheet = Sheet(seat.table.game.new_table())
    store = Store(tmp / "new-host.sqlite")
    for deal, record, reason, culprit in seat.store.outcomes(seat.info.id):
        store.save_outcome(seat.info.id, deal, record, reason, culprit)
        if deal in seat.sheet.counted:
            sheet.count(seat.table.game.check(record))
    host = HostCore(seat.table.game, seat.info, node_id(successor), store, now=pump.now,
                    identity=identity(successor), epoch=seat.epoch + 1, roster=seat.roster, sheet=sheet,
                    takeover=True, last_deal=seat.deal, timing=pump.host.timing,
                    bot_for=lambda s: make_bot("heuristic", 77 + s, f"sub{s}"))
    return Pump(host, pump.seats, pump.players, now=pump.now)


def test_host_loss_voids_the_deal_in_progress_and_the_table_goes_on(tmp_path: Path) -> None:
    pump = make_table(tmp_path, rounds=3, timing=Timing(seat_timeout=2.0, gather=4.0))

    def lose_the_host(to: str, body: Signed) -> Signed | None:
        # After the first hand is counted, the host dies in the middle of the second deal.
        if body.deal == 2 and inner(body) == "act" and body.body.get("index", 0) >= 6:
            return None
        return body
    pump.tamper = lose_the_host
    for i in range(4):
        pump.join(node_id(i))
    assert not pump.done and pump.host.sheet.done == 1
    old_host = pump.host.me
    new = _take_over(pump, 1, tmp_path)
    for i in (1, 2, 3):  # the old host's node (seat 0) is gone
        new.join(node_id(i))
    new.tick(2.5)   # the lost host's seat is played by a bot from the next deal
    new.tick(4.5)   # gathering is over
    assert new.done, new.log[-6:]
    assert new.host.epoch == 2 and 2 in new.host.sheet.void
    sheet = new.host.sheet
    assert len(sheet.table.rows) == 3 and 2 not in sheet.counted
    deals = sorted(sheet.counted)
    assert deals[0] == 1 and len(set(deals)) == len(deals)  # no deal counted twice
    for i in (1, 2, 3):
        assert records(tmp_path, i) == records(tmp_path, 1)
    assert old_host != new.host.me


def test_a_hand_the_log_never_committed_counts_nowhere(tmp_path: Path) -> None:
    """The old host sent the first hand's record to seat 2 only and died before the table's log
    held it: seat 2 checked it but counts only what the log commits (docs/protocol.md, "Host
    agreement"), so the hand counts at no node; the new host voids it and deals again, and
    every node ends with the same records."""
    pump = make_table(tmp_path, rounds=2, timing=Timing(seat_timeout=2.0, gather=4.0))

    def only_to_seat_2(to: str, body: Signed) -> Signed | None:
        if inner(body) == "hand-end" and to != node_id(2):
            return None
        if body.deal >= 2:
            return None
        return body
    pump.tamper = only_to_seat_2
    for i in range(4):
        pump.join(node_id(i))
    assert 1 in pump.seats[node_id(2)].score.checked and not pump.committed
    assert all(seat.done == 0 for seat in pump.seats.values())
    new = _take_over(pump, 1, tmp_path)
    for i in (1, 2, 3):
        new.join(node_id(i))
    new.tick(2.5)
    new.tick(4.5)
    assert new.done, new.log[-6:]
    assert 1 in new.host.sheet.void and 1 not in new.host.sheet.counted
    assert [o.deal for o in new.committed] == sorted({o.deal for o in new.committed})  # one outcome a deal
    assert records(tmp_path, 1) == records(tmp_path, 2) == records(tmp_path, 3)


def _frozen(pump: Pump) -> str:
    host = pump.host
    run = host.run
    log = [dump(e)["sig"] for e in run.log] if run else []
    return json.dumps([host.phase, host.sheet.done, sorted(host.sheet.void), log,
                       [c.info.node if c.info else None for c in host.seating.chairs]])


plain = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-5, max_value=2 ** 53) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12)
FIELDS = ["index", "action", "payload", "share", "facts", "ok", "culprit", "reason", "record", "redeal",
          "opening", "deal", "log", "entries"]
TAGS = ["act", "dealing", "step", "ready", "open", "fault", "checked", "record", "seated", "begin", "x"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])
@given(st.sampled_from(TAGS), st.dictionaries(st.sampled_from(FIELDS), plain, max_size=6),
       st.integers(min_value=0, max_value=3), st.booleans())
def test_random_bodies_signed_by_a_seat_change_nothing(tmp_path: Path, tag: str, fields: dict[str, object],
                                                       seq: int, right_deal: bool) -> None:
    """Well-signed garbage from a seat never changes the host's state unless it is a valid
    entry; an invalid hand entry voids the deal and names that seat, nothing else."""
    pump = FUZZ.get("pump")
    if pump is None:
        pump = make_table(tmp_path, rounds=1)
        pump.players[node_id(3)] = None  # seat 3 never acts: the hand waits for it
        for i in range(4):
            pump.join(node_id(i))
        FUZZ["pump"] = pump
    host = pump.host
    run = host.run
    assert run is not None
    me = identity(3)
    env_fields = {"t": "signed", "table": host.info.id, "epoch": host.epoch,
                  "deal": run.ctx.deal if right_deal else 99, "author": me.node, "seat": 3, "seq": seq,
                  "prev": "", "head": "", "to": "", "body": {**fields, "t": tag}, "sig": "0" * 128}
    from tarock.net.identity import signed_bytes

    env_fields["sig"] = me.sign(signed_bytes(env_fields))
    try:
        env = parse(env_fields, "body")
    except MessageError:
        return
    before = _frozen(pump)
    saved = copy.copy(host.run), set(host.sheet.void)
    effects = host.receive(me.node, env, pump.now)
    after = _frozen(pump)
    if after != before:
        # The only change garbage may cause: this deal is void (proposed to the table's log as
        # void, the sheet unchanged until the log commits it) and seat 3 named.
        assert host.sheet.void == saved[1] and host.phase == "committing", effects
        proposed = [e.outcome for e in effects if isinstance(e, Propose)]
        assert proposed == [Outcome(run.ctx.deal, None, proposed[0].reason, me.node)], effects
        voids = [e for e in effects if hasattr(e, "body") and inner(e.body) == "void"]
        assert voids and voids[0].body.body["culprit"] == me.node
        FUZZ.pop("pump")


FUZZ: dict[str, Pump] = {}


def test_a_host_cut_off_from_most_of_the_table_plays_nothing_alone(tmp_path: Path) -> None:
    """Three of four nodes out of reach: no bot plays their seats, whatever the time; one
    returns (two of four, with the roster's first node): bots play the other two."""
    pump = make_table(tmp_path, rounds=1, timing=Timing(seat_timeout=1.0))
    gone = [node_id(1), node_id(2), node_id(3)]

    def vanish(to: str, body: Signed) -> Signed | None:
        if to in gone and inner(body) == "begin":
            pump.connected.discard(to)
            return None
        return body
    pump.tamper = vanish
    for i in range(4):
        pump.join(node_id(i))
    for node in gone:
        pump.run(pump.host.disconnected(node, pump.now))
    before = _frozen(pump)
    assert not pump.host.seating.quorum()
    pump.tick(5.0)
    pump.tick(50.0)
    assert _frozen(pump) == before and not pump.done
    gone.remove(node_id(1))
    pump.tamper = vanish
    pump.join(node_id(1))
    assert pump.host.seating.quorum()
    for _ in range(6):
        pump.tick(2.0)
    assert pump.done, pump.log[-4:]


@pytest.mark.parametrize("dealing, cards", [(s, 5) for s in SCHEMES] + [("mental-poker/2", 40)])
def test_a_seat_restarted_mid_hand_resumes_from_its_store(tmp_path: Path, dealing: str, cards: int) -> None:
    """Seat 2's node dies after the hand's fifth (or 40th) card (its dealing secrets are on disk)
    and starts again from its store: the host sends it the log (late in a hand of mental poker
    more than one frame holds: in parts), it goes on with the same secrets and the same chain,
    and the table ends with the same records everywhere, no deal void."""
    from net_pump import CATALOGUE

    from tarock.net.seat import SeatCore

    pump = make_table(tmp_path, rounds=1, timing=Timing(seat_timeout=30.0), dealing=dealing)
    away = node_id(2)
    plays: list[int] = []

    def die(to: str, body: Signed) -> Signed | None:
        if inner(body) == "act" and body.body.get("action", {}).get("type") == "play" and to == away:
            plays.append(1)
            if len(plays) == cards:
                pump.connected.discard(away)
                return None
        return body if to in pump.connected else None
    pump.tamper = die
    for i in range(4):
        pump.join(node_id(i))
    assert len(plays) == cards and not pump.done
    pump.run(pump.host.disconnected(away, pump.now))
    pump.tick(1.0)
    old = pump.seats[away]
    again = SeatCore(away, old.name, CATALOGUE, Store(tmp_path / "seat2.sqlite"), identity=identity(2),
                     records_dir=tmp_path / "records2")
    assert again.restore() and again.hand.pending_secret is not None
    pump.seats[away] = again
    pump.tamper = None
    pump.join(away)
    assert pump.done, pump.log[-6:]
    assert not pump.host.sheet.void
    assert records(tmp_path, 0) == records(tmp_path, 1) == records(tmp_path, 2) == records(tmp_path, 3)


def test_a_seat_restarted_after_a_cheat_names_the_cheater_not_itself(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 3 signs a reveal token whose proof fails while seat 1's node is down; seat 1 comes
    back from its store and reads the log: the bad entry, the others' accusation, their
    openings.  It opens in turn (its chain going on where the log has it) and the host names
    seat 3, nobody else; the table goes on."""
    from net_pump import CATALOGUE

    from tarock.net.handplay import HandPlay
    from tarock.net.protocol.messages import Inner, Step
    from tarock.net.seat import SeatCore

    cheater, away = node_id(3), node_id(1)
    sign = HandPlay.sign
    spoiled: list[int] = []

    def bad_token(self: HandPlay, body: Inner, to: int | None = None) -> Signed:
        if (not spoiled and to is None and self.signer is not None and self.signer.node == cheater
                and isinstance(body, Step) and isinstance(body.share, dict) and body.share.get("tokens")):
            tokens = [list(t) for t in body.share["tokens"]]
            tokens[0][2], tokens[0][3] = tokens[0][3], tokens[0][2]
            spoiled.append(1)
            body = Step(body.index, {**body.share, "tokens": tokens}, body.facts)
        return sign(self, body, to)
    monkeypatch.setattr(HandPlay, "sign", bad_token)

    pump = make_table(tmp_path, rounds=1, timing=Timing(seat_timeout=30.0, step=60.0))

    def down(to: str, body: Signed) -> Signed | None:
        if to == away and inner(body) == "step" and body.seat == 3:
            pump.connected.discard(away)
        return body if to in pump.connected else None
    pump.tamper = down
    for i in range(4):
        pump.join(node_id(i))
    assert spoiled and not pump.done and not pump.host.sheet.void
    pump.run(pump.host.disconnected(away, pump.now))
    pump.tick(1.0)
    again = SeatCore(away, "p1", CATALOGUE, Store(tmp_path / "seat1.sqlite"), identity=identity(1),
                     records_dir=tmp_path / "records1")
    assert again.restore()
    pump.seats[away] = again
    pump.tamper = None
    pump.join(away)
    assert pump.done, pump.log[-6:]
    blamed = {who for _, record, _, who in pump.host.store.outcomes(pump.host.info.id) if record is None}
    assert blamed == {cheater}, pump.log[-8:]


def test_a_host_named_for_its_own_entries_deal_after_deal_stops_and_the_successor_goes_on(
        tmp_path: Path) -> None:
    """Every begin the host sends seat 1 carries a broken signature (as when the seats cannot
    check the host's key): seat 1 names the host and tells it so, the deal is void, the same
    dealer deals again, and without a bound that goes on for ever.  After OWN_VOIDS deals in
    a row that name the host's own node it stops dealing, says so (its log, the void each
    table's view shows) and closes every connection; the successor (seat 1) takes over and the
    table ends there."""

    pump = make_table(tmp_path, rounds=1, timing=Timing(seat_timeout=2.0, gather=4.0))

    def break_begin(to: str, body: Signed) -> Signed | None:
        if to == node_id(1) and inner(body) == "begin" and body.author == pump.host.me:
            fields = dump(body)
            fields["sig"] = ("0" if fields["sig"][0] != "0" else "1") + fields["sig"][1:]
            broken = parse(fields, "body")
            assert isinstance(broken, Signed)
            return broken
        return body
    pump.tamper = break_begin
    with bounded(60, "a host voiding its own deals"):
        for i in range(4):
            pump.join(node_id(i))
    host = pump.host
    assert host.phase == "resigned" and host.stale and not pump.done
    assert host.ledger.own_voids == OWN_VOIDS and sorted(host.sheet.void) == list(range(1, OWN_VOIDS + 1))
    assert not pump.connected, "the host closes every connection"
    assert any("stops hosting" in line for line in pump.log), pump.log[-4:]
    for i in range(4):
        voids = [e for e in pump.shown[node_id(i)] if isinstance(e, Voided)]
        assert len(voids) == OWN_VOIDS, voids
        if i == 1:  # it saw the bad entries: it names the host in its own store
            assert all(v.culprit == host.me and "bad signature" in v.reason for v in voids), voids
            stored = pump.seats[node_id(1)].store.outcomes(host.info.id)
            assert {who for _d, _r, _w, who in stored} == {host.me}
        else:  # only seat 1 saw them: nobody is named, and nobody is named for stalling either
            assert all(v.culprit == "" and "cannot accept the host's entries" in v.reason for v in voids)
            assert "stops dealing" in voids[-1].reason and "succession" in voids[-1].reason
    assert host.tick(pump.now + 100) == [] and host.next_deadline(pump.now) is None
    new = _take_over(pump, 1, tmp_path)
    for i in range(4):
        new.join(node_id(i))
    new.tick(4.5)
    assert new.done, new.log[-6:]
    assert new.host.epoch == 2 and not set(range(1, OWN_VOIDS + 1)) & set(new.host.sheet.counted)
    assert records(tmp_path, 0) == records(tmp_path, 1) == records(tmp_path, 2) == records(tmp_path, 3)
    assert records(tmp_path, 1)


def test_a_seat_whose_cards_the_host_withholds_names_the_host(tmp_path: Path) -> None:
    """commit-reveal/1: the host never sends seat 2 its private cards, so seat 2 cannot say
    ready, and after the step timeout the host names it for stalling.  Seat 2 knows better: its
    own store and view name the host; the other seats (who cannot tell) have the host's word."""
    pump = make_table(tmp_path, rounds=1, timing=Timing(step=3.0, seat_timeout=30.0),
                      dealing="commit-reveal/1")
    victim = node_id(2)
    held: list[Signed] = []

    def withhold(to: str, body: Signed) -> Signed | None:
        if to == victim and body.to and body.deal == 1 and inner(body) == "dealing" \
                and body.body.get("payload", {}).get("t") == "cards":
            held.append(body)
            return None
        return body
    pump.tamper = withhold
    with bounded(60, "a deal with withheld cards"):
        for i in range(4):
            pump.join(node_id(i))
        assert held and 1 not in pump.host.sheet.void
        pump.tick(3.5)
    host = pump.host
    assert 1 in host.sheet.void
    stored = {deal: (why, who) for deal, _r, why, who in host.store.outcomes(host.info.id)}
    assert stored[1][1] == victim and "stalled" in stored[1][0]  # the host's word
    own = [e for e in pump.shown[victim] if isinstance(e, Voided) and e.deal == 1]
    assert own and own[0].culprit == host.me and "never sent this seat its cards" in own[0].reason
    mine = {deal: who for deal, _r, _why, who in pump.seats[victim].store.outcomes(host.info.id)}
    assert mine[1] == host.me
    other = [e for e in pump.shown[node_id(1)] if isinstance(e, Voided) and e.deal == 1]
    assert other and other[0].culprit == victim


def test_after_a_card_played_only_a_seat_with_a_share_to_give_steps(tmp_path: Path) -> None:
    """Protocol 3 (docs/protocol.md, "The order of a hand"): a card whose tokens every other
    seat gave with the deal is followed by the next act directly; a step after a card
    played carries the share it is owed for (the declarer's called card aside).  The
    koenigrufen-club deal of seed 0 is a Trischaken, whose talon cards go into the first
    tricks: there a card played is followed by the shares of the talon card it shows."""
    all_steps: list[dict[str, object]] = []
    for variant in ("tarock54", "koenigrufen-club"):
        seen: list[dict[str, object]] = []

        def watch(to: str, body: Signed, seen: list[dict[str, object]] = seen) -> Signed | None:
            if to == node_id(1) and inner(body) in ("act", "step"):
                seen.append(body.body)
            return body
        pump = make_table(tmp_path / variant, variant=variant, rounds=1)
        pump.tamper = watch
        for i in range(4):
            pump.join(node_id(i))
        assert pump.done and not pump.host.sheet.void
        after_play = [(a, b) for a, b in itertools.pairwise(seen) if a["t"] == "act"
                      and isinstance(a["action"], dict) and a["action"].get("type") == "play"]
        direct = [b for _, b in after_play if b["t"] == "act"]
        steps = [b for _, b in after_play if b["t"] == "step"]
        assert len(direct) > 2 * len(steps), (variant, len(direct), len(steps))
        all_steps += steps
    assert all_steps, "no card played was followed by a step: the share check below saw nothing"
    assert all(step["share"] is not None or step["facts"] for step in all_steps)


def test_a_seat_that_steps_after_a_card_owing_nothing_is_named(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat that sends a step nobody owes after a card played (as protocol 2 had every
    seat do) breaks the order of the hand: the hand is void and the seat is named."""
    from tarock.net.handplay import HandPlay

    cheater = node_id(3)
    original = HandPlay._contribute
    cheated: list[int] = []

    def contribute(self: HandPlay, k: int) -> None:
        att = self.att
        last = att.acts[-1].msg if att.acts else None
        played = isinstance(last, Act) and isinstance(last.action, dict) and last.action.get("type") == "play"
        if played and not cheated and self.signer is not None and self.signer.node == cheater \
                and self.me is not None and self.me not in att.expected_steps(k):
            cheated.append(k)
            att.open_step(k, None)  # every seat but the actor, after every action
        original(self, k)
    monkeypatch.setattr(HandPlay, "_contribute", contribute)
    pump = make_table(tmp_path, rounds=1)
    for i in range(4):
        pump.join(node_id(i))
    voids = [e for e in pump.shown[node_id(0)] if isinstance(e, Voided)]
    assert cheated and voids and voids[0].culprit == cheater, voids
    assert "may not send step" in voids[0].reason
    assert pump.done and 1 in pump.host.sheet.void  # the table goes on with the next deal


class _Watching:
    """A bot that, at every decision, notes the called card its observation shows and the card
    the declarer's own node (which knows its hand) has called."""

    def __init__(self, pump: Pump, node: str, seen: list[tuple[str, str]]) -> None:
        self.pump, self.node, self.seen = pump, node, seen
        self.bot = pump.players[node]

    def decide(self, obs: Observation) -> Action:
        if obs.called is not None and obs.declarer is not None:
            run = self.pump.seats[node_id(obs.declarer)].run
            virtual = run.play.virtual if run is not None else None
            assert virtual is not None
            real = virtual.hand.state.called
            self.seen.append((format_card(obs.called), format_card(real) if real is not None else "none"))
        assert self.bot is not None
        return self.bot.decide(obs)


@pytest.mark.parametrize(("variant", "deals"),
                         [("tarock40", 100), ("koenigrufen-club", 30), ("tarock54", 30)])
def test_at_a_commit_reveal_table_the_called_card_is_public_when_it_is_called(tmp_path: Path, variant: str,
                                                                              deals: int) -> None:
    """The called card is told in the step after the action that calls it, in every scheme:
    tarock40 calls it from the declarer's hand when the auction ends (nobody else can compute
    it), so with commit-reveal/1 (whose seats give no shares) the declarer owes that step too.
    No seat ever decides on another called card than the real one; so no partner says Kontra
    against its own declarer (an illegal action, named by the audit) and no deal is void.  The
    Königrufen variants call by an action (or with the bid): the extra step must not hurt them."""
    pump = make_table(tmp_path, variant=variant, rounds=deals, seed=2, dealing="commit-reveal/1")
    seen: list[tuple[str, str]] = []
    for i in range(4):
        pump.players[node_id(i)] = _Watching(pump, node_id(i), seen)  # type: ignore[assignment]
    with bounded(240, f"{deals} deals at a commit-reveal table"):
        for i in range(4):
            pump.join(node_id(i))
    voids = [v for v in pump.shown[node_id(0)] if isinstance(v, Voided)]
    assert pump.done and not pump.host.sheet.void, voids
    assert len(pump.host.sheet.counted) == deals
    assert seen and all(shown == real for shown, real in seen), [s for s in seen if s[0] != s[1]][:5]


@pytest.mark.parametrize("dealing", ("commit-reveal/1", "mental-poker/2"))
def test_a_declarer_that_keeps_its_called_card_back_is_named(tmp_path: Path, dealing: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The first declarer whose rules call a card tells it one step late (as commit-reveal
    seats did before they owed that step): the others acted on a card they could not know, so
    the audit names the declarer, the deal is void and the table goes on."""
    from tarock.net.virtual import VirtualHand

    facts = VirtualHand.facts
    kept: list[int] = []

    def late(self: VirtualHand) -> dict[str, str]:
        told = facts(self)
        if told and not kept:
            assert self.me is not None
            kept.append(self.me)
            self.called.pop(self.me)  # as if it never told it: it tells it at its next chance
            return {}
        return told
    monkeypatch.setattr(VirtualHand, "facts", late)
    pump = make_table(tmp_path, variant="tarock40", rounds=8, seed=2, dealing=dealing)
    with bounded(120, "a table with a declarer that keeps its called card back"):
        for i in range(4):
            pump.join(node_id(i))
    voids = [e for e in pump.shown[node_id(0)] if isinstance(e, Voided)]
    assert kept and voids, pump.log[-5:]
    assert voids[0].culprit == node_id(kept[0]) and "kept back its called card" in voids[0].reason, voids[0]
    assert pump.done


class _Rejoining:
    """Seat 0's bot, which reconnects node ``node`` (a new session) at its first decision of
    deal ``deal``."""

    def __init__(self, pump: Pump, node: str, deal: int, done: list[int]) -> None:
        self.pump, self.node, self.deal, self.done = pump, node, deal, done
        self.bot = pump.players[node_id(0)]

    def decide(self, obs: Observation) -> Action:
        run = self.pump.host.run
        if not self.done and run is not None and run.ctx.deal == self.deal:
            self.done.append(self.deal)
            self.pump.leave(self.node)
            self.pump.join(self.node)
        assert self.bot is not None
        return self.bot.decide(obs)


@pytest.mark.parametrize("dealing", ("mental-poker/2", "commit-reveal/1"))
def test_a_connected_seat_that_stalls_is_named_once_and_a_bot_plays_it(tmp_path: Path, dealing: str) -> None:
    """Seat 3 stays connected but never sends a step of the deal (its key, its commitment):
    the first deal is void naming it once, then a bot of the host's node plays its seat as
    for an away seat, and the table goes on; when its node connects again (here during deal
    2, no longer stalling) it plays its seat again from the next deal."""
    pump = make_table(tmp_path, rounds=4, timing=Timing(step=3.0, seat_timeout=30.0), dealing=dealing)
    staller = node_id(3)
    receive = pump.host.receive
    dropped: list[int] = []
    rejoined: list[int] = []

    def stall(node: str, body: object, now: float) -> list[Effect]:
        if node == staller and not rejoined and isinstance(body, Signed) and inner(body) == "dealing":
            dropped.append(body.deal)
            return []
        return receive(node, body, now)
    pump.host.receive = stall  # type: ignore[method-assign]
    pump.players[node_id(0)] = _Rejoining(pump, staller, 2, rejoined)  # type: ignore[assignment]
    with bounded(120, "a table with a seat that stalls"):
        for i in range(4):
            pump.join(node_id(i))
        assert dropped == [1] and not pump.host.sheet.void
        for _ in range(4):
            pump.tick(3.5)
    voids = [e for e in pump.shown[node_id(0)] if isinstance(e, Voided)]
    assert [v.deal for v in voids] == [1] and voids[0].culprit == staller, voids
    assert "stalled its step of the deal" in voids[0].reason
    assert pump.done and rejoined == [2], pump.log[-5:]
    assert dropped == [1]
    hands = [e for e in pump.shown[node_id(0)] if isinstance(e, HandOver)]
    assert [bool(e.bots) for e in hands] == [True, False, False, False]  # deal 2 by a bot, then seat 3
