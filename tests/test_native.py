"""The native build of the bots' search (core/native.py, tools/native.py).

A build is made once per session into a temporary cache folder, and the same
decisions are then asked of the compiled and the Python modules, in separate
processes: the search's values per candidate, whole arena boards, the solver's
node counts.  The build is only ever used for the sources it was made from.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tarock.core import native
from tarock.tools import native as native_tool

TIMEOUT = 900

DECISIONS = """
import json, random, sys
import tarock.core.native as native
from tarock.client.bots import make_bot
from tarock.client.bots.rulebook import register
from tarock.core.context import TableContext
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.plugins import load_plugins
import tarock.client.bots.solver as solver
rules = load_plugins(None).find(sys.argv[1]).rules()
register(rules)
hands, talon = deal(rules, random.Random(sys.argv[2]), 4)
bots = [make_bot("hard", 7, f"hard-{s}") for s in range(4)]
hand = Hand(rules, 0, hands, talon, 4, (), TableContext(dealer=0))
out = []
while not hand.done:
    seat = hand.state.to_move
    decision = bots[seat].explain(observe(hand, seat))
    out.append([repr(decision.action), sorted((repr(a), v) for a, v in decision.values.items())])
    hand.apply(decision.action)
print(json.dumps({"native": str(native.installed()), "solver": solver.__file__, "decisions": out,
                  "settlement": list(hand.state.result.settlement)}))
"""


def _env(cache: Path, on: bool) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(cache)
    env[native.ENV] = "1" if on else "0"
    return env


def _run(args: list[str], cache: Path, on: bool) -> str:
    done = subprocess.run([sys.executable, *args], env=_env(cache, on), capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache folder holding a build of the sources as they are."""
    cache = tmp_path_factory.mktemp("cache")
    out = _run(["-m", "tarock.tools.native", "build"], cache, True)
    assert f"built {len(native_tool.MODULES)} modules" in out
    yield cache


@pytest.mark.parametrize(("variant", "deal_seed"), [("tarock54", "n/3"), ("koenigrufen-club", "n/5")])
def test_the_compiled_search_decides_as_the_python_one(built: Path, variant: str, deal_seed: str) -> None:
    native_run = json.loads(_run(["-c", DECISIONS, variant, deal_seed], built, True))
    plain_run = json.loads(_run(["-c", DECISIONS, variant, deal_seed], built, False))
    assert native_run["native"] != "None" and native_run["solver"].endswith(".so")
    assert plain_run["native"] == "None" and plain_run["solver"].endswith(".py")
    assert any(values for _, values in plain_run["decisions"])  # the search ran and weighed candidates
    assert native_run["decisions"] == plain_run["decisions"]  # every value, to the last bit
    assert native_run["settlement"] == plain_run["settlement"]


def test_an_arena_board_and_the_solver_are_the_same_compiled(built: Path) -> None:
    cli = "import sys; from tarock.client.cli import main; sys.exit(main())"
    arena = ["-c", cli, "--lang", "en", "arena", "--variant", "koenigrufen-ooe", "--bots", "hard,heuristic",
             "--boards", "1", "--first", "4", "--seed", "2026", "--json"]
    compiled, plain = (json.loads(_run(arena, built, on)) for on in (True, False))
    assert (compiled["scores"], compiled["contracts"]) == (plain["scores"], plain["contracts"])
    assert compiled["time"]["hard"]["decisions"] == plain["time"]["hard"]["decisions"]
    bench = ["-m", "tarock.tools.solverbench", "--compiled-only", "--positions", "4", "--left", "5",
             "--variant", "tarock54", "--variant", "koenigrufen-club"]
    counts = [[line.split(" nodes ")[0] + line.split(" nodes/s,")[1]  # the nodes and leaves, not the speed
               for line in _run(bench, built, on).splitlines() if " nodes/s," in line]
              for on in (True, False)]
    assert len(counts[0]) == 2 and counts[0] == counts[1]


def test_status_says_whether_the_build_is_in_use(built: Path) -> None:
    assert "in use in this process" in _run(["-m", "tarock.tools.native", "status"], built, True)
    assert "TAROCK_NATIVE=0" in _run(["-m", "tarock.tools.native", "status"], built, False)


def test_the_key_follows_every_source_file(tmp_path: Path) -> None:
    (tmp_path / "core").mkdir()
    (tmp_path / "client" / "bots").mkdir(parents=True)
    (tmp_path / "core" / "a.py").write_text("x = 1\n")
    (tmp_path / "client" / "bots" / "b.py").write_text("y = 2\n")
    first = native.source_key(tmp_path)
    (tmp_path / "client" / "bots" / "notes.txt").write_text("not a source")
    assert native.source_key(tmp_path) == first
    (tmp_path / "client" / "bots" / "b.py").write_text("y = 3\n")
    second = native.source_key(tmp_path)
    assert second != first
    (tmp_path / "core" / "c.py").write_text("")
    assert native.source_key(tmp_path) not in (first, second)


def test_a_broken_build_is_not_used_and_status_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "tarock" / "native" / native.source_key()
    folder.mkdir(parents=True)
    (folder / native.MANIFEST).write_text('{"modules": {"tarock.client.bots.solver": "gone.so"}}')
    status = _run(["-m", "tarock.tools.native", "status"], tmp_path, True)
    assert "a broken build" in status and "gone.so is missing" in status
    (folder / native.MANIFEST).write_text("{not json")
    probe = "import tarock.client.bots.solver as s, tarock.core.native as n; print(n.installed(), s.__file__)"
    plain = native.package_dir() / "client" / "bots" / "solver.py"
    assert _run(["-c", probe], tmp_path, True).split() == ["None", str(plain)]


def test_a_build_without_mypyc_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    real = native_tool.importlib.util.find_spec
    monkeypatch.setattr(native_tool.importlib.util, "find_spec",
                        lambda name, *a: None if name == "mypyc" else real(name, *a))
    assert native_tool.main(["build"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tarock.tools.native: mypyc is not installed "
                   "(it comes with mypy: pip install 'tarock[native]')"]
    assert not (tmp_path / "tarock" / "native").exists()
