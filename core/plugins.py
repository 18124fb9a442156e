"""Plugins: house rules from files or entry points, plugins.toml, the rules hash.

``plugins.toml`` says which variants a table may be opened with (``[plugins]
enabled``) and defines new ones, each a base variant plus house-rule plugins
plus option presets (``[[variant]]``).  A house-rule plugin is an object with
``name``, ``version``, ``applies_to`` and hook implementations; it is found by
path (a single Python file exporting ``PLUGIN``) or by entry point (group
``tarock.plugins``).  Everything is loaded and checked before a table starts:
every problem is a :class:`PluginError` naming the file, the variant, the
plugin and, where one is to blame, the hook.  A variant that cannot be used
is set aside with its reason (:attr:`Catalogue.unavailable`) while the others
load.  The format is documented in docs/plugins.md.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import sys
import sysconfig
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pluggy

from tarock.core import hookspecs
from tarock.core.context import TableContext
from tarock.core.options import OptionError
from tarock.core.plugin_ids import hash_installed, plugin_module
from tarock.core.rules import SOURCE_DIGEST, RuleError, Rules, blame, plugin_version
from tarock.core.variant import ENTRY_POINT_GROUP as VARIANT_GROUP
from tarock.core.variant import Origin, Variant

PLUGIN_GROUP = "tarock.plugins"
"""Entry-point group of house-rule plugins (each names a plugin class or object)."""
CONFIG_NAME = "plugins.toml"
HASH_FORMAT = "tarock-rules/2"
_CHECKOUT = Path(__file__).resolve().parent.parent
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
_IMPL_MARK = f"{hookspecs.PROJECT}_impl"
_HOOKS = frozenset(n for n in vars(hookspecs) if n.startswith("tarock_"))

__all__ = ["CONFIG_NAME", "HASH_FORMAT", "PLUGIN_GROUP", "VARIANT_GROUP", "Catalogue", "HouseRule",
           "PluginError", "builtin_catalogue", "default_config", "installed_variants",
           "load_plugin_entry_point", "load_plugin_file", "load_plugins", "plugin_version", "rules_hash"]


class PluginError(RuleError):
    """A plugin or a plugins.toml that cannot be used; raised before any table starts."""


@dataclass(frozen=True)
class HouseRule:
    """A checked house-rule plugin: its metadata and a factory (one object per table)."""

    name: str
    version: str
    applies_to: tuple[str, ...]
    origin: str
    """Where it came from: a file path or ``entry point 'x' (module:attr)``."""
    make: Callable[[], object]
    file: str = ""
    """The file it was loaded from by path, else empty."""
    entry_point: str = ""
    """The entry point it was loaded from, ``name (module:attr)``, else empty."""


@dataclass(frozen=True)
class Catalogue:
    """The variants known to this installation and those plugins.toml enables."""

    source: Path | None
    """The plugins.toml read, or None for the built-in defaults."""
    variants: Mapping[str, Variant]
    """Every usable variant by name: installed ones and those plugins.toml defines."""
    enabled: tuple[str, ...]
    """The variants offered at a table, in order (none of them unavailable)."""
    unavailable: Mapping[str, str] = field(default_factory=dict)
    """Variants that cannot be played, by name, each with its reason (one line):
    a broken ``[[variant]]``, an installed one that fails to load, one enabled
    that nobody defines.  The others load and play."""

    def offered(self) -> dict[str, Variant]:
        """The enabled variants by name, in the order plugins.toml lists them."""
        return {name: self.variants[name] for name in self.enabled}

    def find(self, name: str) -> Variant:
        """The enabled variant called ``name``; a clear error otherwise."""
        if name in self.enabled:
            return self.variants[name]
        if name in self.unavailable:
            raise PluginError(f"variant {name!r} is unavailable: {self.unavailable[name]}")
        where = str(self.source) if self.source else "the built-in defaults"
        enabled = ", ".join(self.enabled) or "none"
        params = {"name": repr(name), "where": str(self.source or ""), "enabled": ", ".join(self.enabled)}
        if name in self.variants:
            raise RuleError(f"variant {name!r} is installed but not enabled in {where}: add it to "
                            f"[plugins] enabled (enabled: {enabled})", code="not-enabled", params=params)
        raise RuleError(f"unknown variant {name!r} (enabled in {where}: {enabled})", code="unknown-variant",
                        params=params)


# -- plugins -------------------------------------------------------------------

def _factory(obj: object) -> Callable[[], object]:
    """A class makes a fresh plugin per table; any other object is shared."""
    if isinstance(obj, type):
        return obj
    return lambda: obj


def _house_rule(obj: object, origin: str) -> HouseRule:
    """Check a plugin's metadata and hook markers; the error names the origin."""
    make = _factory(obj)
    try:
        plugin = make()
    except Exception as exc:
        raise PluginError(f"plugin {origin}: creating it failed: {exc!r}") from exc
    name = getattr(plugin, "name", None)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise PluginError(f"plugin {origin}: set a name, e.g. name = \"pagat-club\" "
                          f"(letters, digits, - _ . +), not {name!r}")
    label = f"plugin {name!r} ({origin})"
    ver = getattr(plugin, "version", None)
    if not isinstance(ver, str) or not ver:
        raise PluginError(f"{label}: set a version, e.g. version = \"1.0\" (it is part of the rules hash)")
    applies = getattr(plugin, "applies_to", ())
    if isinstance(applies, str):
        applies = (applies,)
    if not isinstance(applies, Sequence) or not all(isinstance(a, str) for a in applies):
        raise PluginError(f"{label}: applies_to must be a tuple of variant names, not {applies!r}")
    for attr in sorted(_HOOKS & set(dir(plugin))):
        if callable(value := getattr(plugin, attr, None)) and not hasattr(value, _IMPL_MARK):
            raise PluginError(f"{label}, hook {attr!r}: the method lacks @hookimpl "
                              "(from core.hookspecs import hookimpl), so it would never be called")
    return HouseRule(name, ver, tuple(applies), origin, make)


