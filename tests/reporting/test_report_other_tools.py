"""The report's "What other tools would report" table and DeLong beside the ROC AUC.

Run through the real entry point (``python -m prcurve report``) on the built-in example and on
a CSV with both engines; every number is checked against an independent computation on the
rows: each tool's value against ``prcurve.compat.auc_pr`` on the rows (itself verified against
the tools in ``tests/compat``) and scikit-learn, DeLong's interval and paired test against
``roc_auc_delong``/``delong_test`` on the rows (equal to pROC in ``tests/inference``).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from markupsafe import escape
from sklearn.metrics import average_precision_score, roc_auc_score

from prcurve import compat, delong_test, roc_auc_delong
from prcurve._reporting.input._io import BUILTIN_EXAMPLE, builtin_example_path

from ..conftest import STRICT_WARNINGS
from ._helpers import two_scorer_csv


def _report(tmp_path, *args: str) -> tuple[dict, str]:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONWARNINGS": STRICT_WARNINGS}
    done = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", *args, "--n-resamples", "50",
         "--out", str(out)],
        capture_output=True, text=True, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads((out / "summary.json").read_text()), (out / "report.html").read_text()


@pytest.fixture(scope="module")
def builtin(tmp_path_factory):
    summary, page = _report(tmp_path_factory.mktemp("builtin"))
    text = builtin_example_path().read_text()
    names = text.splitlines()[0].split(",")
    table = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1)
    y = table[:, names.index(BUILTIN_EXAMPLE.label)] == 1
    scores = {s: table[:, names.index(s)] for s in BUILTIN_EXAMPLE.scores}
    return summary, page, y, scores


def _check_tools(entry: dict, y: np.ndarray, s: np.ndarray, weight=None) -> None:
    ap = average_precision_score(y, s, sample_weight=weight)
    assert entry["average_precision"] == pytest.approx(ap, abs=1e-12)
    assert [t["tool"] for t in entry["tools"]] == list(compat.TOOLS)
    for t in entry["tools"]:
        if weight is not None and not compat.TOOLS[t["tool"]].weights:
            assert t["value"] is None and "takes no sample weights" in t["why"]
            continue
        expected = compat.auc_pr(y, s, tool=t["tool"], sample_weight=weight)
        assert t["value"] == pytest.approx(expected, abs=1e-12)
        assert t["minus_ap"] == pytest.approx(expected - ap, abs=1e-12)
        assert t["why"] == compat.TOOLS[t["tool"]].convention


def _check_delong(entry: dict, y: np.ndarray, scores: dict, level: float = 0.95) -> None:
    for name, s in scores.items():
        rows = roc_auc_delong(y, s, level=level)
        got = entry["scorers"][name]
        assert got["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        assert got["standard_error"] == pytest.approx(rows.standard_error, abs=1e-12)
        assert (got["low"], got["high"]) == pytest.approx((rows.ci.low, rows.ci.high), abs=1e-12)
    for c in entry["comparisons"]:
        test = delong_test(y, scores[c["a"]], scores[c["b"]], level=level)
        assert c["difference"] == pytest.approx(test.difference, abs=1e-12)
        assert (c["low"], c["high"]) == pytest.approx((test.ci.low, test.ci.high), abs=1e-12)
        assert c["p_value"] == pytest.approx(test.p_value, rel=1e-9, abs=1e-15)


def test_builtin_example_other_tools_table(builtin):
    summary, page, y, scores = builtin
    entry = summary["other_tools"]
    assert entry["notes"] == []
    for name, s in scores.items():
        _check_tools(entry["scorers"][name], y, s)
        assert summary["scorers"][name]["auc_pr"]["average_precision"] == pytest.approx(
            entry["scorers"][name]["average_precision"], abs=1e-15
        )
    # the page shows the table, every tool and each scorer's value with its difference
    assert "What other tools would report for these scores" in page
    for name, e in entry["scorers"].items():
        for t in e["tools"]:
            assert f"{t['value']:.4f} ({t['minus_ap']:+.4f})" in page
            assert str(escape(t["why"])) in page
        big = e["largest_difference"]
        assert f"<code>{escape(name)!s}</code>: <code>{big['tool']}</code>" in page


def test_builtin_example_delong_beside_the_roc_auc(builtin):
    summary, page, y, scores = builtin
    entry = summary["roc_delong"]
    _check_delong(entry, y, scores)
    assert len(entry["comparisons"]) == 3 and entry["rows"] == entry["n"] == y.shape[0]
    for name in scores:  # the interval beside the ROC AUC in the summary table
        e = entry["scorers"][name]
        assert f"<td>{summary['scorers'][name]['roc_auc']:.4f}</td><td>[{e['low']:.4f}, " in page
    assert "ROC AUC: paired DeLong tests" in page and f"all {y.shape[0]:,} rows" in page


def test_dask_engine_gives_the_same_tables_and_says_where_the_tests_come_from(tmp_path):
    pytest.importorskip("dask")
    csv = two_scorer_csv(tmp_path / "d.csv", n=15_000)
    data = np.loadtxt(csv, delimiter=",", skiprows=1)
    y, scores = data[:, 0] == 1, {"a": data[:, 1], "b": data[:, 2]}
    args = ("--label", "y", "--score", "a", "--score", "b")
    memory, _ = _report(tmp_path / "m", str(csv), *args)
    dask, page = _report(
        tmp_path / "k", str(csv), *args, "--engine", "dask", "--subsample", "12000"
    )
    for name, s in scores.items():
        _check_tools(dask["other_tools"]["scorers"][name], y, s)
    assert dask["other_tools"] == memory["other_tools"]
    # intervals from the exact counts of all rows; the paired test on the subsample, said so
    d = dask["roc_delong"]
    for name in scores:
        assert d["scorers"][name] == memory["roc_delong"]["scorers"][name]
    assert d["n"] == 15_000 and d["rows"] < 15_000
    assert any(f"subsample of {d['rows']:,} of the 15,000 rows" in n for n in d["notes"])
    assert f"a stratified random subsample of {d['rows']:,} of the 15,000 rows" in page
    # moved to all rows like the other comparisons: the exact AUCs and difference
    (t_dask,), (t_mem,) = d["comparisons"], memory["roc_delong"]["comparisons"]
    for key in ("auc_a", "auc_b", "difference"):
        assert t_dask[key] == pytest.approx(t_mem[key], rel=1e-12), key


def test_weighted_report_refuses_delong_and_the_unweighted_tools(tmp_path):
    csv = two_scorer_csv(tmp_path / "w.csv", n=800)
    rng = np.random.default_rng(3)
    lines = csv.read_text().splitlines()
    w = rng.uniform(0.5, 2.0, size=len(lines) - 1).round(3)
    csv.write_text(
        "\n".join([lines[0] + ",w"] + [f"{r},{v}" for r, v in zip(lines[1:], w, strict=True)])
        + "\n"
    )
    data = np.loadtxt(csv, delimiter=",", skiprows=1)
    summary, page = _report(
        tmp_path, str(csv), "--label", "y", "--score", "a", "--score", "b", "--weight", "w"
    )
    _check_tools(summary["other_tools"]["scorers"]["a"], data[:, 0] == 1, data[:, 1], data[:, 3])
    entry = summary["roc_delong"]
    assert entry["scorers"] == {} and entry["comparisons"] == []
    assert entry["notes"] == [
        "DeLong's interval and test of the ROC AUC: not computed, because DeLong's variance is "
        "defined for unweighted instances and the report's curves use the sample weights"
    ]
    assert "DeLong&#39;s variance is defined for unweighted instances" in page


def test_a_thinned_curve_gets_a_note_not_wrong_numbers():
    """An engine that keeps only a thinned curve has lost operating points: no table, a note."""
    from prcurve import pr_curve
    from prcurve._reporting.analysis._other_tools import exact_counts, other_tools
    from prcurve._reporting.analysis._roc_delong import roc_delong

    rng = np.random.default_rng(5)
    y = rng.random(3000) < 0.2
    s = rng.normal(size=3000) + y
    full, thin = pr_curve(y, s), pr_curve(y, s).thin(50)
    counts = exact_counts(full)
    assert counts is not None and exact_counts(thin) is None
    assert compat.compare_tools_from_counts(counts) == compat.compare_tools(y, s)
    found = other_tools({"a": counts, "b": None})
    assert list(found.tables) == ["a"]
    assert found.notes == [
        "what other tools would report: not computed for 'b', because this engine kept a "
        "thinned curve rather than the exact counts per distinct score, and the tools' values "
        "depend on every operating point"
    ]
    delong = roc_delong({"a": counts, "b": None}, y, {"a": s, "b": -s}, level=0.9, n=3000)
    assert list(delong.intervals) == ["a"]
    assert delong.intervals["a"].variance == pytest.approx(roc_auc_delong(y, s).variance, abs=1e-12)
    assert "DeLong interval of the ROC AUC of b: not computed" in delong.notes[0]
    assert delong.tests[0][2].difference == pytest.approx(2 * roc_auc_score(y, s) - 1, abs=1e-12)


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "other-tools.md"


def test_guide_numbers_are_the_reports(builtin):
    """docs/guide/other-tools.md quotes the report on the built-in example: every number."""
    summary, _, y, scores = builtin
    text = GUIDE.read_text(encoding="utf-8")
    assert text.startswith("# What other tools would report\n")
    entry = summary["other_tools"]["scorers"]
    names = list(scores)
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0] == "| tool | " + " | ".join(names) + " |"
    assert (
        rows[1]
        == "| prcurve AP | "
        + " | ".join(f"{entry[n]['average_precision']:.4f}" for n in names)
        + " |"
    )
    assert len(rows) == 2 + len(compat.TOOLS)
    for line, tool in zip(rows[2:], compat.TOOLS, strict=True):
        cells = [
            f"{t['value']:.4f} ({t['minus_ap']:+.4f})"
            for n in names
            for t in entry[n]["tools"]
            if t["tool"] == tool
        ]
        assert line == f"| `{tool}` | " + " | ".join(cells) + " |"
    # the largest difference, and the numbers that explain it
    best = max(
        ((n, t) for n in names for t in entry[n]["tools"]), key=lambda nt: abs(nt[1]["minus_ap"])
    )
    name, tool = best
    top = entry[name]["first_operating_point"]
    assert (name, tool["tool"]) == ("naive_bayes", "yardstick")
    assert f"yardstick's on `naive_bayes`: {tool['value']:.4f} against an AP of " in text
    assert f"{entry[name]['average_precision']:.4f}\n({tool['minus_ap']:+.4f})" in text
    assert f"shared by\n{top['rows']:.0f} rows" in text
    assert f"recall {top['recall']:.3f}, with precision {top['precision']:.3f}" in text
    assert f"contributes {top['recall'] * (1 + top['precision']) / 2:.4f}" in text
    assert f"{y.shape[0]:,} rows with {int(y.sum())} positives" in text
    distinct = len(np.unique(scores["decision_tree"]))
    assert f"only {distinct} distinct scores" in text


def test_delong_test_on_many_rows_uses_a_subsample_for_its_standard_error_only(tmp_path):
    """Above 200,000 rows the paired test's standard error is estimated on a stratified
    subsample of 200,000 and scaled to all rows; its AUCs and difference stay exact.  Against
    ``delong_test`` on every row: the difference to rounding; the standard error within 5 %
    (the subsample's estimate has a relative error of about 1/√(2·#positives) ≈ 1 % here)."""
    from prcurve import delong_test

    rng = np.random.default_rng(27)
    n = 300_000
    y = rng.random(n) < 0.05
    a = np.round(rng.normal(size=n) + 1.2 * y, 3)
    b = np.round(rng.normal(size=n) + 1.0 * y, 3)
    path = tmp_path / "big.csv"
    path.write_text("y,a,b\n" + "".join(
        f"{int(t)},{u!r},{v!r}\n" for t, u, v in zip(y, a.tolist(), b.tolist(), strict=True)
    ))  # fmt: skip
    summary, page = _report(tmp_path, str(path), "--label", "y", "--score", "a", "--score", "b")
    d = summary["roc_delong"]
    assert d["rows"] == 200_000 and d["n"] == n
    full = delong_test(y, a, b)
    (got,) = d["comparisons"]
    assert got["difference"] == pytest.approx(full.difference, rel=1e-10)
    assert got["auc_a"] == pytest.approx(full.auc_a, rel=1e-12)
    assert got["standard_error"] == pytest.approx(full.standard_error, rel=0.05)
    assert "subsample of 200,000 of the 300,000 rows" in page
