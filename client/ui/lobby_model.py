"""The lobby as plain Python: the menu, the forms of a new table, the rules pages.

What the lobby offers (the issue's "What to build"): go on with a saved
table, play against bots (variant, its options, the bots' strength per
seat, rounds), open a table on the network (variant, options, seats for
bots), the tables found on the network (join, watch), a rules page per
variant.  The variants are the ones plugins.toml offers, the first
preselected; each option is a field with its description, typed as its
declaration says.  The lobby ends with a :class:`LobbyChoice`.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tarock.client.errors import error_text
from tarock.client.i18n import _, n_, p_
from tarock.client.ui.lobby_forms import Form, new_form, option_fields
from tarock.client.ui.rules_page import rules_lines
from tarock.core.plugins import Catalogue
from tarock.core.registry import Variant
from tarock.core.rules import RuleError

PIN_CHARS = 40
"""The longest PIN the lobby takes (the network allows 64)."""
ChoiceKind = Literal[
    "resume", "resume-net", "bots", "open", "join", "watch", "quit", "stats", "replay", "name"
]


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A table found on the network, as the lobby lists it."""

    name: str
    variant: str
    title: str
    free: int
    players: tuple[str, ...]
    rounds: int
    key: object
    """What the network layer needs to join or watch it."""
    private: bool = False
    """Joined and watched only with its PIN (the lobby asks for it)."""


@dataclass(frozen=True, slots=True)
class LobbyChoice:
    """What the player chose in the lobby."""

    kind: ChoiceKind
    variant: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ()
    rounds: int = 12
    name: str = ""
    table: TableEntry | None = None
    pin: str = ""
    """The PIN of a private table to open, join, watch or go on at (empty: none)."""


Page = Literal["main", "form", "rules", "rules-pick", "pin"]


