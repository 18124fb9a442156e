"""54-card Königrufen: a shared base and two dialects.

- :mod:`variants.koenigrufen.club`: ``koenigrufen-club`` (docs/rules.md §16, a club rulebook);
- :mod:`variants.koenigrufen.course`: ``koenigrufen-course`` (docs/rules.md §17, a Tarock course).

The games are data (:mod:`.games`); :mod:`.base` holds the hook
implementations that interpret them, with the phases in :mod:`.bidding`,
:mod:`.talon` and :mod:`.announce`, the play rules in :mod:`.cardplay` and
counting and settlement in :mod:`.scoring`.
"""
