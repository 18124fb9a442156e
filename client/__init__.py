"""Everything that faces a player: the command line, the terminal client, bots."""

import tarock.core  # noqa: F401  # first: its import loads a native build of the bots' search (core.native)
