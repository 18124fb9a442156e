"""The sans-IO game protocol: bytes in, typed events out; typed messages to bytes.

Nothing here opens a socket, reads a clock or starts a thread (the model is h11
and wsproto): the trio driver in :mod:`net.node` moves bytes and passes the
time in.  See docs/protocol.md for the wire format.
"""
