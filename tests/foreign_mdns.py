"""mDNS clients that are not ours, run inside lab hosts: Avahi's browser and BIND's dig.

Avahi needs its daemon and a D-Bus system bus. Both are started inside the lab host, on
a private bus socket, and the daemon in its own mount namespace with a private
``/run/avahi-daemon``, so neither touches the machine's own bus or a daemon of the
machine. The lab's teardown kills them with everything else in the namespace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from netns import Host, Proc

__all__ = ["Avahi", "dig", "start_avahi", "txt_from_presentation"]

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

AVAHI_CONFIG = """[server]
host-name={host_name}
use-ipv4=yes
use-ipv6=no
allow-interfaces={iface}
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
disable-publishing=yes
"""


@dataclass
class Avahi:
    host: Host
    env: dict[str, str]
    bus: Proc
    daemon: Proc

    def browse(self, service_type: str = "_tarock._tcp") -> Proc:
        """``avahi-browse -rp``: one parsable line per new ('+'), resolved ('=') or removed ('-') service."""
        return self.host.spawn(["avahi-browse", "-rp", service_type], env=self.env, name="avahi-browse")


def start_avahi(host: Host, workdir: Path, *, timeout: float = 20.0) -> Avahi:
    """Start a private D-Bus system bus and avahi-daemon inside ``host``."""
    workdir.mkdir(parents=True, exist_ok=True)
    socket = workdir / "bus"
    bus_config = workdir / "bus.conf"
    bus_config.write_text(BUS_CONFIG.format(socket=socket))
    avahi_config = workdir / "avahi.conf"
    avahi_config.write_text(AVAHI_CONFIG.format(host_name=f"tkavahi{host.index}", iface=host.iface))
    env = {"DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={socket}", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    bus = host.spawn(
        ["dbus-daemon", f"--config-file={bus_config}", "--nofork", "--print-address"], name="dbus"
    )
    bus.wait_for("^unix:", timeout=timeout)
    daemon_cmd = (
        "mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon && "
        f"exec avahi-daemon --no-drop-root --no-chroot --no-rlimits -f {avahi_config}"
    )
    daemon = host.spawn(["unshare", "--mount", "sh", "-c", daemon_cmd], env=env, name="avahi-daemon")
    daemon.wait_for("Server startup complete", timeout=timeout)
    return Avahi(host, env, bus, daemon)


def txt_from_presentation(text: str) -> bytes:
    """TXT strings as printed by dig or avahi-browse ("a=1" "b=2", \\DDD and \\X escapes) as wire data."""
    out = bytearray()
    for quoted in re.findall(r'"((?:[^"\\]|\\.)*)"', text):
        raw = bytearray()
        i = 0
        while i < len(quoted):
            if quoted[i] == "\\" and quoted[i + 1 : i + 4].isdigit() and len(quoted[i + 1 : i + 4]) == 3:
                raw.append(int(quoted[i + 1 : i + 4]))
                i += 4
            elif quoted[i] == "\\":
                raw += quoted[i + 1].encode()
                i += 2
            else:
                raw += quoted[i].encode()
                i += 1
        out.append(len(raw))
        out += raw
    return bytes(out)


DIG = ["dig", "-p", "5353", "+norecurse", "+time=2", "+tries=2", "+noall", "+answer", "+additional"]


def dig(host: Host, server: str, name: str, rtype: str) -> list[list[str]]:
    """BIND's dig, as a unicast query to a responder's mDNS port (RFC 6762 section 5.5).

    dig cannot take multicast answers (they come from the responder's own address, not
    224.0.0.251). Returns the records as [name, ttl, class, type, rdata]; fails the test
    when dig reports a malformed answer.
    """
    done = host.run([*DIG, f"@{server}", name, rtype], timeout=20)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "malformed" not in output and "extra bytes" not in output, output
    return [line.split(None, 4) for line in done.stdout.splitlines() if line and not line.startswith(";")]
