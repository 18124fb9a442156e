"""Who a plugin is: its name, its version, the digest of the file it was loaded from, and
which plugin's code an exception came from."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Mapping
from functools import cache
from importlib.metadata import PackageNotFoundError, packages_distributions, version
from pathlib import Path
from types import ModuleType

import pluggy


def plugin_name(plugin: object) -> str:
    """The name a plugin goes by: its ``name``, else its module's or class's."""
    return getattr(plugin, "name", None) or getattr(plugin, "__name__", None) or type(plugin).__name__


@cache
def _distributions() -> Mapping[str, list[str]]:
    return packages_distributions()


def plugin_version(plugin: object) -> str:
    """The plugin's ``version``; else that of the package providing its module."""
    ver = getattr(plugin, "version", None)
    if isinstance(ver, str) and ver:
        return ver
    module = plugin_module(plugin)
    for dist in _distributions().get(module.partition(".")[0], []):
        try:
            return f"{dist}=={version(dist)}"
        except PackageNotFoundError:
            continue
    return "unversioned"


SOURCE_DIGEST = "__tarock_source_sha256__"
"""The attribute :func:`core.plugins.load_plugin_file` sets on a plugin file's
module: the sha256 of the file's bytes as imported.  :func:`plugin_source` sets it on
an installed plugin's module, with :data:`SOURCE_ROOT`, the first time it is asked."""
SOURCE_ROOT = "__tarock_source_root__"
"""The file or package folder :data:`SOURCE_DIGEST` covers, where it is not the module's file."""
OWN_PACKAGES = ("tarock.core", "tarock.variants", "tarock.net", "tarock.client", "tarock.tools")
"""The packages of tarock itself: their plugins (the installed variants) are identified by
their versions, so that a record replays under every build of one release."""


def plugin_module(plugin: object) -> str:
    """The name of the module a plugin (an object, or a module) comes from."""
    return plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__


def package_root(file: Path) -> Path:
    """The folder of the outermost regular package holding ``file`` (each folder up to it
    has an ``__init__.py``), or ``file`` itself for a module outside any package."""
    root = file
    while (root.parent / "__init__.py").is_file():
        root = root.parent
    return root


def code_digest(root: Path) -> str:
    """The sha256 of the Python code under ``root`` (a file, or every ``.py`` file below a
    folder by its path relative to it), as it is now on disk."""
    files = [root] if root.is_file() else sorted(root.rglob("*.py"))
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.relative_to(root).as_posix().encode() if file != root else b"")
        digest.update(b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def installed(module_name: str) -> bool:
    """Whether an installed package other than tarock's own parts provides ``module_name``."""
    if module_name == "tarock" or module_name.startswith(tuple(p + "." for p in OWN_PACKAGES)) or \
            module_name in OWN_PACKAGES:
        return False
    return module_name.partition(".")[0] in _distributions()


def hash_installed(module: ModuleType) -> None:
    """Note on ``module`` the digest of its package's code (:func:`code_digest` of its
    :func:`package_root`), so that the rules hash covers it: a plugin from an installed
    package changed without a new version is noticed like a plugin file."""
    file = getattr(module, "__file__", None)
    if not file or hasattr(module, SOURCE_DIGEST):
        return
    root = package_root(Path(file).resolve())
    try:
        digest = code_digest(root)
    except OSError:
        return  # its code cannot be read back: identified by its version alone
    setattr(module, SOURCE_DIGEST, digest)
    setattr(module, SOURCE_ROOT, str(root))


def plugin_source(plugin: object) -> tuple[str, str] | None:
    """``(sha256 of its code, where the code is)`` for a plugin loaded from a file by path
    or from an installed package (by entry point or as an installed variant's plugin),
    else None.

    Tarock's own plugins are identified by their versions; a club's file and another
    package's plugin by their content too, so that code changed without a new version
    is noticed (:func:`hash_installed`).
    """
    module_name = plugin_module(plugin)
    module = sys.modules.get(module_name)
    if module is None:
        return None
    if not hasattr(module, SOURCE_DIGEST) and installed(module_name):
        hash_installed(module)
    digest = getattr(module, SOURCE_DIGEST, None)
    if not isinstance(digest, str):
        return None
    return digest, str(getattr(module, SOURCE_ROOT, None) or getattr(module, "__file__", "") or module_name)


def blame(pm: pluggy.PluginManager, exc: BaseException) -> str | None:
    """``plugin 'x', hook 'tarock_y'`` for the hook implementation that raised ``exc``.

    The innermost frame of the traceback that runs an implementation
    registered with ``pm`` decides; None when no plugin code is in it.
    """
    culprits: dict[object, str] = {}
    for caller in vars(pm.hook).values():
        if isinstance(caller, pluggy.HookCaller):
            for impl in caller.get_hookimpls():
                function = getattr(impl.function, "__func__", impl.function)
                code = getattr(function, "__code__", None)
                if code is not None:
                    culprits[code] = f"plugin {plugin_name(impl.plugin)!r}, hook {caller.name!r}"
    found: str | None = None
    tb = exc.__traceback__
    while tb is not None:
        found = culprits.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    return found


def registration_error(pm: pluggy.PluginManager, name: str, exc: Exception) -> str:
    """A message naming the plugin and the hook pluggy refused to register."""
    text = str(exc)
    match = re.search(r"for hook '(\w+)'", text)
    if match is None:
        return f"plugin {name!r} cannot be loaded: {text}"
    hook = match.group(1)
    caller = getattr(pm.hook, hook, None)
    spec = caller.spec if isinstance(caller, pluggy.HookCaller) else None
    takes = f"; the hook takes ({', '.join(spec.argnames)})" if spec is not None else ""
    return (f"plugin {name!r}, hook {hook!r}: {text.strip().splitlines()[-1]}{takes}"
            " (see docs/hooks.md)")
