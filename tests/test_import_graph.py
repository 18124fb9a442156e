"""No import circles in the whole tree.

The graph is read from the source with :mod:`ast`, not by importing it: every
``import`` and ``from ... import`` in core/, variants/, net/, client/ and tools/,
those inside functions included (a circle closed at run time is still a
circle). ``from pkg import name`` is an edge to ``pkg.name`` where that is a
module of the tree, else to ``pkg``; imports under ``if TYPE_CHECKING:`` are
left out (they never run). A circle is a strongly connected component of more
than one module; the test names every one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("core", "variants", "net", "client", "tools")


def _module_of(path: Path, root: Path) -> str:
    parts = ["tarock", *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, at any depth, but those under ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _type_checking(node.test):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             modules: set[str]) -> set[str]:
    """The modules of the tree that one import statement of ``module`` loads."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            stem = package[:len(package) - (node.level - 1)]
            base = ".".join([*stem, *([base] if base else [])])
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                 for alias in node.names]
    found = set()
    for name in names:
        while name and name not in modules:  # `import a.b.c` of a name that is no module: its package
            name = name.rpartition(".")[0]
        if name:
            found.add(name)
    return found


def import_graph(root: Path = ROOT, folders: Iterable[str] = FOLDERS) -> dict[str, set[str]]:
    """Each module of the tree and the modules of the tree it imports."""
    files = {_module_of(path, root): path for folder in folders
             for path in sorted((root / folder).rglob("*.py")) if "__pycache__" not in path.parts}
    modules = set(files)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        graph[module] = {target for node in _imports(tree)
                         for target in _targets(node, module, is_package, modules)} - {module}
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm,
    iterative), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_cycle_finder_finds_planted_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d", "f"}, "f": set(),
             "g": {"g", "a"}, "h": {"f"}}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycles({"x": {"y"}, "y": set()}) == []


def test_the_graph_reads_every_kind_of_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from tarock.pkg.a import thing\n")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tarock.pkg import b\n"
        "def f():\n    from . import c\n    from .sub import name\n")
    (pkg / "b.py").write_text("import tarock.pkg.sub.d\n")
    (pkg / "c.py").write_text("from tarock.pkg import a, b\n")
    (pkg / "sub" / "d.py").write_text("from ..c import x\nimport os\n")
    graph = import_graph(tmp_path, ["pkg"])
    assert graph == {
        "tarock.pkg": set(),
        "tarock.pkg.sub": {"tarock.pkg.a"},
        "tarock.pkg.a": {"tarock.pkg.c", "tarock.pkg.sub"},
        "tarock.pkg.b": {"tarock.pkg.sub.d"},
        "tarock.pkg.c": {"tarock.pkg.a", "tarock.pkg.b"},
        "tarock.pkg.sub.d": {"tarock.pkg.c"},
    }
    assert cycles(graph) == [["tarock.pkg.a", "tarock.pkg.b", "tarock.pkg.c", "tarock.pkg.sub",
                              "tarock.pkg.sub.d"]]


def test_the_tree_has_no_import_circle() -> None:
    found = cycles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


# -- the rooms and what each may import (docs/architecture.md, "The house") ---------------------

ROOMS: dict[str, tuple[str, ...]] = {
    "tarock.core": (),
    "tarock.variants": ("tarock.core",),
    "tarock.net": ("tarock.core",),
    "tarock.client.i18n": (),
    "tarock.client.text": ("tarock.core", "tarock.client.i18n"),
    "tarock.client.bots": ("tarock.core",),
    "tarock.client.ui": ("tarock.core", "tarock.net", "tarock.client"),
    "tarock.client": ("tarock.core", "tarock.net", "tarock.client"),
    "tarock.client.cli": ("tarock.core", "tarock.net", "tarock.client", "tarock.tools"),
    "tarock.tools": ("tarock.core", "tarock.variants", "tarock.net", "tarock.client"),
}
"""Each room (the longest prefix that names a module) and the rooms it may import besides
itself. Nothing imports a variant by name but the developer tools: rules are found through
the plugin catalogue. Bots are a library over core (they know no UI); the command line
(``client.cli``) reaches the tools only to run their commands, which keep their names."""


def room_of(module: str) -> str:
    return max((room for room in ROOMS if module == room or module.startswith(room + ".")), key=len)


def trespasses(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Every import of a module from a room its own room may not import."""
    found = []
    for module, targets in sorted(graph.items()):
        mine = room_of(module)
        for target in sorted(targets):
            theirs = room_of(target)
            allowed = (mine, *ROOMS[mine])
            if not any(theirs == room or theirs.startswith(room + ".") for room in allowed):
                found.append(f"{module} -> {target}")
    return found


def test_the_rule_finds_a_trespass() -> None:
    graph = {"tarock.core.engine": {"tarock.net.node"}, "tarock.client.bots.x": {"tarock.client.ui.y"},
             "tarock.client.ui.z": {"tarock.client.bots.x", "tarock.core.cards"}}
    assert trespasses(graph) == ["tarock.client.bots.x -> tarock.client.ui.y",
                                 "tarock.core.engine -> tarock.net.node"]


def test_each_room_imports_only_what_it_may() -> None:
    found = trespasses(import_graph())
    assert not found, "imports across the rooms' walls:\n" + "\n".join(found)