def load_plugin_file(path: Path) -> HouseRule:
    """Import a single Python file and check the plugin it exports as ``PLUGIN``."""
    if not path.is_file():
        raise PluginError(f"plugin file {path} does not exist")
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    stem = re.sub(r"\W", "_", path.stem)
    module_name = f"_tarock_plugin_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PluginError(f"plugin file {path} cannot be imported (is it a .py file?)")
    module = importlib.util.module_from_spec(spec)
    try:
        setattr(module, SOURCE_DIGEST, hashlib.sha256(path.read_bytes()).hexdigest())  # in the rules hash
    except OSError as exc:
        raise PluginError(f"plugin file {path} cannot be read: {exc.strerror or exc}") from None
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise PluginError(f"plugin file {path} failed to import: {type(exc).__name__}: {exc}"
                          f"{_renamed_hint(exc)}") from exc
    if not hasattr(module, "PLUGIN"):
        raise PluginError(f"plugin file {path} defines no PLUGIN (set PLUGIN = YourPluginClass)")
    return replace(_house_rule(module.PLUGIN, str(path)), file=str(path))


_OLD_TOP = ("core", "variants", "net", "client")


def _renamed_hint(exc: Exception) -> str:
    """For a plugin written before the package had one namespace: what it imports now."""
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").partition(".")[0] in _OLD_TOP:
        return f" (the package is called tarock now: import tarock.{exc.name} instead)"
    return ""


def load_plugin_entry_point(name: str) -> HouseRule:
    """Load and check the house-rule plugin of entry point ``name`` (group ``tarock.plugins``)."""
    found = [ep for ep in entry_points(group=PLUGIN_GROUP) if ep.name == name]
    if not found:
        installed = sorted(ep.name for ep in entry_points(group=PLUGIN_GROUP))
        raise PluginError(f"no installed package offers the plugin {name!r} (entry-point group "
                          f"{PLUGIN_GROUP!r}; installed: {', '.join(installed) or 'none'})")
    ep = found[0]
    origin = f"entry point {name!r} ({ep.value})"
    try:
        obj = ep.load()
    except Exception as exc:
        raise PluginError(f"plugin {origin} failed to import: {type(exc).__name__}: {exc}") from exc
    rule = replace(_house_rule(obj, origin), entry_point=f"{name} ({ep.value})")
    module = sys.modules.get(obj.__module__ if isinstance(obj, type) else plugin_module(obj))
    if module is not None:
        hash_installed(module)  # in the rules hash, like a file's content (its package's code)
    return rule


