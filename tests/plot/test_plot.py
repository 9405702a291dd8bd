"""Figures: what is drawn (artists, labels, data arrays), never pixels."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from numpy.testing import assert_allclose, assert_array_equal

import prcurve
from prcurve import ConfidenceInterval, PRGCurve, pr_curve, prg_curve, roc_curve
from prcurve.plot import (
    OKABE_ITO,
    PRCurveDisplay,
    PRCurvesDisplay,
    PRGCurveDisplay,
    ROCCurveDisplay,
)
from prcurve.plot._style import iso_f_precision


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    y = rng.random(400) < 0.15
    s = np.round(rng.normal(size=400) + 1.4 * y, 1)  # ties: few distinct scores
    return y, s


def _xy(line):
    return np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)


def test_importing_plot_does_not_import_matplotlib():
    code = "import prcurve, prcurve.plot, sys; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_pr_display_draws_the_interpolated_curve_and_reference_lines(data):
    y, s = data
    curve = pr_curve(y, s)
    hull = curve.achievable()
    disp = PRCurveDisplay(curve, name="m", achievable=hull).plot()
    assert disp.ax_.figure is disp.figure_
    r, p = curve.interpolate()
    x, yy = _xy(disp.line_)
    assert_array_equal(x, r)
    assert_array_equal(yy, p)
    # the drawn path passes through every operating point
    pts = set(zip(x.tolist(), yy.tolist(), strict=True))
    assert all((a, b) in pts for a, b in zip(curve.recall, curve.precision, strict=True))
    hx, hy = _xy(disp.artists_["achievable"])
    assert_array_equal(hx, hull.interpolate()[0])
    assert_array_equal(hy, hull.interpolate()[1])
    pi = curve.prevalence
    cy = _xy(disp.artists_["chance"])[1]
    assert_allclose(cy, pi)
    lx, ly = _xy(disp.artists_["lower_bound"])
    assert_allclose(ly, pi * lx / (pi * lx + 1 - pi))
    assert len(disp.artists_["iso_f"]) == 4
    labels = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert labels[0] == f"m (AUC-PR (DG) = {curve.auc('davis_goadrich'):.3f})"
    assert any(t.startswith("chance (π₊ = ") for t in labels)
    assert disp.ax_.get_xlabel() == "Recall" and disp.ax_.get_ylabel() == "Precision"
    assert disp.line_.get_color() == OKABE_ITO[0]


def test_pr_display_step_style_is_the_average_precision_rectangles(data):
    y, s = data
    curve = pr_curve(y, s)
    disp = PRCurveDisplay(curve).plot(style="step", iso_f=None, lower_bound=False)
    line = disp.artists_["step"]
    assert line is disp.line_
    assert line.get_drawstyle() == "steps-pre"
    x, yy = _xy(line)
    assert_array_equal(x, np.concatenate([[0.0], curve.recall]))
    assert_array_equal(yy, np.concatenate([[curve.precision[0]], curve.precision]))
    # the area under the drawn steps is average precision (the legend's number)
    assert np.sum(np.diff(x) * yy[1:]) == pytest.approx(curve.auc("average_precision"))
    assert f"AP = {curve.auc():.3f}" in disp.ax_.get_legend().get_texts()[0].get_text()
    assert "iso_f" not in disp.artists_ and "lower_bound" not in disp.artists_


def test_pr_display_linear_points_and_both(data):
    y, s = data
    curve = pr_curve(y, s)
    disp = PRCurveDisplay(curve).plot(style="both", linear=True, points=True)
    assert {"curve", "step", "linear", "points"} <= set(disp.artists_)
    assert_array_equal(_xy(disp.artists_["linear"])[0], curve.recall)
    assert_array_equal(_xy(disp.artists_["points"])[1], curve.precision)
    many = pr_curve(y, np.arange(400.0))
    assert "points" not in PRCurveDisplay(many).plot().artists_  # > 60 points: no markers


def test_pr_display_band_is_filled_between_its_ends(data):
    y, s = data
    curve = pr_curve(y, s)

    @dataclass(frozen=True)
    class Band:  # the shape of prcurve.pr_confidence_band's result
        recall: np.ndarray
        band: ConfidenceInterval

    grid = np.linspace(0.05, 0.95, 19)
    centre = curve.precision_at(grid)
    band = Band(grid, ConfidenceInterval(centre - 0.1, np.minimum(centre + 0.1, 1), 0.9))
    disp = PRCurveDisplay(curve, band=band).plot()
    fill = disp.artists_["band"]
    assert isinstance(fill, PolyCollection)
    verts = fill.get_paths()[0].vertices
    assert verts[:, 0].min() == pytest.approx(0.05) and verts[:, 0].max() == pytest.approx(0.95)
    assert verts[:, 1].min() == pytest.approx(band.band.low.min())
    assert verts[:, 1].max() == pytest.approx(band.band.high.max())
    assert "90% confidence band" in [t.get_text() for t in disp.ax_.get_legend().get_texts()]


def test_pr_display_draws_a_real_pr_confidence_band(data):
    y, s = data
    band = prcurve.pr_confidence_band(y, s, n_resamples=50, num=40, rng=0)
    disp = PRCurveDisplay(pr_curve(y, s), band=band).plot()
    verts = disp.artists_["band"].get_paths()[0].vertices
    # fill_between's polygon runs along the low ends and back along the high ends
    pts = {(round(a, 12), round(b, 12)) for a, b in verts.tolist()}
    for r, lo, hi in zip(band.recall, band.band.low, band.band.high, strict=True):
        assert (round(r, 12), round(lo, 12)) in pts and (round(r, 12), round(hi, 12)) in pts


def test_iso_f_curves_have_constant_f(data):
    y, s = data
    disp = PRCurveDisplay(pr_curve(y, s)).plot(iso_f=(0.3, 0.7))
    for f, line in zip((0.3, 0.7), disp.artists_["iso_f"], strict=True):
        r, p = _xy(line)
        ok = np.isfinite(p)
        assert ok.sum() > 100
        assert_allclose(2 * p[ok] * r[ok] / (p[ok] + r[ok]), f)
    r = np.linspace(0.2, 1, 50)
    p = iso_f_precision(0.5, r, beta=2.0)
    ok = np.isfinite(p)
    assert_allclose(5 * p[ok] * r[ok] / (4 * p[ok] + r[ok]), 0.5)


def test_from_predictions_matches_from_curve(data):
    y, s = data
    a = PRCurveDisplay.from_predictions(y, s, name="x")
    b = PRCurveDisplay.from_curve(pr_curve(y, s), name="x", achievable=pr_curve(y, s).achievable())
    assert_array_equal(_xy(a.line_)[1], _xy(b.line_)[1])
    assert_array_equal(_xy(a.artists_["achievable"])[1], _xy(b.artists_["achievable"])[1])
    _fig, ax = plt.subplots()
    c = PRCurveDisplay(pr_curve(y, s)).plot(ax=ax)
    assert c.ax_ is ax
    d = PRCurveDisplay.from_curve(pr_curve(y, s), achievable=True, ax=ax)
    assert d.ax_ is ax
    assert_array_equal(_xy(d.artists_["achievable"])[1], _xy(b.artists_["achievable"])[1])


def test_several_scorers_share_one_axes_with_auc_in_the_legend(data):
    y, s = data
    rng = np.random.default_rng(1)
    scores = {"a": s, "b": rng.normal(size=y.size) + 0.3 * y, "c": -s}
    disp = PRCurvesDisplay.from_predictions(y, scores)
    assert list(disp.lines_) == ["a", "b", "c"]
    texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    for i, (name, sc) in enumerate(scores.items()):
        curve = pr_curve(y, sc)
        assert texts[i] == f"{name} (AP = {curve.auc():.3f})"
        assert_array_equal(_xy(disp.lines_[name])[1], curve.interpolate()[1])
        assert disp.lines_[name].get_color() == OKABE_ITO[i]
    step = PRCurvesDisplay.from_curves(
        {"a": pr_curve(y, s)}, style="step", auc_method="davis_goadrich"
    )
    assert step.lines_["a"].get_drawstyle() == "steps-pre"
    assert "AUC-PR (DG)" in step.ax_.get_legend().get_texts()[0].get_text()


def test_roc_display_draws_curve_hull_and_chance(data):
    y, s = data
    curve = roc_curve(y, s)
    disp = ROCCurveDisplay.from_curve(curve, name="m")
    x, yy = _xy(disp.line_)
    assert_array_equal(x, np.concatenate([[0], curve.fpr]))
    assert_array_equal(yy, np.concatenate([[0], curve.tpr]))
    hull = curve.convex_hull()
    hx, hy = _xy(disp.artists_["hull"])
    assert_array_equal(hx, np.concatenate([[0], hull.fpr]))
    assert_array_equal(hy, np.concatenate([[0], hull.tpr]))
    assert_array_equal(_xy(disp.artists_["chance"])[1], [0, 1])
    texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert texts[0] == f"m (AUC = {curve.auc():.3f})"
    assert texts[1] == f"convex hull (AUC = {hull.auc():.3f})"
    plain = ROCCurveDisplay.from_predictions(y, s, hull=False)
    assert "hull" not in plain.artists_


def test_prg_display_draws_path_hull_best_f_and_iso_lines(data):
    y, s = data
    curve = prg_curve(y, s)
    disp = PRGCurveDisplay.from_curve(curve, name="m", iso_f=(0.25, 0.5), beta=2.0)
    x, yy = _xy(disp.line_)
    px, py = curve.path()
    assert_array_equal(x, px)
    assert_array_equal(yy, py)
    hx, hy = _xy(disp.artists_["hull"])
    assert_array_equal(hx, curve.convex_hull().path()[0])
    assert_array_equal(hy, curve.convex_hull().path()[1])
    best = curve.best_f_threshold(2.0)
    bx, by = _xy(disp.artists_["best_f"])
    assert (bx[0], by[0]) == (best.recall_gain, best.precision_gain)
    for fg, line in zip((0.25, 0.5), disp.artists_["iso_f"], strict=True):
        lx, ly = _xy(line)
        assert_allclose(np.diff(ly) / np.diff(lx), -4.0)  # slope −β²
        assert_allclose((ly + 4 * lx) / 5, fg)  # constant F-gain
    assert f"AUPRG = {curve.auc():.3f}" in disp.ax_.get_legend().get_texts()[0].get_text()
    assert disp.ax_.get_xlabel() == "Recall gain"


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda c: PRCurveDisplay(c.to_roc()), "curve: expected a PRCurve, got ROCCurve"),
        (lambda c: ROCCurveDisplay(c), "curve: expected a ROCCurve, got PRCurve"),
        (lambda c: PRGCurveDisplay(c), "curve: expected a PRGCurve, got PRCurve"),
        (lambda c: PRCurveDisplay(c, achievable=1), "achievable: expected a PRCurve, got int"),
        (lambda c: PRCurveDisplay(c, band=object()), "band: expected a band result"),
        (lambda c: PRCurvesDisplay({}), "curves: expected a non-empty mapping"),
        (lambda c: PRCurvesDisplay({"a": 1}), r"curves\['a'\]: expected a PRCurve, got int"),
    ],
)
def test_bad_inputs_raise_clear_type_errors(data, make, match):
    with pytest.raises(TypeError, match=match):
        make(pr_curve(*data))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (
            {"style": "lin"},
            "style: expected one of 'interpolated', 'step', 'both', got 'lin'",
        ),
        ({"iso_f": (0.5, 1.5)}, r"iso_f: expected values in \(0, 1\), got 1.5"),
        ({"auc_method": "roc"}, "auc_method: expected one of"),
    ],
)
def test_bad_plot_options_raise(data, kwargs, match):
    with pytest.raises(ValueError, match=match):
        PRCurveDisplay(pr_curve(*data)).plot(**kwargs)


def test_prg_bad_beta(data):
    with pytest.raises(ValueError, match="beta: expected a positive number, got -1"):
        PRGCurveDisplay(prg_curve(*data)).plot(beta=-1)


def test_display_namespace():
    assert set(prcurve.plot.__all__) >= {
        "PRCurveDisplay",
        "PRCurvesDisplay",
        "PRGCurveDisplay",
        "ROCCurveDisplay",
    }
    assert PRGCurve is prcurve.PRGCurve
