"""The threshold Display: what is drawn equals the view (never recomputed), bands and chosen
operating points are marked, and the legend sits outside the axes."""

from __future__ import annotations

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from numpy.testing import assert_allclose, assert_array_equal

from prcurve import operating_point, threshold_view
from prcurve.plot import ThresholdDisplay


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(8)
    y = rng.random(500) < 0.2
    s = np.round(rng.normal(size=500) + 1.5 * y, 2)
    return y, s


def test_lines_are_the_views_arrays_as_steps(data):
    y, s = data
    view = threshold_view(y, s, beta=2.0)
    disp = ThresholdDisplay(view, name="model").plot()
    assert sorted(disp.lines_) == sorted(["precision", "recall", "f_beta", "queue_rate", "fpr"])
    for name, line in disp.lines_.items():
        assert line.get_drawstyle() == "steps-pre"
        assert_array_equal(line.get_xdata(), view.thresholds[::-1].astype(float))
        assert_array_equal(line.get_ydata(), view.metric(name)[::-1])
    labels = [t.get_text() for t in disp.artists_["legend"].get_texts()]
    assert "F_β (β = 2)" in labels and "queue rate (share flagged)" in labels
    assert disp.ax_.get_title() == "model"
    assert "band_key" not in disp.artists_  # no resampling, no band


def test_bands_are_drawn_at_the_band_rows(data):
    y, s = data
    view = threshold_view(y, s, n_resamples=50, rng=0, max_band_points=40)
    disp = ThresholdDisplay(view).plot(metrics=["precision", "fpr"])
    assert sorted(disp.lines_) == ["fpr", "precision"]
    band = disp.artists_["precision_band"]
    assert isinstance(band, PolyCollection)
    verts = band.get_paths()[0].vertices
    bx = view.band_thresholds
    assert bx is not None and view.precision_band is not None
    # the polygon's x range is the band rows' threshold range; its y range the band's
    assert verts[:, 0].min() == pytest.approx(float(bx.min()))
    assert verts[:, 0].max() == pytest.approx(float(bx.max()))
    assert verts[:, 1].min() == pytest.approx(float(np.min(view.precision_band.low)))
    assert verts[:, 1].max() == pytest.approx(float(np.max(view.precision_band.high)))
    labels = [t.get_text() for t in disp.artists_["legend"].get_texts()]
    assert "95% pointwise bootstrap band" in labels
    no_band = ThresholdDisplay(view).plot(bands=False)
    assert not any(k.endswith("_band") for k in no_band.artists_)


def test_operating_points_are_marked_at_their_thresholds(data):
    y, s = data
    view = threshold_view(y, s)
    chosen = [
        operating_point(y, s, min_precision=0.6),
        operating_point(y, s, max_fpr=0.05),
        operating_point(y, s, top_k=100),
    ]
    disp = ThresholdDisplay(view, operating_points=chosen).plot()
    labels = [t.get_text() for t in disp.artists_["legend"].get_texts()]
    for point in chosen:
        if point.feasible:
            assert any(f"t = {point.threshold:.4g}" in lab for lab in labels)
    vertical = disp.artists_["points"][0]
    assert_allclose(vertical.get_xdata(), [chosen[0].threshold] * 2)
    # the markers sit on the view's values at the chosen row (read, not recomputed)
    row = int(np.flatnonzero(view.thresholds == chosen[0].threshold)[0])
    ys = sorted(float(m.get_ydata()[0]) for m in disp.artists_["markers"][:5])
    expected = sorted(float(view.metric(n)[row]) for n in disp.lines_)
    assert_allclose(ys, expected)
    assert view.precision[row] == pytest.approx(chosen[0].precision)


def test_an_infeasible_point_is_listed_as_not_met():
    rng = np.random.default_rng(0)
    yy = rng.random(100) < 0.5
    ss = rng.normal(size=100)
    ss[yy.argmin()] = 99.0  # the top score is a negative: no threshold has FPR 0
    point = operating_point(yy, ss, max_fpr=0.0)
    assert not point.feasible
    disp = ThresholdDisplay.from_predictions(yy, ss, operating_points=point)
    labels = [t.get_text() for t in disp.artists_["legend"].get_texts()]
    assert "FPR ≤ 0: not met" in labels
    assert disp.artists_["markers"] == []


def test_legend_covers_no_data(data, tmp_path):
    y, s = data
    chosen = [operating_point(y, s, min_precision=0.6), operating_point(y, s, top_k=50)]
    disp = ThresholdDisplay.from_predictions(
        y, s, n_resamples=40, rng=1, operating_points=chosen, name="m"
    )
    fig = disp.figure_
    fig.savefig(tmp_path / "view.png", dpi=80)  # draws: the legend has its final place
    renderer = fig.canvas.get_renderer()
    legend_box = disp.artists_["legend"].get_window_extent(renderer)
    axes_box = disp.ax_.get_window_extent(renderer)
    assert legend_box.x0 >= axes_box.x1  # entirely to the right of the axes
    fig_box = fig.get_window_extent(renderer)
    assert legend_box.x1 <= fig_box.x1 + 1  # and inside the figure


def test_from_estimator_scores_and_names(data):
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] + rng.normal(size=300)) > 0.8
    clf = LogisticRegression().fit(X, y)
    disp = ThresholdDisplay.from_estimator(clf, X, y, beta=0.5)
    assert disp.name == "LogisticRegression"
    expected = threshold_view(y, clf.predict_proba(X)[:, 1], beta=0.5)
    assert_array_equal(disp.view.f_beta, expected.f_beta)
    assert disp.ax_.get_title() == "LogisticRegression"


def test_plot_returns_self_on_a_given_axes(data):
    y, s = data
    fig, ax = plt.subplots()
    disp = ThresholdDisplay(threshold_view(y, s))
    assert disp.plot(ax=ax) is disp and disp.ax_ is ax and disp.figure_ is fig


def test_bad_inputs_raise_one_clear_error(data):
    y, s = data
    view = threshold_view(y, s)
    with pytest.raises(TypeError, match=r"view: expected a ThresholdView, got PRCurve"):
        from prcurve import pr_curve

        ThresholdDisplay(pr_curve(y, s))
    with pytest.raises(TypeError, match=r"operating_points: expected an OperatingPoint"):
        ThresholdDisplay(view, operating_points=[0.5])
    with pytest.raises(ValueError, match=r"metrics: expected a non-empty selection of .*'tpr'"):
        ThresholdDisplay(view).plot(metrics=["tpr"])
    with pytest.raises(ValueError, match=r"metrics: expected a non-empty selection"):
        ThresholdDisplay(view).plot(metrics=[])


def test_the_statistic_does_not_import_matplotlib():
    code = (
        "import sys, numpy as np, prcurve; "
        "prcurve.threshold_view([0, 1, 1], [0.1, 0.5, 0.9], n_resamples=5, rng=0); "
        "from prcurve.plot import ThresholdDisplay; "
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
