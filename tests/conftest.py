"""Shared test setup.

- ``tests/`` is importable, so tests can say ``from helpers54 import ...`` under
  any pytest import mode.
- As root on Linux (CI, and the development machines here), the test session
  runs in a network namespace of its own, with only a loopback interface: the
  processes the network tests start talk over this session's ``lo`` and find
  each other by mDNS there, so nothing reaches the machine's network, and a
  second test session running at the same time (or a node a person runs)
  cannot see this session's tables, nor they its.  The namespace tests
  (``tests/netns.py``) make their own namespaces as before.  Set
  ``TAROCK_TEST_SHARED_NET=1`` to stay in the machine's namespace.
- Every test starts and ends in the catalogue's default language (German);
  the ``english`` fixture sets English, as ``--lang en`` does.
- The tests, and the processes they start, run the plain Python modules even
  where a native build of the sources exists (``TAROCK_NATIVE=0``, set before
  anything of tarock is imported; tests/test_native.py builds and runs its own).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("TAROCK_NATIVE", "0")  # before tarock.core's import reads it (core.native)

from tarock.client.i18n import DEFAULT, set_language

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

_CLONE_NEWNET = 0x40000000


def _private_network() -> None:
    if os.environ.get("TAROCK_TEST_SHARED_NET") or not sys.platform.startswith("linux"):
        return
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_CLONE_NEWNET) != 0:
        print(f"tests: no private network namespace ({os.strerror(ctypes.get_errno())}); "
              "the loopback tests share the machine's", file=sys.stderr)
        return
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=10)
    subprocess.run(["ip", "route", "add", "224.0.0.0/4", "dev", "lo"], check=False, timeout=10,
                   stderr=subprocess.DEVNULL)


_private_network()


@pytest.fixture(autouse=True)
def _language_kept() -> Iterator[None]:
    """Each test starts in the catalogue's default language and leaves it so
    (``tarock --lang en`` run in-process sets the language of the process)."""
    set_language(DEFAULT)
    yield
    set_language(DEFAULT)


@pytest.fixture
def english() -> None:
    """What the tests of English words read: the line client with ``--lang en``."""
    set_language("en")
