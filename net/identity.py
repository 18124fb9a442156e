"""A node's identity: a persistent Ed25519 key, the node id made of it, signatures.

The node id is the first 16 bytes of SHA-256(``"tarock-node/1"`` || public key),
in hex: a node cannot claim another's id without its key.  Every body is a
:class:`~net.protocol.messages.Signed` envelope; its signature covers the
canonical JSON of every other field (:func:`signed_bytes`), and its hash
(:func:`envelope_hash`) chains a sender's messages within a hand.  The roster
fingerprint (:func:`fingerprint`) is a short text the players can compare to see
that they all sit at the same table with the same keys.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import nacl.exceptions
import nacl.signing

NODE_TAG = b"tarock-node/1"
SIG_TAG = b"tarock-sig/1\x00"
HASH_TAG = b"tarock-msg/1\x00"
ROSTER_TAG = b"tarock-roster/1"
LOCAL_TAG = b"tarock-local-seat/1"

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")


class IdentityError(ValueError):
    """A key, node id or signature that does not hold."""


def canonical_bytes(value: object) -> bytes:
    """Canonical JSON: keys sorted by code point, no whitespace, UTF-8, no floats."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")


def node_of(public: bytes) -> str:
    """The node id of a public key."""
    return hashlib.sha256(NODE_TAG + public).digest()[:16].hex()


def public_key(text: object) -> bytes:
    """A public key from 64 lowercase hex digits; IdentityError otherwise."""
    if not isinstance(text, str) or not _HEX64.fullmatch(text):
        raise IdentityError("a public key must be 64 lowercase hex digits")
    return bytes.fromhex(text)


class Identity:
    """A node's signing key (32-byte seed) and what follows from it."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) != 32:
            raise IdentityError("an identity seed is 32 bytes")
        self.seed = seed
        self._key = nacl.signing.SigningKey(seed)
        self.public = bytes(self._key.verify_key)
        self.node = node_of(self.public)

    @property
    def key(self) -> str:
        """The public key, hex."""
        return self.public.hex()

    def sign(self, data: bytes) -> str:
        signature = bytes(self._key.sign(data).signature).hex()
        _remember(self.public, data, signature)
        return signature

    def derived(self, index: int) -> Identity:
        """The identity of this node's ``index``-th local seat (a bot of ``tarock host --bots``):
        the same on every start, and nobody else can make it."""
        return Identity(hashlib.sha256(LOCAL_TAG + self.seed + index.to_bytes(4, "big")).digest())


VERIFIED_KEPT = 1024
"""How many signatures this process made or checked it remembers as good."""

_verified: dict[tuple[bytes, str], bytes] = {}
"""(public key, signature) -> the data it signs, for the last :data:`VERIFIED_KEPT` signatures
this process made or found good (oldest first)."""


def _remember(public: bytes, data: bytes, signature: str) -> None:
    if len(_verified) >= VERIFIED_KEPT:
        del _verified[next(iter(_verified))]
    _verified[(public, signature)] = data


def verify(public: bytes, data: bytes, signature: str) -> bool:
    """Whether ``signature`` (hex) is ``public``'s over ``data``.  A signature this process
    made or already checked is not checked again: an entry of a hand's log comes back to its
    author, and a host's node follows each entry twice (the host's part and its own seat)."""
    if _verified.get((public, signature)) == data:
        return True
    if not _HEX128.fullmatch(signature):
        return False
    try:
        nacl.signing.VerifyKey(public).verify(data, bytes.fromhex(signature))
    except (nacl.exceptions.BadSignatureError, nacl.exceptions.CryptoError, ValueError):
        return False
    _remember(public, data, signature)
    return True


def signed_bytes(fields: Mapping[str, Any]) -> bytes:
    """What a signature covers: ``"tarock-sig/1" 0x00`` then the canonical JSON of the
    envelope's fields without ``sig``."""
    return SIG_TAG + canonical_bytes({k: v for k, v in fields.items() if k != "sig" and k != "t"})


def envelope_hash(fields: Mapping[str, Any]) -> str:
    """SHA-256 of ``"tarock-msg/1" 0x00`` and the canonical JSON of the whole envelope
    (``sig`` included, ``t`` not), hex."""
    whole = canonical_bytes({k: v for k, v in fields.items() if k != "t"})
    return hashlib.sha256(HASH_TAG + whole).hexdigest()


def fingerprint(table: str, keys: Sequence[str]) -> str:
    """The roster's fingerprint: the first 6 bytes of SHA-256(``"tarock-roster/1"``, the
    table id, every seat's public key in seat order; length-prefixed), as three groups of
    four hex digits, e.g. ``3fa2-91c0-7d15``."""
    h = hashlib.sha256()
    for part in (ROSTER_TAG, table.encode(), *(bytes.fromhex(k) for k in keys)):
        h.update(len(part).to_bytes(4, "big") + part)
    d = h.hexdigest()[:12]
    return f"{d[0:4]}-{d[4:8]}-{d[8:12]}"


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)