@dataclass
class LobbyModel:
    """See the module docstring."""

    catalogue: Catalogue
    player: str = ""
    saved: str = ""
    """The saved table in words (empty: none to resume)."""
    saved_tables: list[tuple[str, str]] = field(default_factory=list)
    """Each saved table (:mod:`client.tables`): its key and the table in words."""
    kept: bool = False
    """Whether a table has ended here: the statistics and the replay viewer are offered."""
    network: bool = False
    """Whether network tables can be opened, found and joined here."""
    net_saved: str = ""
    """The network table this node holds a seat at (empty: none)."""
    net_saved_private: bool = False
    """Whether that table is private (going on there asks for its PIN)."""
    tables: list[TableEntry] = field(default_factory=list)
    network_note: str = ""
    page: Page = "main"
    row: int = 0
    form: Form | None = None
    rules: list[str] = field(default_factory=list)
    rules_title: str = ""
    rules_shown: Callable[[int], list[str]] | None = None
    """The rules page wrapped to a width (the screen's, when it is drawn)."""
    scroll: int = 0
    message: str = ""
    pin: str = ""
    """What the player typed on the PIN page so far."""
    pin_for: LobbyChoice | None = None
    """The choice the PIN page completes (join, watch or go on at a private table)."""
    following: str = ""
    """The network table the cursor stays on as the list changes, until the player moves it."""
    on_change: Callable[[], None] = lambda: None
    _result: asyncio.Future[LobbyChoice] | None = None

    def changed(self) -> None:
        self.on_change()

    # -- the main menu -----------------------------------------------------------------
    def entries(self) -> list[tuple[str, str, str]]:
        """``(tag, label, detail)`` of the main menu's rows, the network's tables last."""
        out: list[tuple[str, str, str]] = []
        if self.net_saved:
            out.append(("resume-net", _("Go on at the network table"), self.net_saved))
        if self.saved:
            out.append(("resume", _("Go on with the saved table"), self.saved))
        out += [(f"resume:{key}", _("Go on with a saved table"), text) for key, text in self.saved_tables]
        out.append(("bots", _("Play against bots"), _("choose the game, its options and the bots")))
        if self.network:
            out.append(
                ("open", _("Open a table on the network"), _("others join it; bots fill the seats you say"))
            )
        out.append(("rules", _("Rules"), _("the rules of each game, from its data")))
        if self.kept:
            out.append(("stats", _("Statistics"), _("hands, games won, money per session and player")))
            out.append(("replay", _("Replay a hand"), _("step through the hands of the finished tables")))
        out.append(("quit", _("Quit"), ""))
        for i, t in enumerate(self.tables):
            free = n_("{n} seat free", "{n} seats free", t.free).format(n=t.free)
            if t.private:
                free = _("private (PIN)") + " · " + free
            players = ", ".join(t.players)
            out.append((f"table:{i}", f"{t.name} · {t.title}", f"{free} · {players}" if players else free))
        return out

    def variants(self) -> list[Variant]:
        return list(self.catalogue.offered().values())

    def move(self, step: int) -> None:
        self.following = ""
        if self.page == "main":
            self.row = (self.row + step) % len(self.entries())
        elif self.page == "rules-pick":
            self.row = (self.row + step) % len(self.variants())
        elif self.page == "form" and self.form is not None:
            self.form.row = (self.form.row + step) % self.form.rows()
            self.form.message = ""
        elif self.page == "rules":
            self.scroll = max(0, self.scroll + step)
        self.changed()

    def enter(self) -> None:
        if self.page == "main":
            self._take(self.entries()[self.row][0])
        elif self.page == "rules-pick":
            self.show_rules(self.variants()[self.row])
        elif self.page == "form":
            self._form_enter()
        elif self.page == "rules":
            self.back()
        elif self.page == "pin":
            self._pin_enter()
        self.changed()

    def back(self) -> None:
        if self.page == "pin":
            self.page, self.pin, self.pin_for = "main", "", None
        elif self.page in ("form", "rules-pick"):
            self.page, self.row = "main", 0
        elif self.page == "rules":
            self.page = "rules-pick"
        self.message = ""
        self.changed()

    def watch(self) -> None:
        """``W`` on a network table: follow it without a seat."""
        if self.page != "main":
            return
        tag = self.entries()[self.row][0]
        if tag.startswith("table:"):
            entry = self.tables[int(tag.split(":")[1])]
            self._choose(LobbyChoice("watch", table=entry, name=self.player), entry.private)

    def _choose(self, choice: LobbyChoice, private: bool) -> None:
        """Finish with ``choice``, asking first for the PIN of a private table."""
        if not private:
            self.finish(choice)
            return
        self.page, self.pin, self.pin_for, self.message = "pin", "", choice, ""
        self.changed()

    # -- the PIN of a private table ----------------------------------------------------------
    def pin_type(self, text: str) -> None:
        """A character typed on the PIN page (Backspace: ``\b``)."""
        if self.page != "pin":
            return
        self.pin = self.pin[:-1] if text == "\b" else (self.pin + text)[:PIN_CHARS]
        self.message = ""
        self.changed()

    def _pin_enter(self) -> None:
        choice = self.pin_for
        if choice is None:
            self.back()
            return
        if not self.pin:
            self.message = _("Type the table's PIN (ask its host), or Esc to go back.")
            return
        self.finish(dataclasses.replace(choice, pin=self.pin))

    def pin_title(self) -> str:
        choice = self.pin_for
        name = choice.table.name if choice is not None and choice.table is not None else self.net_saved
        return _("“{name}” is private: its PIN").format(name=name)

    def select_table(self, name: str) -> None:
        """Put the cursor on the network table ``name`` if the menu lists it (the table a
        refused PIN was for: Enter then asks for the PIN again, not for a new table), also
        once the network lists it again."""
        self.following = name
        for row, (tag, _label, _detail) in enumerate(self.entries()):
            if tag.startswith("table:") and self.tables[int(tag.split(":")[1])].name == name:
                self.row = row
                return

    def _take(self, tag: str) -> None:
        if tag == "resume":
            self.finish(LobbyChoice("resume"))
        elif tag.startswith("resume:"):
            self.finish(LobbyChoice("resume", name=tag.partition(":")[2]))
        elif tag in ("stats", "replay"):
            self.finish(LobbyChoice(tag))  # type: ignore[arg-type]
        elif tag == "resume-net":
            self._choose(LobbyChoice("resume-net", name=self.player), self.net_saved_private)
        elif tag == "bots":
            self.form = self.new_form("bots")
            self.page = "form"
        elif tag == "open":
            self.form = self.new_form("open")
            self.page = "form"
        elif tag == "rules":
            self.page, self.row = "rules-pick", 0
        elif tag == "quit":
            self.finish(LobbyChoice("quit"))
        elif tag.startswith("table:"):
            entry = self.tables[int(tag.split(":")[1])]
            if entry.free <= 0:
                self.message = _("That table has no free seat: W watches it.")
                return
            self._choose(LobbyChoice("join", table=entry, name=self.player), entry.private)

    # -- forms ---------------------------------------------------------------------------
    def new_form(self, kind: Literal["bots", "open"], variant: str | None = None) -> Form:
        return new_form(self.catalogue, kind, self.player, variant)

    def _option_fields(self, form: Form) -> None:
        option_fields(self.catalogue, form)

    def form_step(self, n: int) -> None:
        form = self.form
        if form is None or not form.row < len(form.fields):
            return
        f = form.fields[form.row]
        f.step(n)
        if f.key == "variant":
            self._option_fields(form)
        form.message = ""
        self.changed()

    def form_type(self, text: str) -> None:
        """A character typed into a text field (Backspace: ``\\b``)."""
        form = self.form
        if form is None or not form.row < len(form.fields):
            return
        f = form.fields[form.row]
        if f.text is None:
            return
        f.text = f.text[:-1] if text == "\b" else (f.text + text)[: PIN_CHARS if f.key == "pin" else 40]
        self.changed()

    def _form_enter(self) -> None:
        form = self.form
        assert form is not None
        if form.row == len(form.fields):
            choice = self.form_choice(form)
            if choice is not None:
                self.finish(choice)
        elif form.row == len(form.fields) + 1:
            self.back()
        else:
            form.row = len(form.fields)

    def form_choice(self, form: Form) -> LobbyChoice | None:
        """The table the form describes, or None (with a message) if its rules refuse the options."""
        values = {f.key: f.value for f in form.fields}
        variant = str(values["variant"])
        options = {k.split(":", 1)[1]: v for k, v in values.items() if k.startswith("option:")}
        try:
            self.catalogue.variants[variant].rules(options)
        except RuleError as exc:
            form.message = error_text(exc)
            return None
        if form.kind == "bots":
            bots = tuple(str(values[f"bot:{s}"]) for s in range(1, 4))
            return LobbyChoice("bots", variant, options, bots, int(values["rounds"]), self.player)
        name = str(values.get("name") or "").strip()
        if not name:
            form.message = _("The table needs a name.")
            return None
        pin = str(values.get("pin") or "")
        return LobbyChoice(
            "open",
            variant,
            options,
            (str(values["strength"]),) * int(values["bots"]),
            int(values["rounds"]),
            self.player,
            TableEntry(name, variant, "", 0, (), int(values["rounds"]), None, private=bool(pin)),
            pin,
        )

    # -- rules ---------------------------------------------------------------------------
    def show_rules(self, variant: Variant, width: int = 96) -> None:
        try:
            rules = variant.rules()
        except RuleError as exc:
            self.message = str(exc)
            return
        self.rules = rules_lines(rules.facts, width, rules.option_specs)
        wrapped: dict[int, list[str]] = {}

        def shown(w: int) -> list[str]:
            if w not in wrapped:
                wrapped[w] = rules_lines(rules.facts, w, rules.option_specs)
            return wrapped[w]

        self.rules_shown = shown
        self.rules_title = p_("variant", variant.title)
        self.page, self.scroll = "rules", 0

    # -- the end ---------------------------------------------------------------------------
    def wait(self) -> asyncio.Future[LobbyChoice]:
        self._result = asyncio.get_running_loop().create_future()
        return self._result

    def finish(self, choice: LobbyChoice) -> None:
        if self._result is not None and not self._result.done():
            self._result.set_result(choice)

    def set_tables(self, tables: Sequence[TableEntry], note: str = "") -> None:
        """The tables the network shows now (the selection stays on the same row)."""
        self.tables = list(tables)
        self.network_note = note
        self.row = min(self.row, len(self.entries()) - 1)
        if self.following:
            self.select_table(self.following)
        self.changed()


def describe_saved(title: str, played: int, rounds: int) -> str:
    return _("{game}, {n} of {rounds} rounds played").format(game=title, n=played, rounds=rounds)
