"""Developer tools: the benchmarks, their probe and the bots' arena.

Installed as ``tarock.tools``, outside the client: the ``tarock`` command imports a tool
only when its command (``bench``, ``bench --net``, ``arena``) runs.
"""