# -- the rules hash -------------------------------------------------------------

def rules_hash(rules: Rules, context: TableContext | None = None, sources: bool = True) -> str:
    """A sha256 hex digest identifying a table's rules (and a hand's context).

    It covers the variant's name, each plugin's name and version in
    registration order (core's data rules first), the sha256 of each plugin
    file loaded by path and of each plugin package's code other than tarock's own
    (``sources``; only where there is one, so the hash of tarock's variants is as
    before) and the resolved options (canonical
    JSON), so peers whose hashes agree play the same rules.  With ``context``
    it also covers the table context a hand was played under: that is the
    hash a record carries.  ``sources=False`` is the hash as records made
    before plugin files were hashed carry it.
    """
    payload: dict[str, Any] = {
        "format": HASH_FORMAT,
        "variant": rules.variant,
        "plugins": [list(p) for p in rules.facts.plugins],
        "options": dict(rules.options),
    }
    if sources and rules.sources:
        payload["sources"] = {name: digest for name, (digest, _file) in rules.sources.items()}
    if context is not None:
        payload["context"] = rules.codec.encode(context, TableContext)
    try:
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise RuleError(f"the options of {rules.variant} are not plain data (JSON): {exc}") from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- plugins.toml ----------------------------------------------------------------

def config_candidates(cwd: Path | None = None) -> list[Path]:
    """Where ``plugins.toml`` is looked for when none is given, in order:

    1. the current directory (``cwd``);
    2. the user's configuration folder (``$XDG_CONFIG_HOME/tarock`` or
       ``~/.config/tarock`` on Linux, as platformdirs says per system);
    3. the one installed with tarock (``<prefix>/share/tarock``), or the
       source checkout's when running from one.
    """
    from platformdirs import user_config_dir

    data = [Path(sysconfig.get_path("data")), Path(sys.prefix)]
    with contextlib.suppress(KeyError):  # the user scheme of pip install --user
        data.append(Path(sysconfig.get_path("data", f"{os.name}_user")))
    installed = [d / "share" / "tarock" / CONFIG_NAME for d in dict.fromkeys(data)]
    return [(cwd or Path.cwd()) / CONFIG_NAME, Path(user_config_dir("tarock", appauthor=False)) / CONFIG_NAME,
            *installed, _CHECKOUT / CONFIG_NAME]


def default_config(cwd: Path | None = None) -> Path | None:
    """The first ``plugins.toml`` of :func:`config_candidates` that exists, else None
    (then every installed variant is offered)."""
    for candidate in config_candidates(cwd):
        if candidate.is_file():
            return candidate
    return None


def installed_variants() -> tuple[dict[str, Variant], dict[str, str]]:
    """Entry-point variants by name (each with its origin), and why each that fails to load
    does (one line)."""
    found: dict[str, Variant] = {}
    broken: dict[str, str] = {}
    for ep in entry_points(group=VARIANT_GROUP):
        try:
            variant = ep.load()
        except Exception as exc:  # a broken plugin must not hide the others
            broken[ep.name] = f"variant plugin {ep.name!r} ({ep.value}) failed to load: {exc!r}"
            continue
        if not isinstance(variant, Variant):
            broken[ep.name] = f"entry point {ep.name!r} ({ep.value}) is not a Variant"
            continue
        dist = ep.dist.name if ep.dist is not None else "an unknown package"
        found[variant.name] = replace(variant, origin=f"installed with {dist} (entry point {ep.value})",
                                      source=Origin(package=dist, entry_point=ep.value))
    return found, broken


def builtin_catalogue() -> Catalogue:
    """Without a plugins.toml: every installed variant, enabled, in lobby order
    (those that fail to load or check are listed as unavailable)."""
    found, broken = installed_variants()
    unavailable = dict(broken)
    for variant in list(found.values()):
        try:
            _check(variant, f"installed variant {variant.name!r}")
        except PluginError as exc:
            unavailable[variant.name] = str(exc)
            del found[variant.name]
    order = sorted(found.values(), key=lambda v: (v.lobby_order, v.name))
    return Catalogue(None, found, tuple(v.name for v in order), unavailable)


