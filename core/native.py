"""Native builds of this package's hot modules, used where one matches the sources.

``python -m tarock.tools.native build`` compiles a few modules (the bots' search,
the compiled trick engine) to C extensions with mypyc, the compiler of mypy,
into ``<user cache>/tarock/native/<key>/``.  The key is a digest of the Python
version and of every ``.py`` file of the package as it is now, so a build
serves exactly the sources it was made from: after any edit, an upgrade or a
checkout of another commit the key differs, no build matches, and every module
is the plain Python one.  A build holds ``manifest.json``: the modules it
compiled and their files (and mypyc's shared library of them, a top-level
module named by a hash).

:func:`install` (run when :mod:`tarock.core` is imported, before any module a
build may hold) puts a finder first on ``sys.meta_path`` that loads those
modules from the matching build.  The compiled code decides exactly as the
Python code does (tests/test_native.py plays the same boards and solves the
same positions both ways); it is only faster.  ``TAROCK_NATIVE=0`` turns the
builds off; a build that cannot be loaded is ignored (``tarock.tools.native
status`` says why).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

ENV = "TAROCK_NATIVE"
"""Set to ``0`` to keep every module the plain Python one."""
ROOTS = ("core", "variants", "net", "client", "tools")
"""The package's folders (``tarock.core`` ...), all of whose sources the key covers."""
MANIFEST = "manifest.json"


def disabled() -> bool:
    """Whether ``TAROCK_NATIVE=0`` keeps every module the plain Python one."""
    return os.environ.get(ENV, "") == "0"


def package_dir() -> Path:
    """The folder holding ``core/``, ``client/`` ... (a checkout, or site-packages' ``tarock``)."""
    return Path(__file__).resolve().parent.parent


def cache_dir() -> Path:
    """Where builds are kept: ``<user cache dir>/tarock/native``."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("tarock")) / "native"


def source_key(base: Path | None = None) -> str:
    """The digest of the Python version and every ``.py`` file under the package's folders."""
    base = package_dir() if base is None else base
    digest = hashlib.blake2b(digest_size=12)
    digest.update(f"{sys.implementation.cache_tag}|{sys.version}".encode())
    for root in ROOTS:
        folder = base / root
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.relative_to(base).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_dir(key: str | None = None) -> Path:
    """The folder of the build for ``key`` (default: the sources as they are now)."""
    return cache_dir() / (source_key() if key is None else key)


def read_manifest(folder: Path) -> dict[str, str]:
    """Module name -> file name (in ``folder``) of a build; ValueError says what is wrong."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{folder / MANIFEST}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ValueError(f"{folder / MANIFEST}: not JSON ({exc})") from None
    modules = data.get("modules") if isinstance(data, dict) else None
    if not isinstance(modules, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in modules.items()):
        raise ValueError(f"{folder / MANIFEST}: no table of modules")
    for name, file in modules.items():
        if not (folder / file).is_file():
            raise ValueError(f"{folder / MANIFEST}: {name}'s file {file} is missing")
    return dict(modules)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the modules of one build (and only those)."""

    def __init__(self, folder: Path, modules: dict[str, str]) -> None:
        self.folder = folder
        self.modules = modules

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.modules.get(fullname)
        if file is None:
            return None
        location = str(self.folder / file)
        return importlib.util.spec_from_file_location(
            fullname, location, loader=importlib.machinery.ExtensionFileLoader(fullname, location))


_installed: Path | None = None


def installed() -> Path | None:
    """The build this process loads its compiled modules from (None: none)."""
    return _installed


def install() -> Path | None:
    """Load the compiled modules from the build matching the sources, if there is one
    and ``TAROCK_NATIVE`` is not ``0``; the build's folder, or None."""
    global _installed
    if _installed is not None or disabled():
        return _installed
    try:
        if not cache_dir().is_dir():
            return None
        folder = build_dir()
        if not folder.is_dir():
            return None
        modules = read_manifest(folder)
    except (OSError, ValueError):
        return None
    if any(name in sys.modules for name in modules):
        return None  # too late: the plain module is already in use
    finder = _Finder(folder, modules)
    sys.meta_path.insert(0, finder)
    try:  # the build's shared library first: a build that does not load is not used
        for name in modules:
            if not name.startswith("tarock."):
                importlib.import_module(name)
    except (ImportError, OSError):
        sys.meta_path.remove(finder)
        return None
    _installed = folder
    return folder
