"""Signatures: what this process made or already found good is remembered, and the memory
never makes a signature hold for other data or another key."""

from __future__ import annotations

from tarock.net import identity
from tarock.net.identity import Identity, verify


def _ids() -> tuple[Identity, Identity]:
    return Identity(bytes(range(32))), Identity(bytes(range(1, 33)))


def test_a_remembered_signature_holds_only_for_its_data_and_key() -> None:
    alice, bob = _ids()
    sig = alice.sign(b"the entry")
    assert verify(alice.public, b"the entry", sig)  # made here: remembered
    assert verify(alice.public, b"the entry", sig)
    assert not verify(alice.public, b"another entry", sig)
    assert not verify(bob.public, b"the entry", sig)
    forged = sig[:-2] + ("00" if sig[-2:] != "00" else "11")
    assert not verify(alice.public, b"the entry", forged)


def test_a_signature_made_elsewhere_is_checked_and_then_remembered() -> None:
    alice, _ = _ids()
    data = b"made by another process"
    sig = alice.sign(data)
    identity._verified.clear()  # as if another process had signed it
    assert verify(alice.public, data, sig)
    assert (alice.public, sig) in identity._verified
    assert not verify(alice.public, data + b"!", sig)


def test_the_memory_is_bounded_and_stays_right_past_its_bound() -> None:
    alice, _ = _ids()
    first = alice.sign(b"0")
    for i in range(1, identity.VERIFIED_KEPT + 10):
        alice.sign(str(i).encode())
    assert len(identity._verified) <= identity.VERIFIED_KEPT
    assert (alice.public, first) not in identity._verified
    assert verify(alice.public, b"0", first)  # forgotten, checked again
    assert not verify(alice.public, b"1", first)
