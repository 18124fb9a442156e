"""The table cores wired directly (tests/net_pump.py): whole tables, away seats, a
lying host, host loss with take-over, and random bodies against the host."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_pump import Pump, make_table, node_id

from client.bots import make_bot
from core.record import load, replay
from net.effects import HandOver, Voided
from net.game import Sheet
from net.host import HostCore
from net.protocol.limits import Timing
from net.protocol.messages import Body, HandEnd, MessageError, View, parse
from net.store import Store


def records(tmp: Path, i: int) -> list[bytes]:
    return [p.read_bytes() for p in sorted((tmp / f"records{i}").glob("*.json"))]


def test_a_table_of_four_and_a_watcher_end_with_identical_records(tmp_path: Path) -> None:
    pump = make_table(tmp_path, rounds=3, watchers=1)
    for i in range(5):
        pump.join(node_id(i))
    assert pump.done and all(leave.code == "done" for leave in pump.left.values())
    first = records(tmp_path, 0)
    assert len(first) >= 3 and all(records(tmp_path, i) == first for i in range(5))
    for path in sorted((tmp_path / "records0").glob("*.json")):
        rep = replay(load(path))  # the files are ordinary records for tarock replay
        assert rep.error_index is None and rep.hand is not None and rep.hand.done
    assert pump.host.sheet.table.totals == pump.seats[node_id(0)].sheet.table.totals  # type: ignore[union-attr]


def test_an_away_seat_is_played_by_a_bot_and_the_record_says_so(tmp_path: Path) -> None:
    pump = make_table(tmp_path, rounds=2, timing=Timing(seat_timeout=5.0))
    away = node_id(3)

    def vanish(to: str, body: Body) -> Body | None:
        # The fourth seat's link dies silently as its first observation arrives.
        if to == away and isinstance(body, View):
            pump.connected.discard(away)
            return None
        return body
    pump.tamper = vanish
    for i in range(4):
        pump.join(node_id(i))
    pump.run(pump.host.disconnected(away, pump.now))
    before = pump.sent
    pump.tick(1.0)
    assert not pump.done
    pump.tick(5.0)
    assert pump.done, pump.log[-5:]
    assert pump.sent > before
    shown = [e for e in pump.shown[node_id(0)] if isinstance(e, HandOver)]
    assert shown and all(e.bots for e in shown)
    data = json.loads(records(tmp_path, 0)[0])
    bots = data["net"]["bots"]
    assert bots and all(data["actions"][i]["seat"] == 3 for i in bots)
    assert set(data["net"]["opening"]["drawn_by_host"]) <= {3}


def test_a_returning_seat_plays_again(tmp_path: Path) -> None:
    pump = make_table(tmp_path, rounds=2, timing=Timing(seat_timeout=1.0))
    for i in range(4):
        pump.join(node_id(i))
    assert pump.done  # bots play instantly in the pump; make a fresh one that drops mid-way
    pump2 = make_table(tmp_path / "b", rounds=2, timing=Timing(seat_timeout=1.0), seed=3)
    for i in range(3):
        pump2.join(node_id(i))
    pump2.join(node_id(3))
    assert pump2.done


def _lying(field: str) -> object:
    def tamper(to: str, body: Body) -> Body | None:
        if isinstance(body, HandEnd) and body.deal == 1:  # only the first deal's record lies
            record = copy.deepcopy(body.record)
            if field == "hands":  # swap a card between two hands
                record["hands"][0][0], record["hands"][1][0] = record["hands"][1][0], record["hands"][0][0]
            elif field == "seed":
                record["net"]["opening"]["seeds"][1] = "00" * 32
            elif field == "action":
                record["actions"] = record["actions"][:-1]
            return HandEnd(body.epoch, body.deal, record)
        return body
    return tamper


def test_a_host_that_lies_in_the_record_is_caught_and_named(tmp_path: Path) -> None:
    cases = (("hands", ("not the deal the seeds imply", "does not replay")),
             ("seed", ("does not match its commitment",)), ("action", ("not over",)))
    for field, why in cases:
        pump = make_table(tmp_path / field, rounds=1)
        pump.tamper = _lying(field)  # type: ignore[assignment]
        for i in range(4):
            pump.join(node_id(i))
            if pump.done:
                break
        voids = [e for e in pump.shown[node_id(1)] if isinstance(e, Voided)]
        assert voids, (field, pump.log[-3:])
        assert voids[0].culprit == pump.host.me, (field, voids[0])
        assert any(w in voids[0].reason for w in why), (field, voids[0])
        assert 1 in pump.host.sheet.void and 1 not in pump.host.sheet.finished
        assert not list((tmp_path / field / "records1").glob("*-d001.json"))  # the void deal has no file


def test_a_false_observation_is_caught_at_the_end(tmp_path: Path) -> None:
    """The host shows seat 2 a card it does not hold: the seat's check fails against the record."""
    shown: list[int] = []

    def tamper(to: str, body: Body) -> Body | None:
        if isinstance(body, View) and to == node_id(2) and not shown and body.deal == 1:
            obs = copy.deepcopy(body.obs)
            hand = obs["hand"]
            if hand and hand[0] != "XXI":
                hand[0] = "XXI" if "XXI" not in hand else "I"
                shown.append(1)
                return View(body.epoch, body.deal, obs)
        return body
    pump = make_table(tmp_path, rounds=1)
    pump.tamper = tamper
    for i in range(4):
        pump.join(node_id(i))
        if pump.done:
            break
    voids = [e for e in pump.shown.get(node_id(2), []) if isinstance(e, Voided)]
    assert shown and voids and "observation" in voids[0].reason and voids[0].culprit == pump.host.me


