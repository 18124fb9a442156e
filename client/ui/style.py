"""The client's colours, by style class.

Court cards in the colours of docs/rules.md §2.4 ("König lila, Dame rubinrot,
Cavall grün, Bube blau"), red suits red, the Trull gold; cards that may
not be played are dimmed; the forehand's mark is green and the seat to
move is marked in yellow (as the online platform of docs/rules.md §14 does:
"gelber Pfeil", "grüne Fahne").
"""

from __future__ import annotations

from prompt_toolkit.styles import Style

KING = "#b040ff"
QUEEN = "#e0115f"
CAVALL = "#22b14c"
JACK = "#3d7dff"
DIMMED = "#5c5c5c"

STYLE = Style.from_dict(
    {
        "court.king": f"fg:{KING} bold",
        "court.queen": f"fg:{QUEEN} bold",
        "court.cavall": f"fg:{CAVALL} bold",
        "court.jack": f"fg:{JACK} bold",
        "suit.red": "fg:#e03c31",
        "suit.black": "",
        "pip": "",
        "tarock": "bold",
        "tarock.trull": "fg:#e6b422 bold",
        "card.trump": "underline",
        "card.lifted": "reverse",
        "card.chosen": "reverse",
        "card.cursor": "underline",
        "card.dimmed": f"fg:{DIMMED} nobold",
        "card.back": f"fg:{DIMMED}",
        "header": "reverse",
        "header.title": "reverse bold",
        "seat.name": "bold",
        "seat.me": "bold",
        "seat.turn": "fg:#ffd700 bold",
        "seat.forehand": "fg:#22b14c",
        "seat.role": "fg:#87afff",
        "seat.out": f"fg:{DIMMED}",
        "trick.done": f"fg:{DIMMED}",
        "trick.winner": "fg:#ffd700",
        "info": "",
        "info.game": "bold",
        "log": "fg:#a8a8a8",
        "rule": f"fg:{DIMMED}",
        "key": "fg:#ffd700",
        "mark": "fg:#22b14c bold",
        "message": "fg:#ffd700 bold",
        "status": "reverse",
        "dialog": "bg:#1c1c3a",
        "dialog.frame": "bg:#1c1c3a fg:#87afff",
        "dialog.title": "bg:#1c1c3a fg:#ffffff bold",
        "dialog.row": "bg:#1c1c3a",
        "dialog.selected": "bg:#3a3a7a bold",
        "dialog.disabled": f"bg:#1c1c3a fg:{DIMMED}",
        "dialog.detail": "bg:#1c1c3a fg:#c0c0c0",
        "dialog.tariff": "bg:#1c1c3a fg:#ffd700",
        "dialog.check": "bg:#1c1c3a fg:#22b14c bold",
        "overlay": "bg:#101820",
        "overlay.frame": "bg:#101820 fg:#87afff",
        "overlay.title": "bg:#101820 fg:#ffffff bold",
        "overlay.head": "bg:#101820 bold",
        "overlay.good": "bg:#101820 fg:#22b14c",
        "overlay.bad": "bg:#101820 fg:#e03c31",
        "small": "fg:#ffd700 bold",
        "lobby.title": "bold",
        "lobby.selected": "reverse",
        "lobby.disabled": f"fg:{DIMMED}",
        "lobby.detail": "fg:#a8a8a8",
    }
)
