"""The mark a hook implementation wears (``@hookimpl``), apart from the hooks' declarations
(:mod:`core.hookspecs`), which name the rules' types: core's own data rules
(:mod:`core.defaults`) are marked without depending on them."""

from __future__ import annotations

import pluggy

PROJECT = "tarock"
hookimpl = pluggy.HookimplMarker(PROJECT)
