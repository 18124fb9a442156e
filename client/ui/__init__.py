"""The full-screen terminal client (prompt-toolkit): lobby, table, dialogs.

The model (:mod:`client.ui.model`, :mod:`client.ui.lobby_model`) is plain
Python, tested without a terminal; layouts (:mod:`client.ui.layout`,
:mod:`client.ui.lobby`) and key bindings (:mod:`client.ui.keys`) are built
from it; the tables it shows are driven by :mod:`client.ui.local` (bots in
this process) or over the network, with trio run as a guest of asyncio in
one place (:mod:`client.ui.bridge`).  Every word comes from the one text
layer (:mod:`client.text`) or :mod:`client.i18n`, in the symbol style.
"""
