"""Zero-knowledge proofs of mental poker, made non-interactive with Fiat–Shamir, in
any :class:`net.group.Group`.

* :func:`prove_key` / :func:`check_key`: a Schnorr proof that the sender knows
  the secret ``x`` of its per-hand key ``y = x·G``.
* :func:`prove_token` / :func:`check_token`: a Chaum–Pedersen proof that a reveal
  token ``t = x·C1`` uses the same secret as the key (``log_G y = log_C1 t``).

A proof is the pair ``(c, z)``: the challenge and the response.  Every challenge
hashes a context (the hand, the seat, the position) so a proof made for one
purpose is worth nothing for another.  Nonces are hedged: derived from the
secret, the statement and fresh random bytes.
"""

from __future__ import annotations

from tarock.net.group import Group, GroupError, RandomBytes

KEY_TAG = b"tarock-key-proof/1"
TOKEN_TAG = b"tarock-token-proof/1"
NONCE_TAG = b"tarock-nonce/1"

Proof = tuple[bytes, bytes]
"""``(c, z)``: two scalars."""

MADE_KEPT = 4096
"""How many token proofs this process made it remembers (a hand's log brings each back)."""

_made: dict[tuple[str, bytes, bytes, bytes, bytes], Proof] = {}
"""(group, context, key, C1, token) -> the proof this process made of it, oldest first."""


def _nonce(grp: Group, secret: bytes, statement: bytes, rand: RandomBytes) -> bytes:
    return grp.hash_scalar(NONCE_TAG, secret, statement, rand(32))


def prove_key(grp: Group, ctx: bytes, x: bytes, y: bytes, rand: RandomBytes) -> Proof:
    """Schnorr: ``R = k·G``, ``c = H(tag, ctx, y, R)``, ``z = k + c·x``."""
    k = _nonce(grp, x, ctx + y, rand)
    r = grp.base(k)
    c = grp.hash_scalar(KEY_TAG, ctx, y, r)
    return c, grp.s_add(k, grp.s_mul(c, x))


def check_key(grp: Group, ctx: bytes, y: bytes, proof: Proof) -> bool:
    """``R = z·G - c·y`` must give back ``c``; ``y`` validated by the caller."""
    c, z = proof
    try:
        r = grp.base_minus(z, c, y)
    except GroupError:
        return False
    return grp.hash_scalar(KEY_TAG, ctx, y, r) == c


def prove_token(grp: Group, ctx: bytes, x: bytes, y: bytes, c1: bytes, t: bytes, rand: RandomBytes) -> Proof:
    """Chaum–Pedersen: ``R1 = k·G``, ``R2 = k·C1``, ``c = H(tag, ctx, y, C1, t, R1, R2)``, ``z = k + c·x``."""
    k = _nonce(grp, x, ctx + c1, rand)
    r1, r2 = grp.base(k), grp.mul(k, c1)
    c = grp.hash_scalar(TOKEN_TAG, ctx, y, c1, t, r1, r2)
    proof = c, grp.s_add(k, grp.s_mul(c, x))
    if len(_made) >= MADE_KEPT:
        del _made[next(iter(_made))]
    _made[(grp.name, ctx, y, c1, t)] = proof
    return proof


def check_token(grp: Group, ctx: bytes, y: bytes, c1: bytes, t: bytes, proof: Proof) -> bool:
    """``R1 = z·G - c·y`` and ``R2 = z·C1 - c·t`` must give back ``c`` (the group's
    operations refuse a ``t`` that is no point of it).  A proof this process made holds
    without a check: the log brings every seat's own tokens back to it."""
    if _made.get((grp.name, ctx, y, c1, t)) == proof:
        return True
    c, z = proof
    try:
        r1 = grp.base_minus(z, c, y)
        r2 = grp.mul_minus(z, c1, c, t)
    except GroupError:
        return False
    return grp.hash_scalar(TOKEN_TAG, ctx, y, c1, t, r1, r2) == c


__all__ = ["Proof", "check_key", "check_token", "prove_key", "prove_token"]
