"""The dialogs of the full-screen table: choosing an option (a game, an
announcement, a Kontra...) and ticking its additions."""

from __future__ import annotations

from tarock.client.i18n import _
from tarock.client.ui.hint import Hint
from tarock.client.ui.table_state import Stage, TableState
from tarock.core.actions import Announce, Bid, Discard, Play


class DialogControls(TableState):
    """The dialog keys and clicks of :class:`client.ui.model.TableModel`."""

    # -- dialogs -------------------------------------------------------------------------
    def dialog_rows(self) -> int:
        d = self.decision
        if d is None:
            return 0
        if self.stage.additions:
            return len(self.stage_additions()) + 2
        return len(d.options)

    def stage_additions(self) -> list[str]:
        """The additions offered with the option chosen (in the rules' order)."""
        d = self.decision
        if d is None:
            return []
        possible = d.options[self.stage.option].additions_possible()
        return [a.name for a in d.additions if a.name in possible]

    def dialog_move(self, step: int) -> None:
        rows = self.dialog_rows()
        if rows:
            self.stage.row = (self.stage.row + step) % rows
            self.message = ""
            self.changed()

    def dialog_pick(self, row: int) -> None:
        """A row's number key or a click: take that row."""
        if 0 <= row < self.dialog_rows():
            self.stage.row = row
            self.dialog_enter()

    def dialog_enter(self) -> None:
        d, obs = self.decision, self.obs
        if d is None or obs is None or d.kind != "dialog":
            return
        st = self.stage
        if not st.additions:
            st.option = st.row
            option = d.options[st.option]
            if option.toggles and option.additions_possible():
                self.stage = Stage(option=st.option, additions=True, row=len(self.stage_additions()))
                self.changed()
                return
            action = d.resolve(st.option)
            if action is not None:
                self.choose(action)
            return
        names = self.stage_additions()
        if st.row < len(names):
            self.toggle_addition(names[st.row])
        elif st.row == len(names):
            action = d.resolve(st.option, st.chosen)
            if action is None:
                self.message = _("This combination cannot be announced.")
                self.changed()
            else:
                self.choose(action)
        else:
            self.stage = Stage(row=st.option)
            self.changed()

    def toggle_addition(self, name: str) -> None:
        d = self.decision
        if d is None:
            return
        st = self.stage
        option = d.options[st.option]
        if name in st.chosen:
            st.chosen = st.chosen - {name}
            self.message = ""
        elif option.can_add(st.chosen, name):
            st.chosen = st.chosen | {name}
            self.message = ""
        else:
            self.message = _("Not together with what is ticked.")
        self.changed()

    def dialog_back(self) -> bool:
        if self.stage.additions:
            self.stage = Stage(row=self.stage.option)
            self.changed()
            return True
        return False

    def _show_hint(self, hint: Hint) -> None:
        """Point at the suggested choice: lift the card, move to the row."""
        d, action = self.decision, hint.action
        if d is None:
            return
        if isinstance(action, Play) and d.kind == "play":
            self.lifted = action.card
            hand = self.hand()
            self.cursor = hand.index(action.card) if action.card in hand else self.cursor
        elif d.kind == "discard" and isinstance(action, Discard):
            self.chosen = set(action.cards)
        elif d.kind == "dialog":
            for i, option in enumerate(d.options):
                if action in option.actions:
                    self.stage = Stage(row=i)
                    if option.toggles and option.additions_possible():
                        chosen = (
                            frozenset(action.announce) if isinstance(action, Bid | Announce) else frozenset()
                        )
                        names = [a.name for a in d.additions if a.name in option.additions_possible()]
                        self.stage = Stage(option=i, additions=True, row=len(names), chosen=chosen)
                    break