def load_plugins(path: str | os.PathLike[str] | None = None) -> Catalogue:
    """Read and check a plugins.toml; without ``path`` the :func:`default_config`.

    Every variant the file defines or enables is built once, so a broken or
    incompatible plugin is reported here, before any table starts.  A file
    that cannot be read or is not laid out as documented raises
    :class:`PluginError`; a variant that cannot be used (a broken
    ``[[variant]]``, its plugin or option, its base, an enabled name nobody
    defines) is listed in :attr:`Catalogue.unavailable` with its reason while
    the others load.
    """
    if path is None:
        found = default_config()
        if found is None:
            return builtin_catalogue()
        path = found
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PluginError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PluginError(f"{path} is not valid TOML: {exc}") from None
    _keys(data, {"plugins", "variant"}, str(path))
    section = _table(data.get("plugins", {}), f"{path}: [plugins]")
    _keys(section, {"enabled"}, f"{path}: [plugins]")
    installed, broken = installed_variants()
    known = dict(installed)
    unavailable: dict[str, str] = {}
    defined: list[str] = []
    for index, raw in enumerate(_list(data.get("variant", []), f"{path}: [[variant]]")):
        name = raw.get("name") if isinstance(raw, dict) else None
        fresh = isinstance(name, str) and name and name not in known and name not in unavailable
        key = name if fresh and isinstance(name, str) else f"[[variant]] #{index + 1}"
        try:
            variant = _define(path, index, _table(raw, f"{path}: [[variant]] #{index + 1}"), known,
                              {**broken, **unavailable})
            _check(variant, f"{path}: variant {variant.name!r}")
        except PluginError as exc:
            unavailable[key] = str(exc)
            continue
        defined.append(variant.name)
        known[variant.name] = variant
    names = _enabled(path, section)
    for name in names:
        if name in unavailable or name in defined:
            continue
        if name in broken:
            unavailable[name] = broken[name]
        elif name not in known:
            unavailable[name] = (f"{path}: [plugins] enabled: no installed package or [[variant]] defines "
                                 f"{name!r} (known: {', '.join(sorted(known)) or 'none'})")
        else:
            try:
                _check(known[name], f"{path}: variant {name!r}")
            except PluginError as exc:
                unavailable[name] = str(exc)
    for name in unavailable:
        known.pop(name, None)
    enabled = tuple(n for n in names if n not in unavailable)
    return Catalogue(path, known, enabled, {n: unavailable[n] for n in sorted(unavailable)})


def _keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise PluginError(f"{where}: unknown key(s) {', '.join(unknown)} "
                          f"(allowed: {', '.join(sorted(allowed))})")


