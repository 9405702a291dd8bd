"""The report's figures laid out without measuring text: nothing clipped, nothing overlapping."""

from __future__ import annotations

import numpy as np
import pytest

from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import BUILTIN_EXAMPLE, LabelledScores, read_labelled_scores
from prcurve._reporting.render._figures import draw_figures


def _analysis(data: LabelledScores):
    settings = Settings(data.source, data.label_column, tuple(data.scores), data.positive_label,
                        n_resamples=50, seed=1)  # fmt: skip
    return analyse(data, settings)


@pytest.fixture(scope="module")
def example():
    return _analysis(read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores))


@pytest.fixture(scope="module")
def many():
    """Seven scorers at 1 % positives: a tall overview legend, a zoomed PRG panel."""
    rng = np.random.default_rng(4)
    n = 3000
    y = rng.random(n) < 0.01
    scores = {f"scorer_{k}": rng.normal(size=n) + 0.4 * k * y for k in range(7)}
    return _analysis(LabelledScores("many.csv", "y", y, scores, "1"))


@pytest.fixture(scope="module")
def long_name():
    """A scorer name longer than a panel is wide: its legend labels are broken into lines."""
    rng = np.random.default_rng(5)
    n = 2000
    y = rng.random(n) < 0.1
    name = "gradient_boosting_with_isotonic_calibration_trained_on_2024_q3_data_v17"
    scores = {name: rng.normal(size=n) + 1.5 * y, "short": rng.normal(size=n) + y}
    return _analysis(LabelledScores("long.csv", "y", y, scores, "1"))


@pytest.fixture(scope="module")
def negative():
    """Half positives and a scorer worse than chance: precision gains down to −1 (labels −0.75)."""
    rng = np.random.default_rng(6)
    n = 1500
    y = rng.random(n) < 0.5
    scores = {"worse": rng.normal(size=n) - 0.5 * y, "fair": rng.normal(size=n) + 0.8 * y}
    return _analysis(LabelledScores("negative.csv", "y", y, scores, "1"))


