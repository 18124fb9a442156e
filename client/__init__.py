"""Everything that faces a player: the command line, the terminal client, bots."""
