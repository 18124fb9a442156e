"""Private tables: a PIN agreed by SPAKE2, and frames sealed with the key it gives.

A table with a PIN answers a ``seat`` or ``watch`` hello only through SPAKE2
(the ``spake2`` package, over edwards25519): the client sends its message in
the hello, the server its own in the challenge.  Both derive a 32-byte key
``K`` that is the same only when both used the same PIN for the same table;
a wrong guess teaches the guesser nothing but that it was wrong (no offline
test of PINs).  From ``K``: a confirmation each side shows the other
(HMAC-SHA256 over the handshake), and one SecretBox key per direction.  After
the challenge every frame body both ways is ``crypto_secretbox`` of the
msgpack body, the nonce the frame's number in its direction (8 bytes
big-endian, then 16 zero bytes), so a frame cannot be dropped, repeated or
reordered unnoticed, and a node without the PIN reads nothing of the game.
"""

from __future__ import annotations

import hashlib
import hmac

import nacl.exceptions
import nacl.secret
from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import SPAKEError

PIN_TAG = b"tarock-pin/1\x00"
ID_CLIENT = b"tarock-client"
ID_SERVER = b"tarock-server"
SEAL_OVERHEAD = nacl.secret.SecretBox.MACBYTES


class PakeError(ValueError):
    """The other side's SPAKE2 message or confirmation does not fit this PIN."""


def password(table: str, pin: str) -> bytes:
    return PIN_TAG + table.encode() + b"\x00" + pin.encode()


def _derive(key: bytes, label: bytes, transcript: bytes) -> bytes:
    return hmac.new(key, label + transcript, hashlib.sha256).digest()


class Sealer:
    """One direction of a sealed connection: frame numbers from 0."""

    def __init__(self, key: bytes) -> None:
        self.box = nacl.secret.SecretBox(key)
        self.count = 0

    def _nonce(self) -> bytes:
        nonce = self.count.to_bytes(8, "big") + b"\x00" * 16
        self.count += 1
        return nonce

    def seal(self, body: bytes) -> bytes:
        return bytes(self.box.encrypt(body, self._nonce()).ciphertext)

    def open(self, sealed: bytes) -> bytes:
        try:
            return bytes(self.box.decrypt(sealed, self._nonce()))
        except nacl.exceptions.CryptoError:
            raise PakeError("a sealed frame does not open (another key, or changed on the way)") from None


class Pake:
    """One side of the PIN handshake."""

    def __init__(self, table: str, pin: str, side: str) -> None:
        pw = password(table, pin)
        self.side = side
        self._spake = SPAKE2_A(pw, idA=ID_CLIENT, idB=ID_SERVER) if side == "client" else \
            SPAKE2_B(pw, idA=ID_CLIENT, idB=ID_SERVER)
        self.message = bytes(self._spake.start())
        self.key: bytes | None = None

    def finish(self, peer: bytes) -> None:
        try:
            self.key = bytes(self._spake.finish(peer))
        except (SPAKEError, ValueError) as exc:
            raise PakeError(f"the SPAKE2 message does not hold: {exc}") from None

    def confirm(self, of: str, transcript: bytes) -> str:
        """The confirmation ``of`` (``client`` or ``server``) shows for ``transcript``."""
        assert self.key is not None
        return _derive(self.key, b"tarock-confirm/" + of.encode() + b"\x00", transcript).hex()

    def check(self, of: str, transcript: bytes, shown: str) -> None:
        if not hmac.compare_digest(self.confirm(of, transcript), shown):
            raise PakeError("the PIN does not match the table's")

    def sealers(self) -> tuple[Sealer, Sealer]:
        """(this side's sending sealer, its receiving one)."""
        assert self.key is not None
        c2s = Sealer(_derive(self.key, b"tarock-seal/c2s\x00", b""))
        s2c = Sealer(_derive(self.key, b"tarock-seal/s2c\x00", b""))
        return (c2s, s2c) if self.side == "client" else (s2c, c2s)