def _boxes(fig):
    """Window extents, after drawing, of every panel's text and legend (name → Bbox)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    out = []
    for i, ax in enumerate(fig.axes):
        parts = {
            "title": ax.title,
            "xlabel": ax.xaxis.label,
            "ylabel": ax.yaxis.label,
            "legend": ax.get_legend(),
        }
        for name, artist in parts.items():
            if artist is not None and (name == "legend" or artist.get_text()):
                out.append((f"panel {i} {name}", artist.get_window_extent(renderer)))
        for axis, which in (("xtick", ax.xaxis), ("ytick", ax.yaxis)):
            lo, hi = sorted(which.get_view_interval())
            for at, t in zip(which.get_ticklocs(), which.get_ticklabels(), strict=True):
                if lo <= at <= hi and t.get_visible() and t.get_text():  # drawn
                    box = t.get_window_extent(renderer)
                    out.append((f"panel {i} {axis} {t.get_text()}", box))
    return out, fig.bbox


@pytest.mark.parametrize("which", ["example", "many", "long_name", "negative"])
def test_every_label_and_legend_is_inside_the_figure_and_none_overlap(which, request):
    analysis = request.getfixturevalue(which)
    for key, _, _, fig in draw_figures(analysis):
        _assert_laid_out(key, fig)


def test_the_deployment_figure_hangs_its_legend_below_the_curves():
    """At π = 0.001 the curves lie along the bottom of the panel: the legend goes below it."""
    from prcurve._reporting.render._operating_html import deployment_figure

    rng = np.random.default_rng(8)
    n = 4000
    y = rng.random(n) < 0.05
    scores = {"strong": rng.normal(size=n) + 2 * y, "weak": rng.normal(size=n) + 0.5 * y}
    settings = Settings("dep.csv", "y", tuple(scores), "1", n_resamples=50, seed=1,
                        prevalence=0.001)  # fmt: skip
    analysis = analyse(LabelledScores("dep.csv", "y", y, scores, "1"), settings)
    fig = deployment_figure(analysis, list(scores), 0.001)
    _assert_laid_out("deployment", fig)
    (ax,) = fig.axes
    assert ax.get_legend().get_window_extent().y1 < ax.get_window_extent().y0


def _assert_laid_out(key, fig):
    """Every label and legend inside the figure, none overlapping, legends below their panel."""
    boxes, page = _boxes(fig)
    for name, box in boxes:
        assert box.x0 >= page.x0 and box.x1 <= page.x1, f"{key}: {name} cut at a side"
        assert box.y0 >= page.y0 and box.y1 <= page.y1, f"{key}: {name} cut at top/bottom"
    texts = [(n, b) for n, b in boxes if "tick" not in n]
    for i, (name, box) in enumerate(texts):
        for other, box2 in texts[i + 1 :]:
            assert not box.overlaps(box2), f"{key}: {name} overlaps {other}"
    for i in range(1, len(fig.axes)):  # y labels clear of the panel on the left
        left_panel = fig.axes[i - 1].get_window_extent()
        for name, box in boxes:
            if name.startswith((f"panel {i} ylabel", f"panel {i} ytick")):
                assert box.x0 > left_panel.x1, f"{key}: {name} reaches into panel {i - 1}"
    for name, box in boxes:  # each legend hangs below its panel's x label and x tick labels
        if name.endswith(" legend"):
            panel = name.removesuffix(" legend")
            above = [b for n, b in boxes if n.startswith((f"{panel} xlabel", f"{panel} xtick"))]
            assert above and all(box.y1 < b.y0 for b in above), f"{key}: {name} too high"


def test_panels_are_square_except_the_prg_panel_and_equally_tall(example):
    for key, _, _, fig in draw_figures(example):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig).draw()
        boxes = [ax.get_window_extent() for ax in fig.axes]
        heights = {round(b.height) for b in boxes}
        assert len(heights) == 1, f"{key}: panels of heights {heights}"
        for ax, box in zip(fig.axes, boxes, strict=True):
            if ax.get_aspect() == 1.0:
                assert abs(box.width - box.height) <= 1.0


def _pixels(fig) -> np.ndarray:
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return np.asarray(Image.open(buf).convert("L"), dtype=float)


@pytest.mark.parametrize("prevalence", [0.3, 0.003])  # the second zooms the panel
def test_thinned_prg_draws_the_same_panel_with_the_full_curve_numbers(prevalence):
    from matplotlib.figure import Figure

    from prcurve import prg_curve
    from prcurve._reporting.render._figures import _UNIT_LIM, _prg_zoom, _thin_prg, _zoom_prg
    from prcurve.plot import PRGCurveDisplay

    rng = np.random.default_rng(6)
    n = 300_000
    y = rng.random(n) < prevalence
    prg = prg_curve(y, rng.normal(size=n) + 2.0 * y)
    best = prg.best_f_threshold()
    xlim, ylim = _prg_zoom(prg, best)
    thin = _thin_prg(prg, best, xlim or _UNIT_LIM, prg.auc())
    assert thin.path()[0].shape[0] < prg.path()[0].shape[0] / 4
    assert thin.auc() == prg.auc() and thin.best_f_threshold() == best
    assert thin.best_f_threshold(2.0) == prg.best_f_threshold(2.0)
    np.testing.assert_array_equal(thin.path(from_zero=False)[1], prg.path(from_zero=False)[1])

    images = []
    for curve in (prg, thin):
        fig = Figure(figsize=(5, 5))
        ax = fig.subplots()
        PRGCurveDisplay(curve, name="s", hull=prg.convex_hull()).plot(ax)
        assert _zoom_prg(ax, prg) == (xlim is not None or ylim is not None)
        images.append(_pixels(fig))
    assert (xlim is not None) == (prevalence < 0.01)
    diff = np.abs(images[0] - images[1])
    assert np.mean(diff) < 0.5 and np.mean(diff > 64) < 1e-3


def test_thinned_pr_curves_draw_the_same_panel_with_the_full_areas():
    from matplotlib.figure import Figure

    from prcurve import pr_curve
    from prcurve._reporting.render._figures import _known_areas
    from prcurve.plot import PRCurveDisplay

    rng = np.random.default_rng(9)
    n = 300_000
    y = rng.random(n) < 0.1
    pr = pr_curve(y, rng.normal(size=n) + 1.5 * y)
    areas = {"davis_goadrich": pr.auc("davis_goadrich")}
    thin = _known_areas(pr, areas, thin=True)
    assert thin.interpolate()[0].shape[0] < pr.recall.shape[0] / 4
    assert thin.auc("davis_goadrich") == areas["davis_goadrich"]
    grid = np.linspace(0, 1, 7)  # other uses of the curve are the full curve's
    np.testing.assert_array_equal(thin.interpolate(grid)[1], pr.interpolate(grid)[1])
    np.testing.assert_array_equal(thin.interpolate(num=50)[1], pr.interpolate(num=50)[1])
    images = []
    for curve in (pr, thin):
        fig = Figure(figsize=(5, 5))
        PRCurveDisplay(curve, name="s").plot(fig.subplots())
        images.append(_pixels(fig))
    diff = np.abs(images[0] - images[1])
    assert np.mean(diff) < 0.5 and np.mean(diff > 64) < 1e-3


def test_best_f1_point_read_off_the_hull_is_the_curves(example, many):
    for analysis in (example, many):
        for sc in analysis.scorers.values():
            for beta in (1.0, 0.5, 2.0):
                assert sc.prg_hull.best_f_threshold(beta) == sc.prg.best_f_threshold(beta)


def test_zoom_quantiles_read_blocks_like_numpy():
    from prcurve._reporting.render._figures import _inside_quantiles

    rng = np.random.default_rng(11)
    for n, block in ((1, 7), (2, 1), (5000, 64), (200_000, 1 << 16)):
        x = np.r_[1.0 - rng.exponential(0.002, n), np.round(rng.random(n) * 1.4 - 0.2, 2)]
        y = rng.random(2 * n) * 1.2 - 0.1
        inside = (x >= 0) & (x <= 1) & (y >= 0) & (y <= 1)
        got = _inside_quantiles(x, y, 0.01, block=block)
        if inside.sum() < 2:
            assert got is None
        else:
            want = [np.quantile(v[inside], 0.01) for v in (x, y)]
            assert got == pytest.approx(want, rel=0, abs=1e-15)


@pytest.mark.parametrize("transparent", [False, True])
def test_figure_png_has_matplotlibs_pixels_as_rgb_when_opaque(transparent):
    import io

    from matplotlib.figure import Figure
    from PIL import Image

    from prcurve._reporting.render._png import figure_png

    fig = Figure(figsize=(3.3, 2.1))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend()
    if transparent:
        fig.patch.set_alpha(0.0)
        ax.patch.set_alpha(0.0)
    ours = Image.open(io.BytesIO(figure_png(fig, dpi=90)))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    theirs = Image.open(buf)
    assert ours.size == theirs.size == (int(3.3 * 90), int(2.1 * 90))
    assert ours.mode == ("RGBA" if transparent else "RGB")
    np.testing.assert_array_equal(
        np.asarray(ours.convert("RGBA")), np.asarray(theirs.convert("RGBA"))
    )