def _table(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PluginError(f"{where} must be a table, not {value!r}")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise PluginError(f"{where} must be a list, not {value!r}")
    return value


def _text(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise PluginError(f"{where}: {key} must be a string" + ("" if key in table else " (it is missing)"))
    return value


def _enabled(path: Path, section: Mapping[str, Any]) -> tuple[str, ...]:
    """The names ``[plugins] enabled`` lists (whether they can be used is checked later)."""
    where = f"{path}: [plugins] enabled"
    names = _list(section.get("enabled", []), where)
    for name in names:
        if not isinstance(name, str):
            raise PluginError(f"{where} must list variant names, not {name!r}")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise PluginError(f"{where} lists {', '.join(twice)} more than once")
    return tuple(names)


def _source(path: Path, raw: object, where: str) -> HouseRule:
    """A house rule named by ``{path = ...}`` or ``{entry_point = ...}``."""
    entry = _table(raw, where)
    _keys(entry, {"path", "entry_point"}, where)
    if len(entry) != 1:
        raise PluginError(f"{where}: give exactly one of path = \"file.py\" or entry_point = \"name\"")
    try:
        if "path" in entry:
            file = Path(_text(entry, "path", where)).expanduser()
            return load_plugin_file(file if file.is_absolute() else path.parent / file)
        return load_plugin_entry_point(_text(entry, "entry_point", where))
    except PluginError as exc:
        raise PluginError(f"{where}: {exc}") from exc


def _define(path: Path, index: int, table: Mapping[str, Any], known: Mapping[str, Variant],
            broken: Mapping[str, str]) -> Variant:
    """A variant from a ``[[variant]]`` table: base + house rules + option presets."""
    where = f"{path}: [[variant]] #{index + 1}"
    _keys(table, {"name", "base", "title", "description", "plugins", "options"}, where)
    name = _text(table, "name", where)
    if not _NAME.fullmatch(name):
        raise PluginError(f"{where}: the name {name!r} must be letters, digits and - _ . + (no spaces)")
    where = f"{path}: variant {name!r}"
    if name in known:
        raise PluginError(f"{where} is already defined (by an installed package or earlier in the file)")
    base: Variant | None = None
    if "base" in table:
        base_name = _text(table, "base", where)
        if base_name in broken:
            raise PluginError(f"{where}: base {base_name!r} is unavailable: {broken[base_name]}")
        if base_name not in known:
            raise PluginError(f"{where}: unknown base variant {base_name!r} "
                              f"(known: {', '.join(sorted(known)) or 'none'})")
        base = known[base_name]
    rules = [_source(path, raw, f"{where}, plugins[{i}]")
             for i, raw in enumerate(_list(table.get("plugins", []), f"{where}: plugins"))]
    lineage = (base.name, *base.lineage) if base else ()
    for rule in rules:
        if rule.applies_to and not set(rule.applies_to) & set(lineage):
            over = f"over {lineage[0]!r}" if lineage else "without a base"
            raise PluginError(f"{where}: plugin {rule.name!r} ({rule.origin}) is written for "
                              f"{', '.join(rule.applies_to)}, so it cannot be used {over}")
    if base is None and not rules:
        raise PluginError(f"{where}: give a base variant, plugins, or both")
    presets = _table(table.get("options", {}), f"{where}: options")
    names = ", ".join(r.name for r in rules)
    title = _text(table, "title", where, f"{base.title} + {names}" if base and rules else
                  base.title if base else name)
    description = _text(table, "description", where,
                        f"{base.description} House rules: {names}." if base and rules else
                        base.description if base else "")
    parts = [f"base {base.name}"] if base else []
    parts += [f"plugin {r.name} {r.version} ({r.origin})" for r in rules]
    origin = f"{path}: " + ", ".join(parts)
    source = Origin(config=str(path), base=base.name if base else "", titled="title" in table,
                    plugins=tuple((r.name, r.version, r.file, r.entry_point) for r in rules))
    return Variant(name=name, title=title, plugins=_stack(base, rules), description=description,
                   options={**(base.options if base else {}), **presets}, lineage=lineage, origin=origin,
                   source=source)


def _stack(base: Variant | None, rules: Sequence[HouseRule]) -> Callable[[], list[object]]:
    def plugins() -> list[object]:
        return [*(base.plugins() if base else ()), *(rule.make() for rule in rules)]
    return plugins


def _blame_plugins(plugins: Sequence[object], exc: Exception) -> str:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for i, plugin in enumerate(plugins):
        pm.register(plugin, name=f"{i}")
    return blame(pm, exc) or "a plugin"


def _build(variant: Variant, options: dict[str, Any] | None, where: str) -> Rules:
    try:
        plugins = list(variant.plugins())
    except Exception as exc:
        raise PluginError(f"{where}: creating its plugins failed: {exc!r}") from exc
    try:
        return Rules(variant.name, plugins, options, variant.title)
    except RuleError as exc:
        raise PluginError(f"{where}: {exc}") from exc
    except Exception as exc:
        raise PluginError(f"{where}: {_blame_plugins(plugins, exc)} failed while the rules were "
                          f"built: {type(exc).__name__}: {exc}") from exc


def _check(variant: Variant, where: str) -> None:
    """Build the variant's rules once: plugins, hooks and option presets must be sound."""
    bare = _build(variant, None, where)
    for key, value in variant.options.items():
        declared = bare.option_specs.get(key)
        if declared is None:
            raise PluginError(f"{where}: option {key!r} is declared by no plugin of it "
                              f"(known: {', '.join(sorted(bare.option_specs)) or 'none'})")
        try:
            declared.spec.check(value, what=f"declared by plugin {declared.plugin!r}")
        except OptionError as exc:
            raise PluginError(f"{where}: {exc}") from None
    rules = _build(variant, dict(variant.options), where)
    try:
        rules_hash(rules)
    except RuleError as exc:
        raise PluginError(f"{where}: {exc}") from None
