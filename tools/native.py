"""The native build of the bots' search: ``python -m tarock.tools.native build|status|clean``.

``build`` compiles :data:`MODULES` with mypyc (the compiler that comes with mypy:
``pip install 'tarock[native]'``, and a C compiler) into the build folder
:mod:`core.native` loads them from; ``status`` says whether a build matches the
sources and whether this process uses it; ``clean`` removes every build.  The
compiled modules decide exactly as the Python ones (same nodes, values, cards),
about twice as fast: long bot matches (``tarock arena``, ``tarock selfplay``)
and ``hard`` at a table gain from it.  docs/bots.md, "A native build", has the
figures.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tarock.core import native

MODULES: tuple[str, ...] = (
    "tarock.core.trickbits", "tarock.core.valatbits",
    "tarock.client.bots.solver", "tarock.client.bots.leaves", "tarock.client.bots.simulate",
    "tarock.client.bots.fastplay", "tarock.client.bots.playout", "tarock.client.bots.cardsearch",
    "tarock.client.bots.worlds", "tarock.client.bots.whereabouts", "tarock.client.bots.drawing",
    "tarock.client.bots.koenig_eval", "tarock.client.bots.koenig", "tarock.client.bots.knowledge",
    "tarock.client.bots.heuristic",
)
"""What a build compiles: the search's hot loops, the rule of thumb and the compiled trick
engine (a class of one may not be subclassed by a module that is not compiled with it:
valatbits' ``Play`` is a TrickBits)."""

KEPT = 4
"""Builds kept in the cache (the newest)."""

MYPY_CONFIG = """\
[mypy]
python_version = {version}
explicit_package_bases = True
namespace_packages = True
ignore_missing_imports = True
follow_imports = silent
"""
"""The type check mypyc compiles under (the project's own strict check is .ci/typecheck)."""


class BuildError(Exception):
    """A build that could not be made; the message says why, in one line."""


def _source(name: str) -> Path:
    """The module's file relative to the package folder (``tarock.client.bots.solver`` ->
    ``client/bots/solver.py``)."""
    return Path(*name.split(".")[1:]).with_suffix(".py")


def _built(folder: Path, name: str) -> Path | None:
    """The extension module mypyc made for ``name`` under ``folder`` (None: none)."""
    stem = folder / Path(*name.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def build(modules: tuple[str, ...] = MODULES, quiet: bool = True) -> Path:
    """Compile ``modules`` and keep them as the build of the sources as they are now;
    its folder.  Of the other builds the newest ``KEPT - 1`` stay (other checkouts may use
    them).  BuildError says why it could not."""
    if importlib.util.find_spec("mypyc") is None:
        raise BuildError("mypyc is not installed (it comes with mypy: pip install 'tarock[native]')")
    key = native.source_key()
    target = native.build_dir(key)
    base = native.package_dir()
    with tempfile.TemporaryDirectory(prefix="tarock-native-") as scratch:
        src = Path(scratch) / "src"
        for root in native.ROOTS:
            if (base / root).is_dir():
                shutil.copytree(base / root, src / "tarock" / root,
                                ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
        config = Path(scratch) / "mypy.ini"
        config.write_text(MYPY_CONFIG.format(version=f"{sys.version_info[0]}.{sys.version_info[1]}"),
                          encoding="utf-8")
        files = [str(Path("tarock") / _source(name)) for name in modules]
        run = subprocess.run([sys.executable, "-m", "mypyc", "--config-file", str(config), *files],
                             cwd=src, capture_output=True, text=True, timeout=1800, check=False)
        if run.returncode != 0:
            tail = (run.stdout + run.stderr).strip().splitlines()[-3:]
            raise BuildError("mypyc failed: " + " | ".join(line.strip() for line in tail))
        made: dict[str, Path] = {}
        for name in modules:
            found = _built(src, name)
            if found is None:
                raise BuildError(f"mypyc made no extension module for {name}")
            made[name] = found
        shared = {p.name.split(".", 1)[0]: p for p in src.glob("*__mypyc*") if p.is_file()}
        staging = native.cache_dir() / f".{key}.{os.getpid()}"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        files_by_name: dict[str, str] = {}
        for name, path in made.items():  # one folder: each file named by its whole module name
            kept = f"{name}.{path.name.split('.', 1)[1]}"
            shutil.copy2(path, staging / kept)
            files_by_name[name] = kept
        for name, path in shared.items():
            shutil.copy2(path, staging / path.name)
            files_by_name[name] = path.name
        (staging / native.MANIFEST).write_text(json.dumps({"modules": files_by_name}, indent=1) + "\n",
                                               encoding="utf-8")
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
    if not quiet:
        print(f"built {len(modules)} modules into {target}")
    builds = sorted((p for p in native.cache_dir().iterdir() if p.is_dir() and not p.name.startswith(".")),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[KEPT:]:
        shutil.rmtree(old, ignore_errors=True)
    return target


def status() -> list[str]:
    """What :func:`native.install` finds, in a few lines."""
    if native.disabled():
        return [f"{native.ENV}=0: the plain Python modules"]
    folder = native.build_dir()
    if not folder.is_dir():
        return [f"no native build of these sources (python -m tarock.tools.native build makes one in "
                f"{native.cache_dir()})"]
    try:
        modules = native.read_manifest(folder)
    except ValueError as exc:
        return [f"a broken build: {exc}"]
    used = native.installed()
    compiled = sum(1 for name in modules if name.startswith("tarock."))
    return [f"a native build of these sources: {folder} ({compiled} modules)",
            "in use in this process" if used == folder else "not in use in this process"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tarock.tools.native",
                                     description="The native build of the bots' search.")
    parser.add_argument("what", choices=("build", "status", "clean"))
    args = parser.parse_args(argv)
    if args.what == "build":
        try:
            build(quiet=False)
        except (BuildError, OSError, subprocess.SubprocessError) as exc:
            print(f"tarock.tools.native: {exc}", file=sys.stderr)
            return 1
        return 0
    if args.what == "clean":
        shutil.rmtree(native.cache_dir(), ignore_errors=True)
        print(f"removed {native.cache_dir()}")
        return 0
    for line in status():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
