"""Signatures and token proofs: what this process made (or, for signatures, already found
good) is remembered, and the memory never makes one hold for anything else."""

from __future__ import annotations

import os

from tarock.net import identity, proofs
from tarock.net.identity import Identity, verify
from tarock.net.proofs import check_token, prove_token
from tarock.net.secp256k1 import SECP256K1 as GRP


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


def test_a_token_proof_made_here_is_remembered_and_holds_only_for_its_statement() -> None:
    x = GRP.random_scalar(os.urandom)
    y = GRP.base(x)
    c1 = GRP.base(GRP.random_scalar(os.urandom))
    t = GRP.mul(x, c1)
    proof = prove_token(GRP, b"ctx", x, y, c1, t, os.urandom)
    assert (GRP.name, b"ctx", y, c1, t) in proofs._made
    assert check_token(GRP, b"ctx", y, c1, t, proof)
    assert not check_token(GRP, b"other ctx", y, c1, t, proof)
    other = GRP.mul(GRP.random_scalar(os.urandom), c1)
    assert not check_token(GRP, b"ctx", y, c1, other, proof)
    c, z = proof
    assert not check_token(GRP, b"ctx", y, c1, t, (c, GRP.s_add(z, z)))
    proofs._made.clear()  # as if another process had made it: checked in full, and it holds
    assert check_token(GRP, b"ctx", y, c1, t, proof)
