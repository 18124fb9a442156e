"""Every bad command-line value is refused by argparse before anything starts: one
``tarock CMD: argument ...`` line saying what and why (no usage block), exit status 2, no
traceback.  Real ``tarock`` processes, in English (the messages in German:
tests/test_cli_line.py); the limits are the network's (net.advert, net.protocol.messages)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from net_procs import ROOT, env, tarock
from netns import Procs

from tarock.net.advert import MAX_ROUNDS
from tarock.net.protocol.messages import MAX_NAME

LONG = "x" * (MAX_NAME + 1)

CASES = [
    (("bot", "--name", "b", "--rounds", str(MAX_ROUNDS + 1)), "--rounds", f"must be 1..{MAX_ROUNDS}"),
    (("bot", "--name", "b", "--rounds", "0"), "--rounds", f"must be 1..{MAX_ROUNDS}, not 0"),
    (("bot", "--name", "b", "--rounds", "many"), "--rounds", "'many' is not a whole number"),
    (("bot", "--name", LONG), "--name", f"at most {MAX_NAME} characters, not {MAX_NAME + 1}"),
    (("bot", "--name="), "--name", "a name must not be empty"),
    (("bot", "--name", "   "), "--name", "a name must not be empty"),
    (("bot", "--name", "a\x01b"), "--name", "control or format characters (U+0001)"),
    (("bot", "--name", "a\u200bb"), "--name", "(U+200B ZERO WIDTH SPACE)"),
    (("bot", "--name", "a\u202eb"), "--name", "(U+202E RIGHT-TO-LEFT OVERRIDE)"),
    (("bot", "--name", "b", "--table", LONG), "--table", f"at most {MAX_NAME} characters"),
    (("bot", "--name", "b", "--seed", "-1"), "--seed", "must be 0..9007199254740991, not -1"),
    (("bot", "--name", "b", "--wait", "nan"), "--wait", "must be 0..86400 seconds, not nan"),
    (("bot", "--name", "b", "--heartbeat", "inf"), "--heartbeat", "must be 0.05..60 seconds, not inf"),
    (("bot", "--name", "b", "--heartbeat", "0"), "--heartbeat", "must be 0.05..60 seconds, not 0"),
    (("bot", "--name", "b", "--step-timeout", "1e9"), "--step-timeout", "must be 0.5..3600 seconds"),
    (("bot", "--name", "b", "--seat-timeout", "-3"), "--seat-timeout", "must be 0..86400 seconds, not -3"),
    (("bot", "--name", "b", "--to", "nowhere"), "--to", "no port"),
    (("bot", "--name", "b", "--strength", "godlike"), "--strength", "invalid choice: 'godlike'"),
    (("host", "--port", "70000"), "--port", "must be 0..65535, not 70000"),
    (("host", "--bots", "4"), "--bots", "must be 0..3, not 4"),
    (("host", "--player", "\t"), "--player", "a name must not be empty"),
    (("host", "--name", "Beisl\n2"), "--name", "control or format characters (U+000A)"),
    (("host", "--pin", "1" * 65), "--pin", "a PIN has 1..64 characters, not 65"),
    (("join", "--player", LONG), "--player/--name", f"at most {MAX_NAME} characters"),
    (("join", "--wait", "-1"), "--wait", "must be 0..86400 seconds, not -1"),
    (("join", LONG), "TABLE", f"at most {MAX_NAME} characters"),
    (("watch", "--to", "[::1]"), "--to", "expected ':PORT' after ']'"),
    (("tables", "--wait", "1e400"), "--wait", "must be 0..86400 seconds"),
    (("tables", "--port", "-1"), "--port", "must be 0..65535, not -1"),
    (("--port", "99999"), "--port", "must be 0..65535, not 99999"),
    (("--name", LONG), "--name", f"at most {MAX_NAME} characters"),
    (("--to", "host:"), "--to", "the port is missing after ':'"),
    (("play", "--rounds", str(MAX_ROUNDS + 1)), "--rounds", f"must be 1..{MAX_ROUNDS}"),
    (("play", "--name", "\x1b[31mred"), "--name", "(U+001B)"),
    (("play", "--pace", "-1"), "--pace", "must be 0..60 seconds, not -1"),
    (("play", "--seed", "x"), "--seed", "'x' is not a whole number"),
    (("selfplay", "--hands", str(MAX_ROUNDS + 1)), "--hands", f"must be 1..{MAX_ROUNDS}"),
    (("selfplay", "--seed", str(2 ** 53)), "--seed", "must be 0..9007199254740991"),
    (("bench", "--net", "--rounds", "0"), "--rounds", f"must be 1..{MAX_ROUNDS}, not 0"),
]


def run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(tarock(*args), capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**env(tmp / "state"), "LANGUAGE": "en"}, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("args", "option", "why"), CASES, ids=[" ".join(c[0])[:40] for c in CASES])
def test_a_bad_value_is_one_argparse_line_and_status_2(tmp_path: Path, args: tuple[str, ...], option: str,
                                                       why: str) -> None:
    done = run(tmp_path, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    errors = done.stderr.splitlines()
    assert len(errors) == 1, done.stderr
    command = args[0] if not args[0].startswith("-") else ""
    assert errors[0].startswith(f"tarock {command}".strip() + ": "), errors[0]
    assert f"argument {option}: " in errors[0] and why in errors[0], errors[0]
    assert not (tmp_path / "state").exists()  # refused before anything was opened


def test_the_limits_themselves_are_accepted(tmp_path: Path) -> None:
    """The largest seed and one round play; a name of the longest length (blanks around it
    dropped) opens a table, whose default name (longer than a name may be) is cut to fit."""
    done = run(tmp_path, "selfplay", "--hands", "1", "--seed", str(2 ** 53 - 1), "--no-records")
    assert done.returncode == 0, done.stderr
    longest = "Ä" * MAX_NAME
    argv = tarock("bot", "--name", f"  {longest} ", "--host", "--rounds", str(MAX_ROUNDS), "--seed", "0",
                  "--state", str(tmp_path / "state"), "--interface", "127.0.0.1", "--wait", "30")
    with Procs(log_dir=tmp_path / "logs", lifetime=60) as procs:
        bot = procs.spawn(argv, name="bot", env=env(tmp_path / "state"), cwd=ROOT)
        bot.wait_for(rf"^{longest}: .*'[^']*Ä{{10,}}", timeout=30)  # the table opened, under its cut name
        time.sleep(1.5)  # its advert goes out just after
        bot.kill()
    out = "\n".join(bot.lines())
    assert "Traceback" not in out and "could not announce" not in out, out
