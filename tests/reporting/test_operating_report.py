"""The report's operating-point table and deployment prevalence (``--min-precision``,
``--min-recall``, ``--prevalence``), checked against the library and scikit-learn."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from prcurve import auc_pr, operating_point, pr_curve
from prcurve.cli import main


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    rng = np.random.default_rng(11)
    n = 600
    y = (rng.random(n) < 0.25).astype(int)
    a = np.round(rng.normal(size=n) + 1.5 * y, 2)
    b = np.round(rng.normal(size=n) + 0.6 * y, 2)
    tmp = tmp_path_factory.mktemp("operating")
    path = tmp / "scores.csv"
    rows = zip(y.tolist(), a.tolist(), b.tolist(), strict=True)
    path.write_text("y,a,b\n" + "".join(f"{yi},{ai!r},{bi!r}\n" for yi, ai, bi in rows))
    out = tmp / "out"
    args = ["report", str(path), "--label", "y", "--score", "a", "--score", "b", "--out"]
    args += [str(out), "--n-resamples", "100", "--quiet", "--min-precision", "0.6,0.95"]
    args += ["--min-recall", "0.7", "--prevalence", "1/100"]
    assert main(args) == 0
    return y, {"a": a, "b": b}, out, json.loads((out / "summary.json").read_text())


def test_operating_points_match_the_library(report):
    y, scores, _, data = report
    assert data["settings"]["min_precision"] == [0.6, 0.95]
    assert data["settings"]["deployment_prevalence"] == 0.01
    for name, s in scores.items():
        entries = data["scorers"][name]["operating_points"]
        targets = [("min_precision", 0.6), ("min_precision", 0.95), ("min_recall", 0.7)]
        assert [(e["criterion"], e["target"]) for e in entries] == targets * 2
        assert [e["prevalence"] for e in entries] == [y.mean()] * 3 + [0.01] * 3
        for e in entries:
            pi = None if e["prevalence"] != 0.01 else 0.01
            op = operating_point(y, s, prevalence=pi, **{e["criterion"]: e["target"]})
            assert e["feasible"] == op.feasible
            if not op.feasible:
                assert e["reason"] == op.reason and e["threshold"] is None
                continue
            assert e["threshold"] == op.threshold
            assert (e["precision"], e["recall"], e["fpr"]) == (op.precision, op.recall, op.fpr)
            for key, value in (("precision", op.precision), ("recall", op.recall)):
                ci = e[f"{key}_interval"]
                assert ci["low"] <= value <= ci["high"]
            # the recall at the threshold, counted directly
            assert e["recall"] == pytest.approx(np.mean(s[y == 1] >= e["threshold"]))


def test_deployment_numbers_equal_reweighting_the_negatives(report):
    y, scores, out, data = report
    for name, s in scores.items():
        dep = data["scorers"][name]["deployment"]
        assert dep["prevalence"] == 0.01
        w = np.where(y == 1, 1.0, y.sum() * 0.99 / (0.01 * (y == 0).sum()))
        assert dep["auc_pr"]["average_precision"] == pytest.approx(
            average_precision_score(y, s, sample_weight=w), rel=1e-10
        )
        assert dep["auc_pr"]["davis_goadrich"] == auc_pr(
            y, s, method="davis_goadrich", prevalence=0.01
        )
        ci = dep["average_precision_bootstrap"]
        assert ci["low"] <= dep["auc_pr"]["average_precision"] <= ci["high"]
        rows = np.loadtxt(out / "curves" / f"{name}_at_prevalence.csv", delimiter=",", skiprows=1)
        np.testing.assert_allclose(
            rows[:, 3], pr_curve(y, s).at_prevalence(0.01).precision, rtol=1e-15
        )
    assert f"curves/{name}_at_prevalence.csv" in data["files"]


def test_page_shows_the_table_and_the_deployment_section(report):
    *_, out, data = report
    page = (out / "report.html").read_text()
    assert page.count("<h3>Operating points</h3>") == 2
    assert "At deployment prevalence π = 0.01" in page
    first = data["scorers"]["a"]["operating_points"][0]
    assert f"{first['precision']:.4f}" in page
    assert f"{first['threshold']:.6g}" in page


def test_defaults_and_none(tmp_path):
    rng = np.random.default_rng(2)
    y = (rng.random(200) < 0.3).astype(int)
    s = rng.normal(size=200) + 2 * y
    path = tmp_path / "s.csv"
    path.write_text(
        "y,s\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y.tolist(), s.tolist(), strict=True))
    )
    base = ["report", str(path), "--label", "y", "--score", "s", "--n-resamples", "20", "--quiet"]
    assert main([*base, "--out", str(tmp_path / "d")]) == 0
    data = json.loads((tmp_path / "d" / "summary.json").read_text())
    targets = [(e["criterion"], e["target"]) for e in data["scorers"]["s"]["operating_points"]]
    assert targets == [("min_precision", t) for t in (0.5, 0.8, 0.9)] + [
        ("min_recall", t) for t in (0.5, 0.8, 0.9)
    ]
    assert "deployment" not in data["scorers"]["s"]
    args = [*base, "--out", str(tmp_path / "e"), "--min-precision", "none", "--min-recall", "none"]
    assert main(args) == 0
    data = json.loads((tmp_path / "e" / "summary.json").read_text())
    assert data["scorers"]["s"]["operating_points"] == []
    assert "Operating points" not in (tmp_path / "e" / "report.html").read_text()


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--prevalence", "2"], r"argument --prevalence: expected a prevalence in \(0, 1\)"),
        (["--prevalence", "x"], "argument --prevalence: expected a number or fraction"),
        (["--min-precision", "0.5,1.5"], r"argument --min-precision: expected comma-separated"),
        (["--min-recall", "0"], r"argument --min-recall: expected comma-separated numbers"),
    ],
)
def test_usage_errors(capsys, args, match):
    assert main(["report", *args]) == 2
    assert re.search(match, capsys.readouterr().err)


def test_zero_false_positives_get_a_note():
    from prcurve._reporting.analysis._operating import analyse_operating

    rng = np.random.default_rng(4)
    y = np.r_[np.ones(30, bool), rng.random(400) < 0.1]
    s = np.r_[np.linspace(5, 6, 30), rng.normal(size=400)]  # 30 clean positives on top
    op = analyse_operating(
        y, s, pr_curve(y, s), min_precision=(0.99,), min_recall=(), prevalence=0.001,
        level=0.9, n_resamples=50, seed=0, index=0,
    )  # fmt: skip
    deployed = op.points[1]
    assert deployed.fp == 0 and deployed.precision_interval.width == 0
    factor = y.sum() * 0.999 / (0.001 * (~y).sum())  # weight of one negative at π
    expected = deployed.tp / (deployed.tp + factor)
    assert any(
        "no false positive" in n and n.endswith(f"{expected:.4f}") and "prevalence 0.001" in n
        for n in op.notes
    )


def test_deployment_gains_and_best_f1_equal_the_reweighted_data(report):
    from prcurve import PRGCurve

    y, scores, _, data = report
    for name, s in scores.items():
        dep = data["scorers"][name]["deployment"]
        w = np.where(y == 1, 1.0, y.sum() * 0.99 / (0.01 * (y == 0).sum()))
        explicit = pr_curve(y, s, sample_weight=w)
        prg = PRGCurve.from_pr(explicit)
        assert dep["auprg"] == pytest.approx(prg.auc(), rel=1e-9)
        assert dep["best_f1"]["threshold"] == prg.best_f_threshold().threshold
        # F1 at the reported threshold, counted directly with the weights
        flag = s >= dep["best_f1"]["threshold"]
        tp, fp = w[flag & (y == 1)].sum(), w[flag & (y == 0)].sum()
        assert dep["best_f1"]["f1"] == pytest.approx(2 * tp / (tp + fp + y.sum()), rel=1e-9)
        assert dep["achievable_auc_pr_davis_goadrich"] == pytest.approx(
            explicit.achievable().auc("davis_goadrich"), rel=1e-9
        )


def test_prevalence_estimated_from_a_count(tmp_path, report):
    y, scores, _, known = report
    path = tmp_path / "s.csv"
    a = scores["a"]
    rows = zip(y.tolist(), a.tolist(), strict=True)
    path.write_text("y,a\n" + "".join(f"{u},{v!r}\n" for u, v in rows))
    args = ["report", str(path), "--label", "y", "--score", "a", "--n-resamples", "100"]
    args += ["--quiet", "--out", str(tmp_path / "o"), "--prevalence-count", "5/500"]
    assert main(args) == 0
    data = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert data["settings"]["deployment_prevalence"] == 0.01
    assert data["settings"]["deployment_prevalence_count"] == [5, 500]
    dep, dep_known = data["scorers"]["a"]["deployment"], known["scorers"]["a"]["deployment"]
    assert dep["auc_pr"] == dep_known["auc_pr"]  # the estimate uses k/m
    width = dep["average_precision_bootstrap"]["high"] - dep["average_precision_bootstrap"]["low"]
    ci = dep_known["average_precision_bootstrap"]
    assert width > 1.1 * (ci["high"] - ci["low"])
    page = (tmp_path / "o" / "report.html").read_text()
    assert "π was estimated as 5/500" in page


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--prevalence-count", "5/5"], r"expected counts K/M with 0 < K < M, got '5/5'"),
        (["--prevalence-count", "0.1"], "expected counts K/M such as 12/10000"),
        (["--prevalence", "0.1", "--prevalence-count", "1/10"], "not allowed with argument"),
    ],
)
def test_prevalence_count_usage_errors(capsys, args, match):
    assert main(["report", *args]) == 2
    assert re.search(match, capsys.readouterr().err)


def test_comparison_at_prevalence_equals_compare(report):
    """summary.json's comparison at π is ``compare(..., prevalence=π)`` with the report's stream."""
    from prcurve import compare
    from prcurve._reporting.analysis._operating import COMPARE_STREAM

    y, scores, out, data = report
    entry = data["deployment_comparisons"]
    assert entry["notes"] == []
    (c,) = entry["comparisons"]
    assert (c["a"], c["b"], c["prevalence"], c["prevalence_count"]) == ("a", "b", 0.01, None)
    stream = np.random.SeedSequence(0, spawn_key=(COMPARE_STREAM,)).spawn(1)[0]
    want = compare(
        y, scores["a"], scores["b"], prevalence=0.01, n_resamples=c["n_resamples"],
        rng=np.random.default_rng(stream),
    )  # fmt: skip
    assert c["difference"] == pytest.approx(want.difference, rel=1e-12)
    assert (c["low"], c["high"]) == pytest.approx((want.interval.low, want.interval.high))
    assert c["p_value"] == pytest.approx(want.p_value)
    # the two AP at π are those of the deployment table
    for key, name in (("estimate_a", "a"), ("estimate_b", "b")):
        dep = data["scorers"][name]["deployment"]["auc_pr"]["average_precision"]
        assert c[key] == pytest.approx(dep, rel=1e-12)
    page = (out / "report.html").read_text()
    assert "Pairwise comparisons at π = 0.01" in page
    assert f"{c['difference']:.4f}" in page and f"{c['low']:.4f}" in page


def test_band_at_prevalence_in_summary_page_and_files(report):
    from prcurve import pr_confidence_band
    from prcurve._reporting.analysis._operating import STREAM

    y, scores, out, data = report
    for name, s in scores.items():
        band = data["scorers"][name]["deployment"]["confidence_band"]
        assert band["method"] == "bootstrap" and band["recall_range"] == [0.05, 0.95]
        rows = np.loadtxt(
            out / "curves" / f"{name}_band_at_prevalence.csv", delimiter=",", skiprows=1
        )
        # centre: the curve at π read at the grid recalls
        np.testing.assert_allclose(
            rows[:, 1], pr_curve(y, s).at_prevalence(0.01).precision_at(rows[:, 0]), rtol=1e-12
        )
        assert np.all(rows[:, 2] <= rows[:, 1]) and np.all(rows[:, 1] <= rows[:, 3])
        # the band of the library on the report's stream (scorer index, third child)
        stream = np.random.SeedSequence(0, spawn_key=(STREAM, list(scores).index(name)))
        lib = pr_confidence_band(
            y, s, method="bootstrap", prevalence=0.01, n_resamples=band["n_resamples"],
            rng=np.random.default_rng(stream.spawn(3)[2]),
        )  # fmt: skip
        assert band["radius"] == pytest.approx(lib.radius, rel=1e-12)
        np.testing.assert_allclose(rows[:, 2:], np.c_[lib.band.low, lib.band.high], rtol=1e-12)
    page = (out / "report.html").read_text()
    assert "simultaneous band of each curve at π" in page
    assert f"{data['scorers']['a']['deployment']['confidence_band']['radius']:.4f}" in page


def test_weighted_report_compares_at_prevalence_without_a_band(tmp_path):
    rng = np.random.default_rng(6)
    n = 300
    y = (rng.random(n) < 0.3).astype(int)
    a, b = rng.normal(size=n) + 1.5 * y, rng.normal(size=n) + 0.5 * y
    w = rng.integers(1, 3, size=n)
    path = tmp_path / "s.csv"
    rows = zip(y.tolist(), a.tolist(), b.tolist(), w.tolist(), strict=True)
    path.write_text("y,a,b,w\n" + "".join(f"{p},{q!r},{r!r},{t}\n" for p, q, r, t in rows))
    args = ["report", str(path), "--label", "y", "--score", "a", "--score", "b", "--weight", "w"]
    args += ["--n-resamples", "40", "--quiet", "--out", str(tmp_path / "o"), "--prevalence", "0.05"]
    assert main(args) == 0
    data = json.loads((tmp_path / "o" / "summary.json").read_text())
    dep = data["scorers"]["a"]["deployment"]
    assert dep["confidence_band"] is None
    assert any("band at π: not computed" in n for n in data["scorers"]["a"]["operating_notes"])
    (c,) = data["deployment_comparisons"]["comparisons"]
    wn = np.where(y == 1, w, w * (w * y).sum() * 0.95 / (0.05 * (w * (1 - y)).sum()))
    assert c["estimate_a"] == pytest.approx(average_precision_score(y, a, sample_weight=wn))
    assert c["estimate_b"] == pytest.approx(average_precision_score(y, b, sample_weight=wn))
