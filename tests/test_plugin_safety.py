"""A plugin author's safety net (issue 22: house rules that are never silently wrong).

Driven through the real ``tarock`` command where the point is about the
command: each test writes its own plugins.toml and plugin files.

- ``--plugins`` means the same before and after the command;
- an exception in a plugin's hook is one line naming the plugin, the hook and
  the hand, and the hand stands as it was;
- a plugin file changed since a record was written refuses the record;
- a broken ``[[variant]]`` is listed as unavailable while the others play;
- every refusal names its plugin;
- ``tarock replay`` shows the amounts as played (a doubled round counts double);
- German output holds no English words, English no German ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tarock(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``tarock ARGS`` from this checkout (exit status, stdout and stderr)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "client.cli", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=600, cwd=cwd, env=env, stdin=subprocess.DEVNULL)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


VALAT_DOUBLE = '''
    """A Valat counts double."""
    from collections.abc import Generator, Mapping, Sequence
    from dataclasses import replace
    from typing import Any

    from core.contracts import PremiumSpec
    from core.hookspecs import hookimpl


    class ValatDouble:
        name = "valat-double"
        version = "1.0"

        @hookimpl(wrapper=True)
        def tarock_premium_specs(self, options: Mapping[str, Any]
                                 ) -> Generator[None, Any, Sequence[PremiumSpec]]:
            premiums: Sequence[PremiumSpec] = (yield) or ()
            return [replace(p, silent=2 * p.silent) if p.name == "valat" else p for p in premiums]


    PLUGIN = ValatDouble
'''


def house_config(tmp_path: Path, plugin: str = VALAT_DOUBLE, extra: str = "",
                 enabled: str = '"tarock54", "house"') -> Path:
    """A plugins.toml enabling tarock54 and ``house`` (tarock54 + the plugin file ``house.py``)."""
    write(tmp_path / "house.py", plugin)
    return write(tmp_path / "plugins.toml", f"""
        [plugins]
        enabled = [{enabled}]

        [[variant]]
        name = "house"
        base = "tarock54"
        title = "House rules"
        plugins = [{{ path = "house.py" }}]
        """ + textwrap.dedent(extra))


# -- --plugins before or after the command -------------------------------------------------------

def test_plugins_before_the_command_means_the_same_as_after(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path))
    for command in (["rules", "house"], ["variants"]):
        after = tarock(*command, "--plugins", toml, "--lang", "en")
        before = tarock("--plugins", toml, *command, "--lang", "en")
        assert after.returncode == before.returncode == 0, (after.stderr, before.stderr)
        assert after.stdout == before.stdout and "House rules" in before.stdout
    # what is not in the default plugins.toml is not found without it
    assert tarock("rules", "house", "--lang", "en").returncode == 2


def test_plugins_given_twice_with_different_files_is_refused(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path))
    same = tarock("--plugins", toml, "variants", "--plugins", toml, "--lang", "en")
    assert same.returncode == 0, same.stderr
    other = tarock("--plugins", toml, "variants", "--plugins", str(tmp_path / "other.toml"), "--lang", "en")
    assert other.returncode == 2 and other.stdout == ""
    assert other.stderr.splitlines() == [
        f"tarock: --plugins is given twice ({toml} before the command, {tmp_path / 'other.toml'} "
        "after it): give it once"]
