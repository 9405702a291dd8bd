"""The "My AP differs from another tool's" table and numbers are what the code gives.

The section moved from the README to docs/guide/tool-conventions.md (issue 28); so did its check.
"""

import re
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

from prcurve import compat

README = Path(__file__).resolve().parents[1] / "docs" / "guide" / "tool-conventions.md"
SCORERS = ("logistic_regression", "naive_bayes", "decision_tree")


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("## My AP differs from another tool's", 1)[1].split("\n## ", 1)[0]


def _tables():
    data = np.genfromtxt(
        files("prcurve") / "data" / "digits_9_vs_rest.csv", delimiter=",", names=True
    )
    y = data["is_nine"].astype(bool)
    return {c: compat.compare_tools(y, data[c]) for c in SCORERS}, y, data


def test_readme_table_matches_the_tools():
    tables, _, _ = _tables()
    rows = {}
    for line in _section().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"[0-9.]+", cells[1]):
            rows[cells[0]] = [float(c) for c in cells[1:]]
    expected = {
        "prcurve AP (`average_precision`)": [tables[c].average_precision for c in SCORERS],
        "prcurve DG (`davis_goadrich`)": [tables[c].davis_goadrich for c in SCORERS],
    }
    expected |= {f"`{name}`": [tables[c].value(name) for c in SCORERS] for name in compat.TOOLS}
    assert set(rows) == set(expected)
    for name, values in expected.items():
        assert rows[name] == pytest.approx([round(v, 4) for v in values], abs=1e-12), name


def test_readme_largest_difference_explained():
    tables, y, data = _tables()
    farthest = {c: tables[c].largest_difference() for c in SCORERS}
    worst = max(SCORERS, key=lambda c: abs(farthest[c].minus_dg))
    assert (worst, farthest[worst].tool) == ("naive_bayes", "yardstick")
    section = _section()
    assert "yardstick on naive Bayes: 0.5007 against 0.1103" in section
    s = data["naive_bayes"]
    top = s == s.max()
    assert (int(top.sum()), int(y[top].sum())) == (456, 53)
    assert f"recall {y[top].sum() / y.sum():.3f} at precision {y[top].mean():.3f}" in section
    merged = s > 198 / 199
    assert (int(merged.sum() - top.sum()), int(y[merged].sum() - y[top].sum())) == (70, 2)
    assert f"drops to {y[merged].mean():.3f}" in section
