"""The prime-order group of mental poker: the main subgroup of edwards25519, through libsodium.

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


def scalar(text: object, what: str = "scalar") -> bytes:
    """A scalar from 64 lowercase hex digits (little-endian, below L); GroupError otherwise."""
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        raise GroupError(f"{what} must be 64 lowercase hex digits")
    s = bytes.fromhex(text)
    if int.from_bytes(s, "little") >= L:
        raise GroupError(f"{what} is not reduced modulo the group order")
    return s


def reduce64(data: bytes) -> bytes:
    """64 bytes reduced modulo L (a uniform scalar from 64 uniform bytes)."""
    return bytes(sodium.crypto_core_ed25519_scalar_reduce(data))


def random_scalar(rand: RandomBytes) -> bytes:
    """A uniform non-zero scalar."""
    while True:
        s = reduce64(rand(64))
        if any(s):
            return s


def hash_scalar(*parts: bytes) -> bytes:
    """SHA-512 of the parts, each preceded by its length (4 bytes big-endian), reduced mod L."""
    h = hashlib.sha512()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return reduce64(h.digest())


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
