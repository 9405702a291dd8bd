"""The report's "Choosing a threshold" section (``--cost-ratio``, ``--prevalence``, ``--top-k``),
through the real entry point, checked against the library functions on the same data."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from prcurve import (
    expected_cost,
    net_benefit,
    precision_at_k,
    recall_at_k,
    threshold_view,
)

from ..conftest import STRICT_WARNINGS
from ._helpers import two_scorer_csv


def _run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": STRICT_WARNINGS}
    res = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", *args],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    if check:
        assert res.returncode == 0, res.stderr
    return res


def _columns(path):
    raw = np.genfromtxt(path, delimiter=",", names=True)
    return raw["y"].astype(bool), {"a": raw["a"], "b": raw["b"]}


@pytest.fixture(scope="module")
def csv(tmp_path_factory):
    return two_scorer_csv(tmp_path_factory.mktemp("choice") / "scores.csv", n=2000, seed=5)


@pytest.fixture(scope="module")
def report(csv, tmp_path_factory):
    out = tmp_path_factory.mktemp("choice_out") / "out"
    _run(
        str(csv), "--label", "y", "--score", "a", "--score", "b", "--out", str(out),
        "--quiet", "--n-resamples", "200", "--cost-ratio", "1/20", "--prevalence", "0.02",
        "--top-k", "150",
    )  # fmt: skip
    return out, json.loads((out / "summary.json").read_text())


def test_cost_optimal_threshold_and_net_benefit_equal_the_library(csv, report):
    _, data = report
    y, scores = _columns(csv)
    assert data["settings"]["cost_ratio"] == 0.05 and data["settings"]["top_k"] == 150
    for name, s in scores.items():
        c = data["scorers"][name]["threshold_choice"]["cost_optimal"]
        ec = expected_cost(y, s, cost_fp=0.05, cost_fn=1.0, prevalence=0.02)
        assert (c["prevalence"], c["prevalence_source"]) == (0.02, "known")
        assert c["threshold"] == ec.threshold and not c["flags_nothing"]
        assert c["expected_cost"] == ec.minimum
        nb = net_benefit(y, s, threshold_probabilities=[0.05 / 1.05], prevalence=0.02)
        # the cost-optimal threshold is the best net benefit's (expected cost = π − NB)
        assert nb.best_thresholds[0] == ec.threshold
        assert c["net_benefit"] == pytest.approx(nb.best_net_benefit[0], rel=1e-12, abs=1e-15)
        assert c["expected_cost"] == pytest.approx(0.02 - c["net_benefit"], rel=1e-12)
        assert c["treat_all_net_benefit"] == pytest.approx(nb.treat_all[0], rel=1e-12)
        # counted directly: recall and FPR at the threshold, precision and share flagged at π
        tpr, fpr = np.mean(s[y] >= c["threshold"]), np.mean(s[~y] >= c["threshold"])
        assert (c["recall"], c["fpr"]) == pytest.approx((tpr, fpr), rel=1e-12)
        assert c["precision"] == pytest.approx(0.02 * tpr / (0.02 * tpr + 0.98 * fpr), rel=1e-12)
        assert c["queue_rate"] == pytest.approx(0.02 * tpr + 0.98 * fpr, rel=1e-12)
        for key in ("expected_cost", "net_benefit"):
            ci = c[f"{key}_interval"]
            assert ci["low"] < c[key] < ci["high"]
        # known π: treating everyone has the same net benefit in every replicate
        assert c["treat_all_interval"] == pytest.approx(
            {"low": c["treat_all_net_benefit"], "high": c["treat_all_net_benefit"]}
        )
        ti = c["threshold_interval"]
        assert ti["low"] <= c["threshold"] <= ti["high"]
        assert ti["low"] in s and ti["high"] in s  # scores of the data


def test_top_k_equals_the_library(csv, report):
    _, data = report
    y, scores = _columns(csv)
    for name, s in scores.items():
        t = data["scorers"][name]["threshold_choice"]["top_k"]
        assert (t["k"], t["depth_rows"]) == (150, 150.0)
        assert t["precision_at_k"] == precision_at_k(y, s, 150)
        assert t["recall_at_k"] == recall_at_k(y, s, 150)
        # the threshold reached by the 150th row (scores descending)
        assert t["threshold"] == np.sort(s)[::-1][149]
        for key in ("precision_at_k", "recall_at_k"):
            ci = t[f"{key}_interval"]
            assert ci["low"] <= t[key] <= ci["high"]


def test_threshold_view_size_and_page(csv, report):
    out, data = report
    y, scores = _columns(csv)
    page = (out / "report.html").read_text()
    assert '<h2 id="choosing">Choosing a threshold</h2>' in page
    assert '<a href="#choosing">choosing a threshold</a>' in page
    assert "How to read this." in page and "expected cost = π − net benefit" in page
    for i, (name, s) in enumerate(scores.items()):
        v = data["scorers"][name]["threshold_choice"]["threshold_view"]
        assert v["n_thresholds"] == threshold_view(y, s).thresholds.shape[0]
        assert v["n_resamples"] == 200 and v["band_points"] > 0
        assert f'<figure id="threshold-view-{i}">' in page
        c = data["scorers"][name]["threshold_choice"]["cost_optimal"]
        assert f"{c['threshold']:.6g}" in page and f"{c['net_benefit']:.4f}" in page
        t = data["scorers"][name]["threshold_choice"]["top_k"]
        assert f"{t['precision_at_k']:.4f}" in page
    steps = [s["step"] for s in data["inference"]]
    assert "a: threshold view" in steps and "a: cost-optimal threshold and top K" in steps


def test_without_options_only_the_view(csv, tmp_path):
    out = tmp_path / "plain"
    _run(str(csv), "--label", "y", "--score", "a", "--out", str(out), "--quiet",
         "--n-resamples", "50")  # fmt: skip
    data = json.loads((out / "summary.json").read_text())
    entry = data["scorers"]["a"]["threshold_choice"]
    assert entry["cost_optimal"] is None and entry["top_k"] is None
    assert entry["threshold_view"]["n_resamples"] == 50
    page = (out / "report.html").read_text()
    assert "Choosing a threshold" in page and "cost-optimal threshold" not in page


def test_cost_ratio_alone_uses_the_data_prevalence_and_a_fraction_top_k(csv, tmp_path):
    out = tmp_path / "ratio"
    _run(str(csv), "--label", "y", "--score", "b", "--out", str(out), "--quiet",
         "--n-resamples", "100", "--cost-ratio", "0.2", "--top-k", "0.05")  # fmt: skip
    data = json.loads((out / "summary.json").read_text())
    y, scores = _columns(csv)
    c = data["scorers"]["b"]["threshold_choice"]["cost_optimal"]
    ec = expected_cost(y, scores["b"], cost_fp=0.2, cost_fn=1.0)
    assert c["prevalence_source"] == "data" and c["prevalence"] == pytest.approx(y.mean())
    assert (c["threshold"], c["expected_cost"]) == (ec.threshold, ec.minimum)
    # the data's prevalence varies across replicates: treating everyone has a real interval
    ti = c["treat_all_interval"]
    assert ti["low"] < c["treat_all_net_benefit"] < ti["high"]
    t = data["scorers"]["b"]["threshold_choice"]["top_k"]
    assert t["depth_rows"] == pytest.approx(0.05 * 2000)
    assert t["precision_at_k"] == precision_at_k(y, scores["b"], 0.05)


def test_a_prohibitive_cost_flags_nothing(tmp_path):
    # the highest score is a negative: every threshold flags a false positive
    y = np.arange(400) % 5 == 1
    s = -np.arange(400.0)
    path = tmp_path / "s.csv"
    rows = zip(y.astype(int).tolist(), s.tolist(), strict=True)
    path.write_text("y,s\n" + "".join(f"{u},{v!r}\n" for u, v in rows))
    out = tmp_path / "nothing"
    _run(str(path), "--label", "y", "--score", "s", "--out", str(out), "--quiet",
         "--n-resamples", "50", "--cost-ratio", "1000")  # fmt: skip
    data = json.loads((out / "summary.json").read_text())
    c = data["scorers"]["s"]["threshold_choice"]["cost_optimal"]
    assert expected_cost(y, s, cost_fp=1000.0, cost_fn=1.0).threshold == np.inf
    assert c["flags_nothing"] and c["threshold"] is None and c["net_benefit"] == 0.0
    assert c["expected_cost"] == pytest.approx(y.mean()) and c["recall"] == 0.0
    assert "flag nothing" in (out / "report.html").read_text()


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (
            ["--cost-ratio", "0"],
            r"argument --cost-ratio: expected a cost ratio c_FP/c_FN > 0, got 0",
        ),
        (["--cost-ratio", "x"], r"argument --cost-ratio: expected a cost ratio c_FP/c_FN > 0 such"),
        (["--cost-ratio", "inf"], r"argument --cost-ratio: expected a cost ratio c_FP/c_FN > 0"),
        (["--top-k", "0"], r"argument --top-k: expected an integer number of rows >= 1 or a frac"),
        (["--top-k", "1.5"], r"argument --top-k: expected an integer number of rows >= 1 or a fra"),
        (["--top-k", "k"], r"argument --top-k: expected an integer number of rows >= 1 or a frac"),
    ],
)
def test_usage_errors(csv, args, match):
    res = _run(str(csv), "--label", "y", "--score", "a", *args, check=False)
    assert res.returncode == 2
    assert re.search(match, res.stderr)


def test_top_k_beyond_the_rows_is_one_clear_line(csv, tmp_path):
    res = _run(str(csv), "--label", "y", "--score", "a", "--out", str(tmp_path / "o"),
               "--top-k", "5000", "--quiet", check=False)  # fmt: skip
    assert res.returncode != 0
    assert re.fullmatch(
        r"prcurve: error: --top-k: expected an integer number of rows in \[1, 2000\] or a "
        r"fraction of the rows in \(0, 1\), got 5000\n",
        res.stderr,
    )


@pytest.mark.parametrize("option", [["--cost-ratio", "0.1"], ["--top-k", "10"]])
def test_refused_on_multiclass_and_folds(csv, tmp_path, option):
    multi = tmp_path / "multi.csv"
    multi.write_text("y,p_0,p_1,fold\n" + "".join(f"{i % 2},0.{i},0.{9 - i},{i % 3}\n"
                                                  for i in range(9)))  # fmt: skip
    res = _run(str(multi), "--label", "y", "--score-prefix", "p_", *option, check=False)
    # one line, exit status 1, as the Dask engine's refusals (issue 24 item 4)
    assert res.returncode == 1
    assert res.stderr == (
        f"prcurve: error: {option[0]}: not supported by a multiclass report (the threshold "
        "choice is made for one binary problem)\n"
    )
    res = _run(str(multi), "--label", "y", "--score", "p_0", "--fold", "fold", *option,
               check=False)  # fmt: skip
    assert res.returncode == 1
    assert res.stderr == (
        f"prcurve: error: {option[0]}: not supported by a cross-validation (--fold) report (the "
        "threshold choice is made for one binary problem)\n"
    )


@pytest.mark.parametrize("option", [["--cost-ratio", "0.1"], ["--top-k", "10"]])
def test_works_on_dask_as_in_memory(csv, tmp_path, option):
    """The threshold choice on Dask is the in-memory one (one analysis for every engine)."""
    pytest.importorskip("dask.dataframe")
    for engine in ("dask", "memory"):
        _run(str(csv), "--label", "y", "--score", "a", "--engine", engine, "--n-resamples", "50",
             "--out", str(tmp_path / engine), *option)  # fmt: skip
    got, ref = (
        json.loads((tmp_path / e / "summary.json").read_text())["scorers"]["a"]
        for e in ("dask", "memory")
    )
    assert got["threshold_choice"] == ref["threshold_choice"]


def test_weighted_report_equals_the_weighted_library(tmp_path):
    rng = np.random.default_rng(2)
    n = 1500
    y = rng.random(n) < 0.1
    a = np.round(rng.normal(size=n) + 1.5 * y, 2)
    w = rng.integers(0, 4, n)
    path = tmp_path / "w.csv"
    rows = zip(y.astype(int).tolist(), a.tolist(), w.tolist(), strict=True)
    path.write_text("y,a,w\n" + "".join(f"{u},{v!r},{x}\n" for u, v, x in rows))
    out = tmp_path / "out"
    _run(str(path), "--label", "y", "--score", "a", "--weight", "w", "--out", str(out),
         "--quiet", "--n-resamples", "100", "--cost-ratio", "0.2", "--top-k", "100")  # fmt: skip
    entry = json.loads((out / "summary.json").read_text())["scorers"]["a"]["threshold_choice"]
    c, t = entry["cost_optimal"], entry["top_k"]
    ec = expected_cost(y, a, cost_fp=0.2, cost_fn=1.0, sample_weight=w)
    assert (c["threshold"], c["expected_cost"]) == (ec.threshold, ec.minimum)
    assert c["net_benefit_interval"]["low"] < c["net_benefit"] < c["net_benefit_interval"]["high"]
    assert t["precision_at_k"] == precision_at_k(y, a, 100, sample_weight=w)
    assert t["recall_at_k"] == recall_at_k(y, a, 100, sample_weight=w)
    # no interval of precision@K with weights: said, not left out silently
    assert t["precision_at_k_interval"] is None
    assert entry["notes"] == [
        "precision@K and recall@K: no interval with sample weights (the bootstrap would need "
        "the rows of each replicate's tie groups)"
    ]


@pytest.mark.parametrize("on_disk", [False, True])
def test_the_drawn_view_is_thinned_keeping_bands_marks_and_every_pixel_column(tmp_path, on_disk):
    """Also for a curve on disk (the Dask engine's), whose view is thinned from metrics read
    slice by slice off the counts, never written out whole: the same rows and values."""
    from types import SimpleNamespace

    from prcurve._core._counts import BinaryCounts, count_sorted
    from prcurve._core._disk import counts_from_files, is_on_disk
    from prcurve._core._empirical import PRCurve
    from prcurve._reporting.analysis._choice import ViewBands, full_view
    from prcurve._reporting.render._choice_html import _thinned
    from prcurve.plot._thin import COLUMNS

    rng = np.random.default_rng(4)
    y = rng.random(40_000) < 0.1
    s = rng.normal(size=40_000) + y
    view = threshold_view(y, s, n_resamples=20, rng=0)
    marks = [float(s[3]), float(s[7])]
    counts = count_sorted(y, s)
    if on_disk:
        for name in ("thresholds", "tp", "fp"):
            np.save(tmp_path / f"{name}.npy", getattr(counts, name))
        arrays = counts_from_files(tmp_path, ("thresholds", "tp", "fp"))
        counts = BinaryCounts(*arrays, counts.n_pos, counts.n_neg)
    pr = PRCurve.from_counts(counts)
    assert is_on_disk(pr.tp) == on_disk
    metrics = ("precision", "recall", "f_beta", "queue_rate", "fpr")
    vb = ViewBands(
        band_index=view.band_index, bands={m: view.band(m) for m in metrics},
        precision_defined=view.precision_defined, level=view.level,
        n_resamples=view.n_resamples, sampling=view.sampling, beta=view.beta,
    )  # fmt: skip
    sc = SimpleNamespace(pr=pr, view_bands=vb, threshold_view=full_view(pr, vb))
    thin = _thinned(sc, marks)
    assert not is_on_disk(thin.precision)
    assert thin.thresholds.shape[0] < view.thresholds.shape[0] / 2
    np.testing.assert_array_equal(thin.band_thresholds, view.band_thresholds)
    for t in marks:  # the marked thresholds' metrics, as the markers read them
        i, j = (int(np.searchsorted(-v.thresholds, -t, side="right")) - 1 for v in (thin, view))
        assert thin.thresholds[i] == view.thresholds[j] == t
        assert thin.precision[i] == view.precision[j] and thin.recall[i] == view.recall[j]
    # every pixel column of the drawn axis keeps each metric's lowest and highest value
    lo, hi = float(s.min()), float(s.max())
    cols_full = np.minimum(((view.thresholds - lo) / (hi - lo) * COLUMNS).astype(int), COLUMNS - 1)
    cols_thin = np.minimum(((thin.thresholds - lo) / (hi - lo) * COLUMNS).astype(int), COLUMNS - 1)
    for metric in ("precision", "recall", "f_beta", "queue_rate", "fpr"):
        full, kept = view.metric(metric), thin.metric(metric)
        for reduce in (np.fmin, np.fmax):
            a, b = np.full(COLUMNS, np.nan), np.full(COLUMNS, np.nan)
            reduce.at(a, cols_full, full)
            reduce.at(b, cols_thin, kept)
            np.testing.assert_array_equal(a, b)
