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
    # the public reproduction of other tools' AUC-PR conventions (no tool is imported)
    "compat": STATISTICS,
    # the public Dask engine: statistics on dask collections (dask itself imported lazily)
    "dask": STATISTICS,
    # the public Spark engine: runs the Dask engine's per-partition passes (pyspark lazily)
    "spark": STATISTICS | {"dask"},
    # the public PyTorch metric: a mergeable accumulator synced across processes (torch lazily)
    "torch": STATISTICS,
    "plot": STATISTICS,
    # (compat: the report's "what other tools would report" table)
    "_reporting": STATISTICS | {"plot", "cases", "compat", "dask", "spark", "__init__"},
    "_api": STATISTICS | {"cases"},
    "__init__": {"_api", "cases"},
    "_cli_parser": {"__init__", "_plan_cli"},
    # `prcurve plan`: its options (added by _cli_parser) and its run (called by cli)
    "_plan_cli": {"_reporting", "__init__"},
    "cli": STATISTICS | {"_reporting", "_cli_parser", "_plan_cli", "cases", "dask", "__init__"},
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


#: The report's stages in pipeline order: a stage imports only the stages before it.
#: ``common`` are the report's shared pieces; ``joins`` the modules that use every stage.
STAGES = ("common", "input", "analysis", "render", "output", "joins")
REPORT_ROOT = {
    "_messages": "common",
    "_progress": "common",
    "_memory": "common",
    "_interrupts": "common",
    "_before_fork": "common",
    "__init__": "joins",
    "pipeline": "joins",
    "_population": "joins",
    "_multi_report": "joins",
    "_cv_report": "joins",
    "_multi_cli": "joins",
}
REPORT_MODULES = [p for p in MODULES if _part(_module_name(p)[0]) == "_reporting"]


def _stage(module: str) -> str:
    """``prcurve._reporting.render._html`` → ``render``; ``prcurve._reporting._progress`` →
    ``common`` (see :data:`REPORT_ROOT`)."""
    parts = module.split(".")
    if len(parts) == 2:
        return REPORT_ROOT["__init__"]
    if parts[2] in STAGES[1:-1]:
        return parts[2]
    return REPORT_ROOT[parts[2]]


def test_every_report_module_has_a_stage():
    for path in REPORT_MODULES:
        assert _stage(_module_name(path)[0]) in STAGES, path


@pytest.mark.parametrize("path", REPORT_MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_report_stages_import_only_earlier_stages(path):
    """input < analysis < render < output: no stage reaches a later one."""
    stage = _stage(_module_name(path)[0])
    later = sorted(
        m
        for m in _imports(path)
        if _part(m) == "_reporting" and STAGES.index(_stage(m)) > STAGES.index(stage)
    )
    assert not later, f"{path.relative_to(SRC)} ({stage}) imports later stages: {later}"


def _third_party(path: Path) -> set[str]:
    """Every top-level package ``path`` imports, also inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize(
    "path",
    [p for p in REPORT_MODULES if _stage(_module_name(p)[0]) in ("common", "input", "analysis")],
    ids=lambda p: str(p.relative_to(SRC)),
)
def test_report_analysis_imports_no_plotting_and_no_html(path):
    """The analysis (and what it stands on) never draws or writes HTML, even lazily."""
    assert not _third_party(path) & {"matplotlib", "html", "jinja2", "PIL"}
    assert not any(_part(m) == "plot" for m in _imports(path))


def test_the_analysis_stage_is_used_through_its_public_names():
    """Other stages and the engines import no ``_private`` name of the analysis stage."""
    for path in REPORT_MODULES:
        if _stage(_module_name(path)[0]) == "analysis":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and "analysis" in (node.module or ""):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.relative_to(SRC)} imports {private} of the analysis"


def _import_graph() -> dict[str, set[str]]:
    """prcurve module → the prcurve modules it imports (a package import reaches its
    ``__init__``, which is the package's own node)."""
    names = {_module_name(p)[0]: p for p in MODULES}
    return {name: {m for m in _imports(p) if m in names} - {name} for name, p in names.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (as a path back to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_no_import_cycle_in_the_package():
    """Imports inside functions count: a lazy import is still a dependency."""
    assert _cycle(_import_graph()) is None, " → ".join(_cycle(_import_graph()) or [])


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_rule_catches_a_violation(tmp_path, monkeypatch):
    """The checker itself: an upward import is found."""
    fake = SRC / "_core" / "_fake_for_layering_test.py"
    monkeypatch.setattr(Path, "read_text", lambda self, **kw: "from ..plot import PRCurveDisplay\n")
    assert _imports(fake) == {"prcurve.plot"}
    assert "plot" not in ALLOWED["_core"]


#: Optional dependencies: imported inside functions only, never when a module is loaded.
OPTIONAL = {"dask", "distributed", "pandas", "pyarrow", "pyspark", "sklearn"}


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
    """Only the public ``prcurve.dask`` and ``prcurve.spark`` (which runs its passes), the
    report's Dask engine and the CLI reach it."""
    users = {
        _part(_module_name(p)[0]) for p in MODULES if any(_part(m) == "dask" for m in _imports(p))
    }
    assert users <= {"dask", "spark", "_reporting", "cli"}
    assert "dask" not in ALLOWED["__init__"]  # ``import prcurve`` never loads Dask
