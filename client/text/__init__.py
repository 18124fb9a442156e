"""Every word a player reads, in one place: the rules' words (games,
premiums, cards, suits, Kontra levels, amounts), what a seat did, the game
in play, a hand's result and settlement, and why an action is refused.

The full-screen client (:mod:`client.ui`), the line client
(:mod:`client.human`, :mod:`client.render`), the network commands' output
and the rules page all write through these modules, every word from the
gettext catalogue (:mod:`client.i18n`) in the player's language.  The
clients differ only in their marks (:mod:`client.text.figures`): the line
client, for scripts and screen readers, writes cards as they are typed
(``hK``) and plain ``x``, ``-`` and ``->``; the full-screen client suit
symbols (``♥K``), ``×``, ``−`` and ``→``.
"""
