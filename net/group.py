"""The prime-order groups of mental poker: what a group offers (:class:`Group`) and
``mental-poker/1``'s, the main subgroup of edwards25519 through libsodium
(:data:`ED25519`; ``mental-poker/2``'s is secp256k1, :mod:`net.secp256k1`).

Points are 32-byte canonical encodings of points of the subgroup of prime order
``L = 2^252 + 27742317777372353535851937790883648493`` (libsodium checks
``crypto_core_ed25519_is_valid_point``: canonical, on the curve, in that subgroup,
not of small order); scalars are 32-byte little-endian integers below ``L``.  A
point received from a peer is used only after :func:`point` accepted it.
Every hash to a scalar is SHA-512 of domain-separated parts, reduced mod ``L``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Literal, Protocol

import nacl.bindings as sodium
import nacl.exceptions

POINT_BYTES = 32
SCALAR_BYTES = 32
L = 2 ** 252 + 27742317777372353535851937790883648493
"""The order of the group."""
_HEX64 = re.compile(r"[0-9a-f]{64}")

IDENTITY = b"\x01" + b"\x00" * 31
"""The neutral element (never a valid point of a peer: it has small order)."""
G = sodium.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))
"""The generator (the ed25519 base point)."""

RandomBytes = Callable[[int], bytes]


class GroupError(ValueError):
    """A point or scalar that is not one of the group (what and why)."""


def valid(p: bytes) -> bool:
    """Whether ``p`` is a point of the group other than the identity."""
    return len(p) == POINT_BYTES and bool(sodium.crypto_core_ed25519_is_valid_point(p))


def point(text: object, what: str = "point") -> bytes:
    """A point from 64 lowercase hex digits, validated; GroupError otherwise."""
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        raise GroupError(f"{what} must be 64 lowercase hex digits")
    p = bytes.fromhex(text)
    if not valid(p):
        raise GroupError(f"{what} is not a point of the prime-order group")
    return p


def encoding(text: object, what: str = "point") -> bytes:
    """The 32 bytes of a point written as 64 lowercase hex digits, not yet validated
    (GroupError if it is not so written): for a point that is validated where it is
    used, by :func:`point` or by libsodium's scalar multiplication (:func:`mul`), which
    refuses what :func:`valid` refuses."""
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        raise GroupError(f"{what} must be 64 lowercase hex digits")
    return bytes.fromhex(text)


def parse_scalar(text: object, what: str, order: int, byteorder: Literal["little", "big"]) -> bytes:
    """32 bytes from 64 lowercase hex digits, read in ``byteorder`` below ``order``; GroupError otherwise."""
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        raise GroupError(f"{what} must be 64 lowercase hex digits")
    s = bytes.fromhex(text)
    if int.from_bytes(s, byteorder) >= order:
        raise GroupError(f"{what} is not reduced modulo the group order")
    return s


def scalar(text: object, what: str = "scalar") -> bytes:
    """A scalar from 64 lowercase hex digits (little-endian, below L); GroupError otherwise."""
    return parse_scalar(text, what, L, "little")


def reduce64(data: bytes) -> bytes:
    """64 bytes reduced modulo L (a uniform scalar from 64 uniform bytes)."""
    return bytes(sodium.crypto_core_ed25519_scalar_reduce(data))


def random_scalar(rand: RandomBytes) -> bytes:
    """A uniform non-zero scalar."""
    while True:
        s = reduce64(rand(64))
        if any(s):
            return s


def lp_sha512(*parts: bytes) -> bytes:
    """SHA-512 of the parts, each preceded by its length (4 bytes big-endian)."""
    h = hashlib.sha512()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


def hash_scalar(*parts: bytes) -> bytes:
    """SHA-512 of the length-prefixed parts (:func:`lp_sha512`), reduced mod L."""
    return reduce64(lp_sha512(*parts))


def base(s: bytes) -> bytes:
    """``s·G``; GroupError for the zero scalar."""
    try:
        return bytes(sodium.crypto_scalarmult_ed25519_base_noclamp(s))
    except nacl.exceptions.CryptoError:
        raise GroupError("the scalar is zero") from None


def mul(s: bytes, p: bytes) -> bytes:
    """``s·p``; GroupError when ``p`` is not a valid point or the product is the identity
    (libsodium validates ``p`` itself)."""
    try:
        return bytes(sodium.crypto_scalarmult_ed25519_noclamp(s, p))
    except nacl.exceptions.CryptoError:
        raise GroupError("scalar multiplication refused (invalid point or zero product)") from None


def add(p: bytes, q: bytes) -> bytes:
    try:
        return bytes(sodium.crypto_core_ed25519_add(p, q))
    except nacl.exceptions.CryptoError:
        raise GroupError("point addition refused") from None


def sub(p: bytes, q: bytes) -> bytes:
    try:
        return bytes(sodium.crypto_core_ed25519_sub(p, q))
    except nacl.exceptions.CryptoError:
        raise GroupError("point subtraction refused") from None


def s_add(a: bytes, b: bytes) -> bytes:
    return bytes(sodium.crypto_core_ed25519_scalar_add(a, b))


def s_sub(a: bytes, b: bytes) -> bytes:
    return bytes(sodium.crypto_core_ed25519_scalar_sub(a, b))


def s_mul(a: bytes, b: bytes) -> bytes:
    return bytes(sodium.crypto_core_ed25519_scalar_mul(a, b))


def hash_point(*parts: bytes) -> bytes:
    """A point of the group nobody knows the logarithm of: Elligator 2 on
    SHA-256 of the length-prefixed parts (``crypto_core_ed25519_from_uniform``,
    which clears the cofactor)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return bytes(sodium.crypto_core_ed25519_from_uniform(h.digest()))


