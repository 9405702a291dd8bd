"""Guard the architecture: each part of the package imports only from the parts below it.

Every ``import`` in every module of ``src/prcurve`` (including imports inside functions) is
resolved to the part of the package it reaches; a part may only reach the parts listed for it
below.  Statistics never import plotting or the report.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "prcurve"

STATISTICS = {
    "_core",
    "_population",
    "_parametric",
    "_prg",
    "_inference",
    "_multi",
    "_decision",
}

#: part -> the parts it may import (besides itself).  Bottom first.
ALLOWED: dict[str, set[str]] = {
    "_core": set(),
    "_population": {"_core"},
    "_parametric": {"_core", "_population"},
    "_prg": {"_core"},
    "_inference": {"_core", "_population"},
    "_multi": {"_core", "_inference"},
    # decisions at a threshold or a budget: top-k, lift, cost, net benefit, threshold view
    "_decision": {"_core", "_inference"},
    # the public scikit-learn integration: scorers and threshold tuning (sklearn imported lazily)
    "sklearn": STATISTICS,
    "cases": {"_core", "_population"},
    # the public Dask engine: statistics on dask collections (dask itself imported lazily)
    "dask": STATISTICS,
    "plot": STATISTICS,
    "_reporting": STATISTICS | {"plot", "cases", "dask", "__init__"},
    "_api": STATISTICS | {"cases"},
    "__init__": {"_api", "cases"},
    "_cli_parser": {"__init__"},
    "cli": STATISTICS | {"_reporting", "_cli_parser", "cases", "dask", "__init__"},
    "__main__": {"cli"},
}


def _part(module: str) -> str:
    """``prcurve._core._counts`` → ``_core``; ``prcurve`` → ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path) -> tuple[str, bool]:
    rel = path.relative_to(SRC.parent).with_suffix("").parts
    if rel[-1] == "__init__":
        return ".".join(rel[:-1]), True
    return ".".join(rel), False


def _submodule_or_package(package: str, name: str) -> str:
    """``from package import name``: the submodule if ``name`` is one, else the package."""
    folder = SRC.parent.joinpath(*package.split("."))
    is_module = (folder / f"{name}.py").exists() or (folder / name).is_dir()
    return f"{package}.{name}" if is_module else package


def _imports(path: Path) -> set[str]:
    """The prcurve modules that ``path`` imports, as absolute dotted names."""
    name, is_package = _module_name(path)
    package = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "prcurve"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "prcurve":
                continue
            if node.module is None or target == "prcurve":  # ``from . import x``
                found |= {_submodule_or_package(target, a.name) for a in node.names}
            else:
                found.add(target)
    return found


MODULES = sorted(SRC.rglob("*.py"))


def test_every_part_has_a_rule():
    parts = {_part(_module_name(p)[0]) for p in MODULES}
    assert parts <= set(ALLOWED), f"parts without a layering rule: {parts - set(ALLOWED)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_respect_the_layers(path):
    part = _part(_module_name(path)[0])
    bad = sorted(m for m in _imports(path) if _part(m) != part and _part(m) not in ALLOWED[part])
    assert not bad, f"{path.relative_to(SRC)} ({part}) imports {bad}: not allowed for {part}"


def test_statistics_never_import_plotting_or_the_report():
    for part in STATISTICS:
        assert not ALLOWED[part] & {"plot", "_reporting", "cli"}


def test_report_analysis_does_not_import_its_renderers():
    """``_analysis`` holds the result types that ``_html`` and ``_write`` import: no cycle."""
    analysis = _imports(SRC / "_reporting" / "_analysis.py")
    assert not analysis & {"prcurve._reporting._html", "prcurve._reporting._write"}


def test_the_rule_catches_a_violation(tmp_path, monkeypatch):
    """The checker itself: an upward import is found."""
    fake = SRC / "_core" / "_fake_for_layering_test.py"
    monkeypatch.setattr(Path, "read_text", lambda self, **kw: "from ..plot import PRCurveDisplay\n")
    assert _imports(fake) == {"prcurve.plot"}
    assert "plot" not in ALLOWED["_core"]


#: Optional dependencies: imported inside functions only, never when a module is loaded.
OPTIONAL = {"dask", "distributed", "pandas", "pyarrow", "sklearn"}


def _top_level_imports(path: Path) -> set[str]:
    """Third-party top-level packages imported at module level (not inside functions)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


#: The one exception: the public ``prcurve.sklearn`` subpackage may import scikit-learn when
#: loaded, because its estimator class must derive from scikit-learn's bases at definition.  It
#: is loaded only by ``import prcurve.sklearn`` (never by ``import prcurve``, checked below), and
#: its ``__init__`` first raises one clear ImportError naming the extra when scikit-learn is
#: missing.
EAGER_ALLOWED = {"sklearn": {"sklearn"}}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_optional_dependencies_are_imported_lazily(path):
    part = _part(_module_name(path)[0])
    eager = _top_level_imports(path) & OPTIONAL - EAGER_ALLOWED.get(part, set())
    assert not eager, f"{path.relative_to(SRC)} imports {sorted(eager)} when loaded"


def test_the_sklearn_part_is_reached_by_nobody_else():
    """No other part (so not ``import prcurve``) loads scikit-learn through ``prcurve.sklearn``."""
    users = {
        _part(_module_name(p)[0])
        for p in MODULES
        if any(_part(m) == "sklearn" for m in _imports(p))
    }
    assert users <= {"sklearn"}


def test_the_dask_part_is_only_reached_by_the_report_and_the_cli():
    """Only the public ``prcurve.dask``, the report's Dask engine and the CLI reach it."""
    users = {
        _part(_module_name(p)[0]) for p in MODULES if any(_part(m) == "dask" for m in _imports(p))
    }
    assert users <= {"dask", "_reporting", "cli"}
    assert "dask" not in ALLOWED["__init__"]  # ``import prcurve`` never loads Dask
