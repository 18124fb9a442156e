"""Who a plugin is: its name, its version, the digest of the file it was loaded from, and
which plugin's code an exception came from."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from functools import cache
from importlib.metadata import PackageNotFoundError, packages_distributions, version
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
    module = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
    for dist in _distributions().get(module.partition(".")[0], []):
        try:
            return f"{dist}=={version(dist)}"
        except PackageNotFoundError:
            continue
    return "unversioned"


SOURCE_DIGEST = "__tarock_source_sha256__"
"""The attribute :func:`core.plugins.load_plugin_file` sets on a plugin file's
module: the sha256 of the file's bytes as imported."""


def plugin_source(plugin: object) -> tuple[str, str] | None:
    """``(sha256 of its file, the file)`` for a plugin loaded from a file by path, else None.

    Installed plugins are identified by their version; a club's own file by
    its content too, so that a file changed without a new version is noticed.
    """
    module_name = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
    module = sys.modules.get(module_name)
    digest = getattr(module, SOURCE_DIGEST, None)
    if not isinstance(digest, str):
        return None
    return digest, str(getattr(module, "__file__", "") or module_name)


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