class Group(Protocol):
    """What mental poker asks of a prime-order group (points and scalars as bytes; a
    point from a peer is used only once :meth:`point` accepted it, or through an
    operation that refuses what :meth:`point` refuses)."""

    name: str
    point_bytes: int
    order: int
    identity: bytes
    """The neutral element: never a valid point of a peer."""
    generator: bytes

    def valid(self, p: bytes) -> bool: ...
    def point(self, text: object, what: str = "point") -> bytes: ...
    def encoding(self, text: object, what: str = "point") -> bytes: ...
    def scalar(self, text: object, what: str = "scalar") -> bytes: ...
    def reduce64(self, data: bytes) -> bytes: ...
    def random_scalar(self, rand: RandomBytes) -> bytes: ...
    def hash_scalar(self, *parts: bytes) -> bytes: ...
    def hash_point(self, *parts: bytes) -> bytes: ...
    def base(self, s: bytes) -> bytes: ...
    def mul(self, s: bytes, p: bytes) -> bytes: ...
    def add(self, p: bytes, q: bytes) -> bytes: ...
    def sub(self, p: bytes, q: bytes) -> bytes: ...
    def base_minus(self, z: bytes, c: bytes, q: bytes) -> bytes:
        """``z·G - c·q``."""
    def mul_minus(self, z: bytes, p: bytes, c: bytes, q: bytes) -> bytes:
        """``z·p - c·q``."""
    def s_add(self, a: bytes, b: bytes) -> bytes: ...
    def s_mul(self, a: bytes, b: bytes) -> bytes: ...


class Edwards25519:
    """``mental-poker/1``'s group: this module's functions."""

    name = "edwards25519"
    point_bytes = POINT_BYTES
    order = L
    identity = IDENTITY
    generator = G

    def valid(self, p: bytes) -> bool:
        return valid(p)

    def point(self, text: object, what: str = "point") -> bytes:
        return point(text, what)

    def encoding(self, text: object, what: str = "point") -> bytes:
        return encoding(text, what)

    def scalar(self, text: object, what: str = "scalar") -> bytes:
        return scalar(text, what)

    def reduce64(self, data: bytes) -> bytes:
        return reduce64(data)

    def random_scalar(self, rand: RandomBytes) -> bytes:
        return random_scalar(rand)

    def hash_scalar(self, *parts: bytes) -> bytes:
        return hash_scalar(*parts)

    def hash_point(self, *parts: bytes) -> bytes:
        return hash_point(*parts)

    def base(self, s: bytes) -> bytes:
        return base(s)

    def mul(self, s: bytes, p: bytes) -> bytes:
        return mul(s, p)

    def add(self, p: bytes, q: bytes) -> bytes:
        return add(p, q)

    def sub(self, p: bytes, q: bytes) -> bytes:
        return sub(p, q)

    def base_minus(self, z: bytes, c: bytes, q: bytes) -> bytes:
        return sub(base(z), mul(c, q))

    def mul_minus(self, z: bytes, p: bytes, c: bytes, q: bytes) -> bytes:
        return sub(mul(z, p), mul(c, q))

    def s_add(self, a: bytes, b: bytes) -> bytes:
        return s_add(a, b)

    def s_mul(self, a: bytes, b: bytes) -> bytes:
        return s_mul(a, b)


ED25519: Group = Edwards25519()
"""``mental-poker/1``'s group."""
