"""``mental-poker/2``'s group: secp256k1 through libsecp256k1 (the ``coincurve`` binding).

Its cofactor is 1, so every point on the curve is in the group of prime order
``N``: validating a point is parsing it.  A point is its 33-byte compressed SEC1
encoding (``02`` or ``03``, then ``x``, 32 bytes big-endian), written as 66
lowercase hex digits; the neutral element has no such encoding (here: 33 zero
bytes, never valid).  A scalar is 32 bytes big-endian below ``N``.  Hashes to
scalars are SHA-512 of length-prefixed parts, reduced mod ``N``; a hash to a
point is try-and-increment on SHA-256 (nobody knows its logarithm).

It is here for speed: on this kind of machine a scalar multiplication of a
point received as bytes, validated, took about a third of libsodium's on
edwards25519 (which re-checks the subgroup at every multiplication), and a
token proof's check less than half (``tarock bench --net`` shows the dealing's
figures of both schemes).
"""

from __future__ import annotations

import functools
import hashlib
import re

from coincurve import PublicKey

from tarock.net.group import Group, GroupError, RandomBytes, lp_sha512, parse_scalar

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""The order of the group."""
P = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F
"""The field's prime."""
POINT_BYTES = 33
IDENTITY = bytes(POINT_BYTES)
_HEX_POINT = re.compile(r"(?:02|03)[0-9a-f]{64}")
_FLIP = {2: 3, 3: 2}


@functools.lru_cache(maxsize=4096)
def _parsed(p: bytes) -> PublicKey:
    """The point, parsed once (a key, the joint key and the deck's points are used many
    times); ValueError when ``p`` is no point of the curve."""
    return PublicKey(p)


def _key(p: bytes) -> PublicKey:
    try:
        return _parsed(p)
    except (ValueError, TypeError):
        raise GroupError("not a point of secp256k1") from None


def _neg_scalar(s: bytes) -> bytes:
    return ((N - int.from_bytes(s, "big")) % N).to_bytes(32, "big")


def _combine(keys: list[PublicKey]) -> bytes:
    try:
        return bytes(PublicKey.combine_keys(keys).format())
    except ValueError:
        raise GroupError("the sum is the neutral element") from None


class Secp256k1:
    """The group (see the module docstring)."""

    name = "secp256k1"
    point_bytes = POINT_BYTES
    order = N
    identity = IDENTITY
    generator = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")

    def valid(self, p: bytes) -> bool:
        if len(p) != POINT_BYTES or p[0] not in _FLIP:
            return False
        try:
            _parsed(p)
        except (ValueError, TypeError):
            return False
        return True

    def encoding(self, text: object, what: str = "point") -> bytes:
        if not isinstance(text, str) or not _HEX_POINT.fullmatch(text):
            raise GroupError(f"{what} must be 66 lowercase hex digits, starting 02 or 03")
        return bytes.fromhex(text)

    def point(self, text: object, what: str = "point") -> bytes:
        p = self.encoding(text, what)
        if not self.valid(p):
            raise GroupError(f"{what} is not a point of the prime-order group")
        return p

    def scalar(self, text: object, what: str = "scalar") -> bytes:
        return parse_scalar(text, what, N, "big")

    def reduce64(self, data: bytes) -> bytes:
        return (int.from_bytes(data, "big") % N).to_bytes(32, "big")

    def random_scalar(self, rand: RandomBytes) -> bytes:
        while True:
            s = self.reduce64(rand(64))
            if any(s):
                return s

    def hash_scalar(self, *parts: bytes) -> bytes:
        return self.reduce64(lp_sha512(*parts))

    def hash_point(self, *parts: bytes) -> bytes:
        """The point ``02 || x`` for the first counter ``i`` (one byte, from 0) for which
        ``x = SHA-256(lp(parts) || i)`` is below ``P`` and on the curve."""
        prefix = b"".join(len(part).to_bytes(4, "big") + part for part in parts)
        for i in range(256):
            x = hashlib.sha256(prefix + bytes([i])).digest()
            candidate = b"\x02" + x
            if int.from_bytes(x, "big") < P and self.valid(candidate):
                return candidate
        raise GroupError("no point found")  # pragma: no cover - a chance of 2^-256

    def base(self, s: bytes) -> bytes:
        try:
            return bytes(PublicKey.from_secret(s).format())
        except ValueError:
            raise GroupError("the scalar is zero or not below the group order") from None

    def mul(self, s: bytes, p: bytes) -> bytes:
        key = _key(p)
        try:
            return bytes(key.multiply(s).format())
        except ValueError:
            raise GroupError("scalar multiplication refused (zero scalar)") from None

    def add(self, p: bytes, q: bytes) -> bytes:
        if p == IDENTITY:
            return bytes(_key(q).format())
        if q == IDENTITY:
            return bytes(_key(p).format())
        return _combine([_key(p), _key(q)])

    def sub(self, p: bytes, q: bytes) -> bytes:
        return self.add(p, self._neg(q))

    def _neg(self, q: bytes) -> bytes:
        if q == IDENTITY:
            return q
        _key(q)
        return bytes([_FLIP[q[0]]]) + q[1:]

    def base_minus(self, z: bytes, c: bytes, q: bytes) -> bytes:
        key = _key(q)
        try:
            return bytes(key.multiply(_neg_scalar(c)).add(z).format())
        except ValueError:
            raise GroupError("refused (a zero scalar or the neutral element)") from None

    def mul_minus(self, z: bytes, p: bytes, c: bytes, q: bytes) -> bytes:
        kp, kq = _key(p), _key(q)
        try:
            return _combine([kp.multiply(z), kq.multiply(_neg_scalar(c))])
        except ValueError:
            raise GroupError("refused (a zero scalar)") from None

    def s_add(self, a: bytes, b: bytes) -> bytes:
        return ((int.from_bytes(a, "big") + int.from_bytes(b, "big")) % N).to_bytes(32, "big")

    def s_mul(self, a: bytes, b: bytes) -> bytes:
        return ((int.from_bytes(a, "big") * int.from_bytes(b, "big")) % N).to_bytes(32, "big")


SECP256K1: Group = Secp256k1()
"""``mental-poker/2``'s group."""
