"""mDNS discovery between real processes in network namespaces (tests/discovery_peer.py).

Bounds are generous (the machine is shared); measured figures come from
``python tests/bench_discovery.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from foreign_mdns import dig, start_avahi, txt_from_presentation
from netns import Host, Lab, Proc

from tarock.net.advert import TXT_VERSION, advert_from_txt
from tarock.net.txt import decode_txt

PY = sys.executable
PEER = str(Path(__file__).resolve().parent / "discovery_peer.py")
SEE_WITHIN = 15.0


def node_id(i: int) -> str:
    return f"{i:02x}" * 8


def start_peer(host: Host, i: int, *extra: str) -> Proc:
    proc = host.spawn(
        [PY, PEER, "--node", node_id(i), "--name", f"bot{i}", "--lifetime", "120", *extra], name=f"peer{i}"
    )
    return proc


def wait_event(
    proc: Proc, kind: str, node: str, *, timeout: float = SEE_WITHIN, start: int = 0
) -> dict[str, object]:
    return proc.wait_for_json(
        lambda j: j["event"] == kind and j.get("node") == node, timeout=timeout, start=start
    )


def test_four_hosts_find_each_other_see_restarts_and_goodbyes() -> None:
    with Lab(4) as lab:
        peers = [start_peer(host, i) for i, host in enumerate(lab)]
        for i, proc in enumerate(peers):
            ready = proc.wait_for_json(lambda j: j["event"] == "ready", timeout=SEE_WITHIN)
            assert ready["advertise"] == [lab[i].address]  # eth0 only, not lo
        for i, proc in enumerate(peers):
            for j in range(4):
                if j != i:
                    added = wait_event(proc, "added", node_id(j))
                    assert added["addresses"] == [lab[j].address]
                    assert added["port"] == 7654 and added["name"] == f"bot{j}"
        # Nobody lists itself.
        for i, proc in enumerate(peers):
            changes = [e for e in proc.json_lines() if e["event"] in ("added", "updated", "removed")]
            assert all(e["node"] != node_id(i) for e in changes)

        # SIGKILL leaves stale records behind; the restarted node's new boot nonce updates them.
        marks = [len(p.lines()) for p in peers]
        old_boot = peers[3].json_lines()[0]
        peers[3].kill()
        peers[3] = peers[3].restart()
        boot = peers[3].wait_for_json(lambda j: j["event"] == "ready", timeout=SEE_WITHIN)["boot"]
        assert boot != old_boot.get("boot")
        for proc, mark in zip(peers[:3], marks, strict=False):
            updated = wait_event(proc, "updated", node_id(3), start=mark)
            assert updated["boot"] == boot
        for j in range(3):  # and the restarted node finds the others again
            wait_event(peers[3], "added", node_id(j))

        # A clean close sends goodbyes: the others drop the node at once.
        marks = [len(p.lines()) for p in peers]
        assert peers[1].terminate() == 0
        assert peers[1].json_lines()[-1]["event"] == "closed"
        for k in (0, 2, 3):
            wait_event(peers[k], "removed", node_id(1), timeout=5, start=marks[k])


def test_changed_advert_withdraw_and_publish_again() -> None:
    with Lab(2) as lab:
        a, b = start_peer(lab[0], 0), start_peer(lab[1], 1)
        wait_event(b, "added", node_id(0))

        def command(text: str) -> int:
            mark = len(b.lines())
            a.send(text + "\n")
            a.wait_for_json(lambda j: j["event"] == "done" and j["command"] == text, timeout=SEE_WITHIN)
            return mark

        mark = command("free 1")
        assert wait_event(b, "updated", node_id(0), start=mark)["free"] == 1
        mark = command("withdraw")
        wait_event(b, "removed", node_id(0), timeout=5, start=mark)
        mark = command("publish")
        assert wait_event(b, "added", node_id(0), start=mark)["free"] == 1
        assert a.alive and b.alive


def test_malformed_adverts_from_a_peer_are_ignored_with_a_log_line() -> None:
    bad_txts = {
        0xE1: "00",  # an empty TXT record: no txtvers
        0xE2: "097478747665727333",  # 'txtvers3' claims 9 bytes, 8 follow: truncated
        0xE3: "0974787476657273",  # length 9, then only 8 bytes
        0xE4: "0974787476657273 3d 32".replace(" ", ""),  # txtvers=2: a version we do not read
    }
    with Lab(3) as lab:
        watcher = start_peer(lab[0], 0)
        watcher.wait_for_json(lambda j: j["event"] == "ready", timeout=SEE_WITHIN)
        rogues = [
            lab[1].spawn(
                [PY, PEER, "--node", f"{n:02x}" * 8, "--rogue-txt", txt, "--lifetime", "60"],
                name=f"rogue{n:x}",
            )
            for n, txt in bad_txts.items()
        ]
        for rogue in rogues:
            rogue.wait_for_json(lambda j: j["event"] == "ready", timeout=SEE_WITHIN)
        reasons = {}
        for n in bad_txts:
            pattern = re.escape(f"ignored the advert of tarock-{f'{n:02x}' * 8}._tarock")
            line = watcher.wait_for(pattern, timeout=SEE_WITHIN)
            reasons[n] = line.split(": ", 2)[-1]
        assert "'txtvers' is missing" in reasons[0xE1]
        assert "malformed TXT record" in reasons[0xE2] and "malformed TXT record" in reasons[0xE3]
        assert "unsupported txtvers '2'" in reasons[0xE4]
        # Discovery goes on: a good peer that comes later is seen, the rogues never are.
        late = start_peer(lab[2], 2)
        wait_event(watcher, "added", node_id(2))
        assert watcher.alive and late.alive
        assert {e.get("node") for e in watcher.json_lines() if e["event"] == "added"} == {node_id(2)}


def test_loopback_only_host_discovers_on_lo() -> None:
    with Lab(1) as lab:
        lab[0].run(["ip", "link", "set", "eth0", "down"], timeout=10)
        a = start_peer(lab[0], 0)
        b = start_peer(lab[0], 1)
        for proc, other in ((a, 1), (b, 0)):
            assert proc.wait_for_json(lambda j: j["event"] == "ready", timeout=SEE_WITHIN)["advertise"] == [
                "127.0.0.1"
            ]
            assert wait_event(proc, "added", node_id(other))["addresses"] == ["127.0.0.1"]


def test_no_multicast_route_still_works_with_explicit_interfaces() -> None:
    # zeroconf's InterfaceChoice.Default fails with ENODEV here (no default or multicast route).
    with Lab(2, multicast_route=False) as lab:
        a, b = (start_peer(host, i) for i, host in enumerate(lab))
        wait_event(a, "added", node_id(1))
        wait_event(b, "added", node_id(0))


# -- mDNS clients that are not ours ---------------------------------------------------------


def test_avahi_browses_and_resolves_our_adverts_and_sees_goodbyes(tmp_path: Path) -> None:
    with Lab(4) as lab:
        avahi = start_avahi(lab[3], tmp_path / "avahi")
        peers = [
            start_peer(lab[i], i, "--name", f"Spieler {i} äöü", "--port", str(7000 + i)) for i in range(3)
        ]
        for proc in peers:
            proc.wait_for_json(lambda j: j["event"] == "ready", timeout=SEE_WITHIN)
        browser = avahi.browse()
        resolved: dict[str, list[str]] = {}

        def all_resolved(line: str) -> bool:
            if line.startswith("=;"):
                fields = line.split(";", 9)
                resolved[fields[3]] = fields
            return len(resolved) == 3

        browser.wait_for(all_resolved, timeout=SEE_WITHIN)
        for i in range(3):
            fields = resolved[f"tarock-{node_id(i)}"]
            iface, proto, _, stype, domain, hostname, address, port, txt = fields[1:]
            assert (iface, proto, stype, domain) == ("eth0", "IPv4", "_tarock._tcp", "local")
            assert hostname == f"tarock-{node_id(i)}.local"
            assert (address, port) == (lab[i].address, str(7000 + i))
            # avahi prints the TXT strings in reverse order; the set of entries is what counts.
            entries = txt_from_presentation(txt)
            advert = advert_from_txt(entries, port=int(port))
            assert (advert.node_id, advert.name) == (node_id(i), f"Spieler {i} äöü")
        mark = len(browser.lines())
        assert peers[0].terminate() == 0
        browser.wait_for(rf"^-;eth0;IPv4;tarock-{node_id(0)};_tarock\._tcp;local$", timeout=5, start=mark)


def test_bind_dig_reads_our_records() -> None:
    with Lab(2) as lab:
        peer = start_peer(lab[0], 5, "--port", "7777")
        peer.wait_for_json(lambda j: j["event"] == "ready", timeout=SEE_WITHIN)
        server, client = lab[0].address, lab[1]
        instance = f"tarock-{node_id(5)}._tarock._tcp.local."

        ptr = dig(client, server, "_tarock._tcp.local", "PTR")
        assert ["_tarock._tcp.local.", ptr[0][1], "IN", "PTR", instance] in ptr

        srv = [r for r in dig(client, server, instance, "SRV") if r[3] == "SRV"]
        assert len(srv) == 1
        _, _, port, target = srv[0][4].split()
        assert port == "7777" and target == f"tarock-{node_id(5)}.local."

        records = [r for r in dig(client, server, instance, "TXT") if r[3] == "TXT"]
        assert len(records) == 1
        data = txt_from_presentation(records[0][4])
        assert next(iter(decode_txt(data))) == "txtvers"  # RFC 6763 6.7: txtvers first
        assert decode_txt(data)["txtvers"] == str(TXT_VERSION).encode()
        advert = advert_from_txt(data, port=int(port))
        assert (advert.node_id, advert.name, advert.kind) == (node_id(5), "bot5", "waiting")

        a = [r for r in dig(client, server, target, "A") if r[3] == "A"]
        assert [r[4] for r in a] == [server]  # only the real address, not 127.0.0.1


def test_txt_presentation_parser() -> None:
    assert decode_txt(txt_from_presentation('"txtvers=1" "name=Gr\\195\\188n\\"au"')) == {
        "txtvers": b"1",
        "name": 'Grün"au'.encode(),
    }
    assert txt_from_presentation('"a=ü" "b"') == b"\x04a=\xc3\xbc\x01b"
