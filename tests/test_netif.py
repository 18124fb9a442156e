"""net.netif: which interfaces mDNS uses and which addresses are advertised."""

from __future__ import annotations

import pytest

from tarock.net.netif import Interface, choose_network, list_interfaces

LO = Interface("lo", "127.0.0.1", up=True, multicast=False, loopback=True)
ETH = Interface("eth0", "192.0.2.20", up=True, multicast=True, loopback=False)
WLAN = Interface("wlan0", "198.51.100.7", up=True, multicast=True, loopback=False)
DOWN = Interface("eth1", "203.0.113.2", up=False, multicast=True, loopback=False)
NO_MCAST = Interface("tun0", "203.0.113.9", up=True, multicast=False, loopback=False)


def test_all_real_interfaces_and_not_lo() -> None:
    choice = choose_network(available=[LO, ETH, WLAN, DOWN, NO_MCAST])
    assert choice.bind == ("192.0.2.20", "198.51.100.7")
    assert choice.advertise == choice.bind
    assert not choice.loopback_only


def test_loopback_only_machine_uses_and_advertises_loopback() -> None:
    choice = choose_network(available=[LO, DOWN])
    assert choice.bind == ("127.0.0.1",)
    assert choice.advertise == ("127.0.0.1",)
    assert choice.loopback_only


def test_no_interfaces_at_all_falls_back_to_loopback() -> None:
    assert choose_network(available=[]).bind == ("127.0.0.1",)


def test_interfaces_by_name_or_address() -> None:
    assert choose_network(["wlan0"], available=[LO, ETH, WLAN]).bind == ("198.51.100.7",)
    assert choose_network(["192.0.2.20", "eth0"], available=[LO, ETH, WLAN]).bind == ("192.0.2.20",)
    choice = choose_network(["lo"], available=[LO, ETH])
    assert choice.loopback_only and choice.advertise == ("127.0.0.1",)


def test_lo_chosen_with_a_real_interface_is_not_advertised() -> None:
    choice = choose_network(["lo", "eth0"], available=[LO, ETH])
    assert choice.bind == ("127.0.0.1", "192.0.2.20")
    assert choice.advertise == ("192.0.2.20",)


def test_unknown_interface_names_the_ones_there_are() -> None:
    with pytest.raises(ValueError, match=r"no IPv4 interface 'eth9'.*eth0 \(192\.0\.2\.20\)"):
        choose_network(["eth9"], available=[LO, ETH])


def test_advertised_addresses_can_be_given() -> None:
    choice = choose_network(available=[ETH], addresses=["192.0.2.99"])
    assert choice.bind == ("192.0.2.20",) and choice.advertise == ("192.0.2.99",)
    with pytest.raises(ValueError, match="IPv6 is not supported yet"):
        choose_network(available=[ETH], addresses=["::1"])
    with pytest.raises(ValueError, match="empty"):
        choose_network(available=[ETH], addresses=[])


def test_this_machine_has_loopback() -> None:
    found = list_interfaces()
    assert any(i.loopback and i.address.startswith("127.") for i in found)
