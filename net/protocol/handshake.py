"""The handshake's proofs, sans-IO: who answers (Ed25519 signatures over the hello) and who
knows the table's PIN (SPAKE2), docs/protocol.md "Handshake".

The client says hello; the server answers a ``seat``, ``watch`` or ``peer`` hello with a
:class:`~net.protocol.messages.Challenge` that its node key signs (with its SPAKE2 message
and confirmation at a private table); the client checks it and proves its own key (and
the PIN) with an :class:`~net.protocol.messages.Auth`.  From the challenge on, at a
private table, every frame is sealed with the key both sides derived.
:class:`Proofs` makes and checks these messages for one connection; a check that fails
raises :class:`HandshakeError`.
"""

from __future__ import annotations

import hashlib
import secrets

from tarock.net.identity import Identity, canonical_bytes, node_of, verify
from tarock.net.pake import Pake, PakeError, Sealer
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN
from tarock.net.protocol.messages import Auth, Challenge, Hello, Welcome, dump

CHALLENGE_TAG = b"tarock-challenge/1\x00"
AUTH_TAG = b"tarock-auth/1\x00"


def hello_hash(hello: Hello) -> bytes:
    return hashlib.sha256(canonical_bytes(dump(hello))).digest()


def challenge_bytes(hello: Hello, key: str, nonce: str, pake: str) -> bytes:
    """What the server signs: the hello's hash, its key, its nonce and its SPAKE2 message."""
    return CHALLENGE_TAG + hello_hash(hello) + bytes.fromhex(key) + bytes.fromhex(nonce) + bytes.fromhex(pake)


def auth_bytes(hello: Hello, challenge: Challenge) -> bytes:
    """What the client signs: the hello's hash and the challenge's."""
    return AUTH_TAG + hello_hash(hello) + hashlib.sha256(canonical_bytes(dump(challenge))).digest()


def confirm_transcript(hello: Hello, pake: str) -> bytes:
    return hello_hash(hello) + bytes.fromhex(pake)


def choose_version(lo: int, hi: int, our_lo: int = PROTOCOL_MIN, our_hi: int = PROTOCOL_MAX) -> int | None:
    """The highest version both ranges share, or None."""
    best = min(hi, our_hi)
    return best if best >= max(lo, our_lo) else None


class HandshakeError(Exception):
    """A proof that fails: ``code`` (``identity``, ``auth``, ``pin``, ``version``), what the
    peer is told, and the reason the connection gives itself (the same by default)."""

    def __init__(self, code: str, told: str, reason: str = "") -> None:
        super().__init__(told)
        self.code, self.told, self.reason = code, told, reason or told


class Proofs:
    """One connection's side of the proofs.  ``pake``: the PIN's SPAKE2 (None at a public
    table); (client) the ``hello`` it sent, the ``identity`` that answers a challenge and the
    node the server must be (``expect``, "" or None: any); ``sealers``: once both sides
    proved the PIN, what seals and opens every frame."""

    def __init__(self, pake: Pake | None = None, hello: Hello | None = None, identity: Identity | None = None,
                 expect: str | None = None) -> None:
        self.pake, self.hello, self.identity, self.expect = pake, hello, identity, expect
        self.sealers: tuple[Sealer, Sealer] | None = None
        self.sent: Challenge | None = None
        """(Server) the challenge sent, which the client's auth signs."""

    # -- the server ---------------------------------------------------------------------
    @staticmethod
    def check_hello(hello: Hello) -> None:
        """(Server) a hello's node id is its key's, and a protocol version is shared."""
        if node_of(bytes.fromhex(hello.key)) != hello.node:
            raise HandshakeError("identity", "the node id is not the one the key makes",
                                 "a node id that is not its key's")
        if choose_version(hello.proto_min, hello.proto_max) is None:
            raise HandshakeError("version", f"this node speaks protocol {PROTOCOL_MIN}..{PROTOCOL_MAX}, "
                                            f"the peer {hello.proto_min}..{hello.proto_max}",
                                 "no common protocol version")

    def challenge(self, hello: Hello, identity: Identity) -> Challenge:
        """(Server) the challenge to ``hello``, signed by ``identity`` (with the PIN's SPAKE2)."""
        nonce = secrets.token_hex(32)
        mine = ""
        confirm = ""
        if self.pake is not None:
            try:
                self.pake.finish(bytes.fromhex(hello.pake))
            except PakeError as exc:
                raise HandshakeError("pin", f"the PIN handshake failed: {exc}",
                                     "the PIN handshake failed") from None
            mine = self.pake.message.hex()
            confirm = self.pake.confirm("server", confirm_transcript(hello, mine))
            self.sealers = self.pake.sealers()
        sig = identity.sign(challenge_bytes(hello, identity.key, nonce, mine))
        self.sent = Challenge(identity.node, identity.key, nonce, sig, mine, confirm)
        return self.sent

    def check_auth(self, hello: Hello, msg: Auth) -> None:
        """(Server) the client signed the handshake with the hello's key (and knows the PIN)."""
        assert self.sent is not None
        if not verify(bytes.fromhex(hello.key), auth_bytes(hello, self.sent), msg.sig):
            raise HandshakeError("auth", "the hello's key did not sign the handshake",
                                 "the client did not prove its key")
        if self.pake is not None:
            try:
                self.pake.check("client", confirm_transcript(hello, self.sent.pake), msg.confirm)
            except PakeError as exc:
                raise HandshakeError("pin", str(exc)) from None

    # -- the client ---------------------------------------------------------------------
    def answer(self, msg: Challenge) -> Auth:
        """(Client) check the server's challenge to our hello (it is node ``expect``, when
        given) and prove our key (and the PIN)."""
        hello, identity, expect = self.hello, self.identity, self.expect
        if hello is None or identity is None:
            raise HandshakeError("protocol", "a challenge to a hello that asked for none")
        if node_of(bytes.fromhex(msg.key)) != msg.node or (expect and msg.node != expect):
            raise HandshakeError("identity", f"the server is {msg.node[:8]}, not the node expected "
                                             f"({(expect or '?')[:8]})")
        if not verify(bytes.fromhex(msg.key), challenge_bytes(hello, msg.key, msg.nonce, msg.pake), msg.sig):
            raise HandshakeError("identity", "the server's key did not sign the challenge")
        confirm = ""
        pake = self.pake
        if msg.pake and pake is None:
            raise HandshakeError("pin", "the table is private: it needs its PIN")
        if pake is not None and msg.pake:
            try:
                pake.finish(bytes.fromhex(msg.pake))
                transcript = confirm_transcript(hello, msg.pake)
                pake.check("server", transcript, msg.confirm)
            except PakeError as exc:
                raise HandshakeError("pin", f"{exc} (or the host is not the table's)") from None
            confirm = pake.confirm("client", transcript)
            self.sealers = pake.sealers()
        else:
            self.pake = None
        return Auth(identity.sign(auth_bytes(hello, msg)), confirm)

    def check_welcome(self, msg: Welcome, proved: bool) -> None:
        """(Client) a welcome comes after the challenge ``proved`` who answers a ``seat``,
        ``watch`` or ``peer`` hello, in a protocol version this node speaks."""
        if self.hello is not None and self.hello.role in ("seat", "watch", "peer") and not proved:
            raise HandshakeError("protocol", "a welcome without the challenge that proves who answers")
        if not PROTOCOL_MIN <= msg.proto <= PROTOCOL_MAX:
            raise HandshakeError("protocol", f"the peer chose protocol {msg.proto}, which this node does not "
                                             "speak")
