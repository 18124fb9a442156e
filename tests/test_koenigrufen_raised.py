"""The announcement one Kontra level higher, built directly, is what
``dataclasses.replace`` builds (docs/rules.md §15.6: Kontra per announcement)."""

from dataclasses import fields, replace

from tarock.core.announcement import Announcement
from tarock.variants.koenigrufen.announce import raised


def test_raised_keeps_every_field() -> None:
    a = Announcement("pagat", 2, against=True, kontra=1)
    assert raised(a) == replace(a, kontra=2)
    # a new field would be dropped by raised(): it must be added there
    assert [f.name for f in fields(Announcement)] == ["name", "seat", "against", "kontra"]
