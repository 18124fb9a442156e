"""The distribution installs one package, ``tarock``, and nothing else at the top of site-packages.

The folders at the top of the repository (core/, variants/, net/, client/, tools/) install as
``tarock.core``, ``tarock.variants``, ``tarock.net``, ``tarock.client`` and ``tarock.tools`` (pyproject.toml,
setuptools' package-dir). A wheel is built from this checkout and its file list read: a
generic top-level name such as ``core`` or ``client`` would break any other distribution
that has one, or be broken by it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("core", "variants", "net", "client", "tools")


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
                   check=True, timeout=600, capture_output=True)
    (wheel,) = out.glob("tarock-*.whl")
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


def test_only_the_tarock_package_lands_at_the_top(wheel_names: list[str]) -> None:
    tops = {name.split("/")[0] for name in wheel_names}
    assert {t for t in tops if not t.startswith("tarock-")} == {"tarock"}, sorted(tops)
    data = [n for n in wheel_names if n.split("/")[0].endswith(".data")]
    # Data files (plugins.toml and its examples) go to <prefix>/share/tarock, never site-packages.
    assert data and all(n.split("/")[1:3] == ["data", "share"] for n in data), data


def test_every_module_of_the_folders_is_in_the_package(wheel_names: list[str]) -> None:
    expected = {f"tarock/{path.relative_to(ROOT).as_posix()}"
                for folder in FOLDERS for path in (ROOT / folder).rglob("*.py")
                if "__pycache__" not in path.parts}
    missing = expected - set(wheel_names)
    assert not missing, f"not installed (add the subpackage to pyproject.toml's packages): {sorted(missing)}"
    catalogues = [n for n in wheel_names if n.endswith(".po")]
    assert catalogues, "the message catalogues are not in the package"


BARE = re.compile(r"(^\s*|\\n|\")(from|import) (core|variants|net|client|tools)[.\s]", re.M)
"""An import of a folder by its bare name: at the start of a line, or in a string of code."""


def bare_imports(root: Path) -> list[str]:
    """The files under ``root`` (its package folders, tests, examples, fuzz, docs and README)
    that import a folder by its bare name."""
    paths = [path for top in (*FOLDERS, "tests", "examples", "fuzz")
             for path in (root / top).rglob("*.py")]
    paths = [p for p in paths if p.name != "test_wheel.py"]  # its own examples of bare imports
    paths += [*(root / "docs").glob("*.md"), root / "README.md"]
    return [str(path.relative_to(root)) for path in paths
            if path.is_file() and BARE.search(path.read_text(encoding="utf-8"))]


def test_the_source_imports_the_package_by_its_name() -> None:
    """No module, test, example or document imports a folder by its bare name: it would
    work in a checkout only (the checkout's folder on sys.path), and load a second copy."""
    found = bare_imports(ROOT)
    assert not found, found


def test_a_bare_import_is_found(tmp_path: Path) -> None:
    """The same search over a planted tree: a bare import at a line's start, in a string of
    code and in a document is found; the package's own name is not."""
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "ok.py").write_text("from tarock.core.cards import Card\n", encoding="utf-8")
    (tmp_path / "core" / "lazy.py").write_text("def f() -> None:\n    import net.audit\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "plugin.py").write_text('SRC = "from core.hookspecs import hookimpl\\n"\n',
                                                  encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "x.md").write_text("```python\nfrom variants.api import X\n```\n", encoding="utf-8")
    assert sorted(bare_imports(tmp_path)) == ["core/lazy.py", "docs/x.md", "tests/plugin.py"]
