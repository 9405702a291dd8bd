"""The API reference lists every public name, each once, grouped by concept (issue 28).

Read from the reference's source (``docs/api/index.rst``), so it runs without Sphinx; the built
pages are checked in ``test_site.py``.  A public subpackage -- a package under ``src/prcurve``
whose name has no leading underscore -- must be one line of the reference's subpackage list,
whose template documents every name of its ``__all__``: ``prcurve.spark`` and ``prcurve.torch``
fail here until that line is added.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from pathlib import Path

import pytest

import prcurve

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "api" / "index.rst"


def _entries() -> list[str]:
    return re.findall(r"^   (prcurve\.[\w.]+)$", REFERENCE.read_text(encoding="utf-8"), re.M)


def public_subpackages() -> set[str]:
    src = ROOT / "src" / "prcurve"
    return {
        f"prcurve.{p.name}"
        for p in src.iterdir()
        if p.is_dir() and not p.name.startswith("_") and (p / "__init__.py").is_file()
    }


def test_every_top_level_name_is_in_the_reference_once():
    names = Counter(e.removeprefix("prcurve.") for e in _entries())
    expected = set(prcurve.__all__) - {"cases"}
    missing = sorted(expected - set(names))
    assert not missing, f"public names missing from docs/api/index.rst: {missing}"
    twice = sorted(n for n, k in names.items() if k > 1)
    assert not twice, f"listed twice: {twice}"


def test_every_case_is_in_the_reference():
    cases = importlib.import_module("prcurve.cases")
    prefix = "prcurve.cases."
    listed = {e.removeprefix(prefix) for e in _entries() if e.startswith(prefix)}
    assert set(cases.__all__) <= listed


def test_every_public_subpackage_has_its_line():
    listed = {e for e in _entries() if e in public_subpackages() | {"prcurve.cases"}}
    missing = sorted(public_subpackages() - listed)
    assert not missing, f"add one line each to the subpackage list of docs/api/index.rst: {missing}"


def test_reference_entries_exist():
    """No stale entry: each name resolves (a renamed function fails here, not in the build)."""
    for entry in _entries():
        module, _, attr = entry.rpartition(".")
        obj = importlib.import_module(module) if module != "prcurve" else prcurve
        try:
            importlib.import_module(entry)
        except ImportError:
            assert hasattr(obj, attr), entry


def test_every_public_docstring_parses_as_numpydoc():
    """numpydoc drops a section it does not know, with only a UserWarning (not a Sphinx warning,
    so ``-W`` misses it): e.g. "Attributes (after plot)" lost every Display's attributes."""
    import inspect
    import warnings

    docscrape = pytest.importorskip("numpydoc.docscrape", reason="pip install -e '.[docs]'")
    objects = [getattr(prcurve, n) for n in prcurve.__all__ if n != "cases"]
    for package in sorted(public_subpackages()):
        module = importlib.import_module(package)
        objects += [getattr(module, n) for n in module.__all__]
    for obj in objects:
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            (docscrape.ClassDoc if inspect.isclass(obj) else docscrape.FunctionDoc)(obj)
