"""``tarock --help`` stays light: it builds no command's arguments and imports no command.

The modules are those Python itself reports loading (``-X importtime``) in a fresh
process; what a command needs is imported only when that command runs (client/cli.py).
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("tarock.net", "tarock.client.bots", "tarock.tools", "prompt_toolkit", "tarock.core.rules", "trio")


def imported(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "tarock.client.cli", *args],
                          capture_output=True, text=True, timeout=120)
    assert "[-h]" in done.stdout, done.stderr[-2000:]  # the usage line, in the locale's language
    return {line.rpartition("|")[2].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:")}


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_help_imports_no_command() -> None:
    modules = imported("--help")
    assert "tarock.client" in modules  # the report is read
    assert heavy(modules) == []


def test_a_command_help_imports_its_arguments_only() -> None:
    """``tarock bench --help`` builds bench's arguments, but imports neither a tool nor a command."""
    modules = imported("bench", "--help")
    assert "tarock.client.cliargs" in modules
    commands = ("tarock.client.localcli", "tarock.client.netcli", "tarock.client.replaycli")
    assert sorted(m for m in modules if m.startswith("tarock.tools") or m in commands) == []
