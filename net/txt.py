"""DNS-SD TXT record data (RFC 6763 section 6): key/value strings, each length-prefixed.

Pure functions over bytes; what the keys mean is :mod:`net.advert`'s business.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["TxtError", "decode_txt", "encode_txt"]

MAX_STRING = 255  # one length byte
MAX_KEY = 9  # RFC 6763 6.4: keys SHOULD be no more than nine characters


class TxtError(ValueError):
    """TXT data that cannot be encoded or decoded; the message says why."""


def _check_key(key: str) -> None:
    if not key:
        raise TxtError("a TXT key must not be empty")
    if len(key) > MAX_KEY:
        raise TxtError(f"TXT key {key!r} is longer than {MAX_KEY} characters")
    if any(not 0x20 <= ord(c) <= 0x7E or c == "=" for c in key):
        raise TxtError(f"TXT key {key!r} must be printable ASCII without '='")


def encode_txt(items: Iterable[tuple[str, str | None]]) -> bytes:
    """Encode ``(key, value)`` pairs in the given order; value None is a boolean attribute.

    Raises TxtError for a bad or repeated key, or a string longer than 255 bytes.
    """
    out = bytearray()
    seen: set[str] = set()
    for key, value in items:
        _check_key(key)
        if key.lower() in seen:
            raise TxtError(f"TXT key {key!r} given twice")
        seen.add(key.lower())
        entry = key.encode("ascii") if value is None else key.encode("ascii") + b"=" + value.encode("utf-8")
        if len(entry) > MAX_STRING:
            raise TxtError(f"TXT entry {key!r} is {len(entry)} bytes, more than {MAX_STRING}")
        out.append(len(entry))
        out += entry
    # RFC 6763 6.1: an empty TXT record holds a single zero byte.
    return bytes(out) if out else b"\x00"


def decode_txt(data: bytes) -> dict[str, bytes | None]:
    """Decode TXT record data into ``{lowercase key: value}`` in the order of the record.

    Follows RFC 6763 section 6: keys compare case-insensitively and only the first of a
    repeated key counts (6.4); a string with an empty key or a key that is not printable
    ASCII is ignored (6.4/6.5); a string without '=' is a boolean attribute (value None).
    Raises TxtError only when the data is not a sequence of length-prefixed strings.
    """
    result: dict[str, bytes | None] = {}
    pos = 0
    while pos < len(data):
        length = data[pos]
        end = pos + 1 + length
        if end > len(data):
            remain = len(data) - pos - 1
            raise TxtError(f"TXT string at byte {pos} claims {length} bytes but only {remain} remain")
        entry = data[pos + 1 : end]
        pos = end
        if not entry:
            continue
        raw_key, eq, value = entry.partition(b"=")
        if not raw_key or any(not 0x20 <= b <= 0x7E for b in raw_key):
            continue
        key = raw_key.decode("ascii").lower()
        if key not in result:
            result[key] = value if eq else None
    return result
