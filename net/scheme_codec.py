"""What every dealing scheme reads and writes the same way: its payloads (maps tagged by ``t``),
its opening (the plain map a record keeps), and the last check of an opening, that the deal it
gives is the one the record holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from tarock.core.codec import Codec, RecordError
from tarock.net.dealing import Cards, DealingFault, Payload, TaggedPayloads

_O = TypeVar("_O")


class SchemeCodec(TaggedPayloads, Generic[_O]):
    """One scheme's payload types and its opening type, through one codec of its own."""

    def __init__(self, payloads: Sequence[type[Any]], opening: type[_O]) -> None:
        super().__init__(payloads, Codec())
        self.opening_type = opening

    def encode_opening(self, opening: _O) -> Payload:
        """The opening as the record keeps it (the dealer's ``summary``)."""
        out: Payload = self.codec.encode(opening)
        return out

    def decode_opening(self, raw: object) -> _O:
        """The opening a record keeps; DealingFault (nobody named) if it is malformed."""
        try:
            out: _O = self.codec.decode(raw, self.opening_type, "opening")
        except RecordError as exc:
            raise DealingFault(f"the opening is malformed: {exc}", None) from None
        return out


def check_deal(opened: tuple[Cards, Cards], hands: Cards, talon: Cards) -> None:
    """DealingFault unless the hands and talon an opening gives are the record's (a hand's cards
    in any order, a talon pile's in order)."""
    want_hands, want_talon = opened
    if ([sorted(h) for h in want_hands] != [sorted(h) for h in hands]
            or [list(p) for p in want_talon] != [list(p) for p in talon]):
        raise DealingFault("the hands in the record are not the deal the seeds imply", None)
