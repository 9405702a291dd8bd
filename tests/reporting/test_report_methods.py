"""The report chooses its band method by the data and names its headline AP interval (issue 17)."""

from __future__ import annotations

import html
import json

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.special import expit, logit
from scipy.stats import norm

from prcurve import cases, pr_confidence_band
from prcurve._core._binomial import conditional_binomial
from prcurve._inference._interval_coverage import population_precision
from prcurve._population._simulation import draw_rows
from prcurve._reporting.analysis._analysis import (
    HEADLINE_REASON,
    Settings,
    analyse,
    band_method,
    headline_interval,
)
from prcurve._reporting.input._io import BUILTIN_EXAMPLE, read_labelled_scores
from prcurve._reporting.output._summary import summary
from prcurve._reporting.output._write import write_report


@pytest.fixture(scope="module")
def example():
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    settings = Settings(
        data.source, data.label_column, tuple(data.scores), data.positive_label,
        n_resamples=100, seed=3,
    )  # fmt: skip
    return data, analyse(data, settings)


def test_band_method_rule_counts_distinct_scores():
    rng = np.random.default_rng(0)
    s = rng.normal(size=2000)
    assert band_method(s)[0] == "smoothed_bootstrap"
    # 2000 rows: the limit is max(50, 2000/20) = 100 distinct values
    coarse = np.round(s * 15) / 15  # about 100 values in ±3.4 sd
    k = np.unique(coarse).size
    assert band_method(coarse)[0] == ("bootstrap" if k < 100 else "smoothed_bootstrap")
    assert band_method(np.floor(s * 10) % 99)[0] == "bootstrap"  # 99 < 100
    assert band_method(np.arange(100.0) % 50)[0] == "smoothed_bootstrap"  # 50, not < 50
    assert band_method(np.arange(100.0) % 49)[0] == "bootstrap"
    reason = band_method(np.arange(100.0) % 49)[1]
    assert "49 distinct scores in 100 rows" in reason and "naive bootstrap" in reason


def test_decision_tree_band_is_the_naive_bootstrap(example, tmp_path):
    data, analysis = example
    tree = analysis.scorers["decision_tree"]
    assert np.unique(data.scores["decision_tree"]).size == 32  # a tree's leaves
    assert tree.band is not None and tree.band.method == "bootstrap"
    assert tree.band_reason.startswith("naive bootstrap: 32 distinct scores in 1,677 rows")
    logreg = analysis.scorers["logistic_regression"]
    assert logreg.band is not None and logreg.band.method == "smoothed_bootstrap"
    assert "smoothed bootstrap" in logreg.band_reason
    out = tmp_path / "r"
    write_report(analysis, str(out))
    js = json.loads((out / "summary.json").read_text())
    page = (out / "report.html").read_text()
    for name, sc in analysis.scorers.items():
        band = js["scorers"][name]["confidence_band"]
        assert band["method"] == sc.band.method and band["method_reason"] == sc.band_reason
        assert html.escape(sc.band_reason, quote=False) in page
    assert "why this method" in page


def test_naive_band_covers_a_discrete_curve_where_the_smoothed_band_fails():
    """Case F (15 distinct scores): the method band_method picks covers the population curve;
    the smoothed band's coverage is far below (measured 0.06 at n = 1000)."""
    model = cases.F(0.2)
    gen = np.random.default_rng(11)
    grid = np.linspace(0.05, 0.95, 100)
    truth = population_precision(model, grid, ties="interpolate")
    hits = {"bootstrap": 0, "smoothed_bootstrap": 0}
    reps = 20
    for _ in range(reps):
        n_pos = conditional_binomial(gen, 1000, model.prevalence, 1, min_each=2)
        lab, score = draw_rows(model, n_pos, 1000, gen)
        y, s = lab[0], score[0]
        chosen, _ = band_method(s)
        assert chosen == "bootstrap"
        for method in hits:
            band = pr_confidence_band(y, s, method=method, n_resamples=200, rng=gen, num=100)
            hits[method] += bool(band.contains(truth))
    # binomial bounds: at true coverage 0.95, P(hits <= 15 of 20) < 0.003; at 0.06, P(>= 6) < 0.003
    assert hits["bootstrap"] >= 16
    assert hits["smoothed_bootstrap"] <= 5


def test_headline_interval_is_the_logit_one_and_named(example, tmp_path):
    analysis = example[1]
    out = summary(analysis)
    for name, sc in analysis.scorers.items():
        head = headline_interval(sc.auc_pr_ci)
        assert head is not None and head.kind == "logit"
        entry = out["scorers"][name]["headline_auc_pr"]
        theta = entry["estimate"]
        half = norm.ppf(0.975) / np.sqrt(60 * theta * (1 - theta))  # 60 positives
        expected = expit(logit(theta) + np.array([-half, half]))
        assert_allclose([entry["low"], entry["high"]], expected)
        assert entry["interval"] == "logit" and entry["estimator"] == "average_precision"
        assert entry["why"] == HEADLINE_REASON
    write_report(analysis, str(tmp_path / "r"))
    page = (tmp_path / "r" / "report.html").read_text()
    for entry in (out["scorers"][n]["headline_auc_pr"] for n in analysis.scorers):
        assert f"[{entry['low']:.4f}, {entry['high']:.4f}] (logit)" in page
    assert "AP interval in this table: logit interval" in page
    best = max(out["scorers"], key=lambda n: out["scorers"][n]["auc_pr"]["average_precision"])
    head = out["scorers"][best]["headline_auc_pr"]
    assert f"95% logit interval {head['low']:.3f} to {head['high']:.3f}" in page  # ranking


def test_headline_falls_back_when_the_logit_interval_is_missing(example):
    _, analysis = example
    cis = dict(analysis.scorers["naive_bayes"].auc_pr_ci)
    ap = dict(cis["average_precision"])
    del ap["logit"]
    cis["average_precision"] = ap
    head = headline_interval(cis)
    assert head is not None and head.kind == "bootstrap_percentile"
    assert headline_interval({}) is None
