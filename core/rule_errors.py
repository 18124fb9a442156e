"""The errors of a ruleset: a plugin that answers wrongly, or one that fails."""

from __future__ import annotations

from collections.abc import Mapping

from tarock.core.context import TableContext


class RuleError(RuntimeError):
    """A plugin did not answer a hook it must answer, or answered wrongly; or a variant or option a
    player named that cannot be used.

    ``str()`` is the English sentence; one a player may meet also carries a ``code`` and its
    ``params`` (names and values, no words), so a client writes it in the player's language (the
    core knows no catalogue)."""

    def __init__(self, *args: object, code: str = "", params: Mapping[str, object] | None = None) -> None:
        super().__init__(*args)
        self.code = code
        self.params: dict[str, object] = dict(params or {})


class PluginFailure(RuleError):
    """A plugin's hook implementation raised: the one error a client, bot or node catches for it.

    Every hook the rules ask goes through one guard (:func:`core.hookcall.guarded`), which
    turns the plugin's exception (kept as ``__cause__``) into this error naming
    the plugin, the hook and the hand (round and deal, as the hook's state
    tells); the engine adds the action, which it did not take, and a session
    its seed.  ``str()`` is one line.
    """

    def __init__(self, plugin: str, hook: str, error: BaseException,
                 context: TableContext | None = None) -> None:
        super().__init__()
        self.plugin = plugin
        self.hook = hook
        self.error = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        self.round: int | None = context.round if context is not None else None
        self.deal: int | None = context.deal if context is not None else None
        self.seed: int | str | None = None
        self.action: str | None = None

    def at(self, round_no: int, deal_no: int, seed: int | str | None = None) -> PluginFailure:
        """Fill in the hand where the hook did not see it, and the seed of the deals."""
        if self.round is None:
            self.round, self.deal = round_no, deal_no
        if self.seed is None:
            self.seed = seed
        return self

    def __str__(self) -> str:
        where = [f"round {self.round}, deal {self.deal}"] if self.round is not None else []
        if self.seed is not None:
            where.append(f"seed {self.seed}")
        if self.action is not None:
            where.append(f"on {self.action}, which was not taken")
        hand = f" ({'; '.join(where)})" if where else ""
        return f"plugin {self.plugin!r} failed in hook {self.hook}{hand}: {self.error}"