def _take_over(pump: Pump, successor: str, tmp: Path) -> Pump:
    """What net.node.Node.take_over does: the successor hosts at epoch + 1."""
    seat = pump.seats[successor]
    assert seat.info is not None and seat.game is not None and seat.sheet is not None
    sheet = Sheet(seat.game.new_table())
    for deal in sorted(seat.sheet.finished):
        sheet.finished[deal] = seat.sheet.finished[deal]
        seat.game.sheet_add(sheet.table, seat.sheet.finished[deal])
    host = HostCore(seat.game, seat.info, successor, Store(tmp / "new-host.sqlite"), now=pump.now,
                    epoch=seat.epoch + 1, roster=seat.roster, sheet=sheet, takeover=True,
                    last_deal=seat.deal, timing=pump.host.timing,
                    bot_for=lambda s: make_bot("heuristic", 77 + s, f"sub{s}"))
    return Pump(host, pump.seats, pump.players, now=pump.now)


def test_host_loss_voids_the_deal_in_progress_and_the_table_goes_on(tmp_path: Path) -> None:
    pump = make_table(tmp_path, rounds=3, timing=Timing(seat_timeout=2.0, gather=4.0))
    stop = {"after": 0}

    def lose_the_host(to: str, body: Body) -> Body | None:
        # After the first hand is counted, the host dies in the middle of the second deal.
        if isinstance(body, View) and body.deal == 2 and len(body.obs.get("history", [])) >= 6:
            stop["after"] += 1
            return None
        return body
    pump.tamper = lose_the_host
    for i in range(4):
        pump.join(node_id(i))
    assert not pump.done and pump.host.sheet.done == 1
    old_host = pump.host.me
    new = _take_over(pump, node_id(1), tmp_path)
    for node in (node_id(1), node_id(2), node_id(3)):  # the old host's node (seat 0) is gone
        new.join(node)
    new.tick(2.5)   # the lost host's seat is played by a bot
    new.tick(4.5)   # gathering is over
    assert new.done, new.log[-6:]
    assert new.host.epoch == 2 and new.host.sheet.void == {2}
    sheet = new.host.sheet
    assert len(sheet.table.rows) == 3 and 2 not in sheet.finished
    deals = sorted(sheet.finished)
    assert deals[0] == 1 and len(set(deals)) == len(deals)  # no deal counted twice
    for i in (1, 2, 3):
        assert records(tmp_path, i) == records(tmp_path, 1)
    assert old_host != new.host.me


def test_a_record_only_a_seat_holds_reaches_the_new_host(tmp_path: Path) -> None:
    """The old host sent the first hand's record to seat 2 only, then died: the new host
    (seat 1) learns it from seat 2 and counts it once."""
    pump = make_table(tmp_path, rounds=2, timing=Timing(seat_timeout=2.0, gather=4.0))

    def only_to_seat_2(to: str, body: Body) -> Body | None:
        if isinstance(body, HandEnd) and to != node_id(2):
            return None
        if body.tag in ("begin", "view") and getattr(body, "deal", 0) >= 2:
            return None
        return body
    pump.tamper = only_to_seat_2
    for i in range(4):
        pump.join(node_id(i))
    assert pump.seats[node_id(2)].done == 1 and pump.seats[node_id(1)].done == 0
    new = _take_over(pump, node_id(1), tmp_path)
    for node in (node_id(1), node_id(2), node_id(3)):
        new.join(node)
    new.tick(2.5)
    new.tick(4.5)
    assert new.done, new.log[-6:]
    assert 1 in new.host.sheet.finished and 1 not in new.host.sheet.void
    assert records(tmp_path, 1) == records(tmp_path, 2) == records(tmp_path, 3)


def test_a_node_that_missed_the_last_record_gets_it_from_the_successor(tmp_path: Path) -> None:
    """The old host's own seat never got the second hand's record before the host died; every
    other seat counted it.  The successor (seat 1) starts from its seat's sheet with a new store,
    and the old host's node, rejoining, is sent that record: one table, identical records."""
    pump = make_table(tmp_path, rounds=3, timing=Timing(seat_timeout=2.0, gather=4.0))

    def host_dies_after_deal_2(to: str, body: Body) -> Body | None:
        if isinstance(body, HandEnd) and body.deal == 2 and to == node_id(0):
            return None
        if body.tag in ("begin", "view", "dealing") and getattr(body, "deal", 0) >= 3:
            return None
        return body
    pump.tamper = host_dies_after_deal_2
    for i in range(4):
        pump.join(node_id(i))
    assert pump.seats[node_id(0)].done == 1 and pump.seats[node_id(1)].done == 2
    new = _take_over(pump, node_id(1), tmp_path)
    for i in range(4):
        new.join(node_id(i))
    new.tick(2.5)
    new.tick(4.5)
    assert new.done, new.log[-6:]
    assert sorted(new.seats[node_id(0)].sheet.finished) == sorted(new.host.sheet.finished)
    assert records(tmp_path, 0) == records(tmp_path, 1) == records(tmp_path, 2) == records(tmp_path, 3)


def _frozen(pump: Pump) -> str:
    host = pump.host
    run = host.run
    actions = [str(a) for a in run.hand.state.actions] if run and run.hand else []
    return json.dumps([host.phase, host.sheet.done, sorted(host.sheet.void), actions,
                       [c.info.node if c.info else None for c in host.chairs]])


plain = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-5, max_value=2 ** 53) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12)
FIELDS = ["epoch", "deal", "index", "action", "payload", "ok", "culprit", "reason", "record", "seat", "obs"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["act", "dealing", "checked", "record", "view", "seated", "begin", "void", "x"]),
       st.dictionaries(st.sampled_from(FIELDS), plain, max_size=6))
def test_random_bodies_change_nothing(tmp_path: Path, tag: str, fields: dict[str, object]) -> None:
    pump = FUZZ.get("pump")
    if pump is None:
        pump = make_table(tmp_path, rounds=1)
        pump.players[node_id(3)] = None
        for i in range(4):
            pump.join(node_id(i))
        FUZZ["pump"] = pump
    before = _frozen(pump)
    try:
        msg = parse({**fields, "t": tag}, "body")
    except MessageError:
        return
    effects = pump.host.receive(node_id(3), msg, pump.now)  # type: ignore[arg-type]
    allowed = ("refused", "void", "begin", "view", "dealing", "hand-end")
    assert all(not hasattr(e, "body") or e.body.tag in allowed for e in effects)
    if tag != "checked":
        assert _frozen(pump) == before


FUZZ: dict[str, Pump] = {}



def test_a_host_cut_off_from_most_of_the_table_plays_nothing_alone(tmp_path: Path) -> None:
    """Three of four nodes out of reach: no bot plays their seats, whatever the time; one
    returns (two of four, with the roster's first node): bots play the other two."""
    pump = make_table(tmp_path, rounds=1, timing=Timing(seat_timeout=1.0))
    gone = [node_id(1), node_id(2), node_id(3)]

    def vanish(to: str, body: Body) -> Body | None:
        if to in gone and isinstance(body, View):
            pump.connected.discard(to)
            return None
        return body
    pump.tamper = vanish
    for i in range(4):
        pump.join(node_id(i))
    for node in gone:
        pump.run(pump.host.disconnected(node, pump.now))
    before = _frozen(pump)
    assert not pump.host.quorum()
    pump.tick(5.0)
    pump.tick(50.0)
    assert _frozen(pump) == before and not pump.done
    gone.remove(node_id(1))
    pump.tamper = vanish
    pump.join(node_id(1))
    assert pump.host.quorum()
    pump.tick(2.0)
    assert pump.done, pump.log[-4:]
