"""Population and simulation Displays: they draw the arrays the statistics layer computed."""

import sys

import matplotlib
import numpy as np
import pytest

from prcurve import cases, population_curves, simulate_pr_estimator
from prcurve.plot import PopulationCurvesDisplay, PRSimulationDisplay

matplotlib.use("Agg")
import matplotlib.pyplot as plt


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def line_data(artists):
    return [(a.get_xdata(), a.get_ydata()) for a in artists if hasattr(a, "get_xdata")]


def test_population_display_draws_the_computed_curves():
    prev = (0.5, 1 / 11)
    a = population_curves(cases.A(), name="Case A", thresholds=[0.0, 1.0], prevalences=prev)
    b = population_curves(cases.B(), name="Case B", prevalences=prev)
    disp = PopulationCurvesDisplay([a, b]).plot()
    assert disp.axes_.shape == (4,)
    rocs = line_data(disp.artists_["roc"])
    assert np.array_equal(rocs[0][0], a.fpr) and np.array_equal(rocs[0][1], a.tpr)
    prs = line_data(disp.artists_["pr"])
    # PR panels: (A, B) at π₊ = 1/2, then (A, B) at 1/11
    assert np.array_equal(prs[0][1], a.precision[0])
    assert np.array_equal(prs[-1][1], b.precision[1])
    assert "1/11" in disp.axes_[3].get_title()
    ref = line_data(disp.artists_["reference"])
    assert any(len(y) == a.recall.size and np.allclose(y, a.lower_bound[1]) for _, y in ref)
    assert any(len(y) == 2 and np.allclose(y, [0.5, 0.5]) for _, y in ref)  # chance line
    # the shared negative law is drawn once
    labels = [h.get_label() for h in disp.axes_[0].get_lines()]
    assert labels.count("negatives (Case A)") == 1 and "negatives (Case B)" not in labels


def test_population_display_from_model_discrete_and_existing_axes():
    fig, axes = plt.subplots(1, 3)
    disp = PopulationCurvesDisplay.from_model(cases.F(), prevalences=[0.2], axes=axes)
    assert disp.figure_ is fig
    assert disp.axes_[0].get_ylabel() == "probability mass"
    assert len(disp.artists_["density"]) == 4


def test_population_curves_contents():
    c = population_curves(cases.D(1 / 11), num=101)
    assert c.prevalences == (1 / 11,)
    assert c.tpr[0] == 0.5 and c.fpr[0] == 0.0
    assert np.allclose(c.precision[0], cases.D(1 / 11).precision_at(c.recall))
    assert c.thresholds.size == 0 and c.mark_precision.shape == (1, 0)
    f = population_curves(cases.F())
    assert f.discrete and f.law_discrete == (True, True) and np.allclose(f.density_positive, 0.2)
    with pytest.raises(ValueError, match="score_range: expected two finite increasing"):
        population_curves(cases.A(), score_range=(1.0, 0.0))
    with pytest.raises(TypeError, match="model: expected a PopulationModel, got int"):
        population_curves(3)
    with pytest.raises(ValueError, match=r"prevalences: expected a number in \(0, 1\)"):
        population_curves(cases.A(), prevalences=[0.5, 1.0])


def test_population_display_errors():
    with pytest.raises(TypeError, match="curves: expected a PopulationCurves"):
        PopulationCurvesDisplay([])
    a = population_curves(cases.A(), prevalences=[0.5])
    b = population_curves(cases.A(), prevalences=[0.2])
    with pytest.raises(ValueError, match="curves: expected the same prevalences"):
        PopulationCurvesDisplay([a, b])
    with pytest.raises(ValueError, match="axes: expected 3 Axes, got 2"):
        PopulationCurvesDisplay(a).plot(axes=plt.subplots(1, 2)[1])
    with pytest.raises(ValueError, match="names: expected 2 names"):
        PopulationCurvesDisplay.from_model([cases.A(), cases.B()], names=["A"])


def test_simulation_display():
    sims = [
        simulate_pr_estimator(cases.D(0.2), n, [0.2, 0.6, 1.0], n_replicates=300, rng=n)
        for n in (100, 400)
    ]
    disp = PRSimulationDisplay.from_simulation(sims, bins=20, title="Case D")
    assert disp.axes_.shape == (2, 3)
    assert disp.figure_._suptitle.get_text() == "Case D"
    dens, edges = sims[0].histogram(20)
    assert np.array_equal(disp.histograms[0][0], dens) and np.array_equal(
        disp.histograms[0][1], edges
    )
    # x = 0.2: all replicates equal 1 -> no kernel density, degenerate normal -> no curve
    lines_02 = [ln for ln in disp.axes_[1, 0].get_lines() if len(ln.get_xdata()) == disp.grid.size]
    assert lines_02 == []
    # x = 0.6: kernel density (black) and normal approximation (purple) drawn
    colors = {ln.get_color() for ln in disp.axes_[1, 1].get_lines()}
    assert "black" in colors and "#CC79A7" in colors
    # x = 1: no normal approximation
    colors_1 = {ln.get_color() for ln in disp.axes_[1, 2].get_lines()}
    assert "#CC79A7" not in colors_1
    assert disp.axes_[0, 0].get_title() == "recall x = 0.2"


def test_simulation_display_errors():
    a = simulate_pr_estimator(cases.A(), 50, [0.5], n_replicates=20, rng=0)
    b = simulate_pr_estimator(cases.A(), 50, [0.6], n_replicates=20, rng=0)
    with pytest.raises(ValueError, match="simulations: expected the same recall levels"):
        PRSimulationDisplay([a, b])
    with pytest.raises(TypeError, match="simulations: expected a PRSimulation"):
        PRSimulationDisplay("sim")


def test_statistics_modules_do_not_import_matplotlib():
    import subprocess

    code = (
        "import sys, prcurve, prcurve.cases; "
        "prcurve.simulate_pr_estimator(prcurve.cases.A(), 20, n_replicates=5, rng=0); "
        "prcurve.population_curves(prcurve.cases.F()); "
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_mixed_model_draws_stems_and_a_curve():
    from scipy import stats

    from prcurve import PopulationModel

    m = PopulationModel(stats.binom(6, 0.3), stats.norm(3.5, 1.2), 0.3)
    disp = PopulationCurvesDisplay.from_model(m, names=["mixed"])
    assert disp.axes_.shape == (3,)
    assert disp.axes_[0].get_ylabel() == "density / probability"
    kinds = [type(a).__name__ for a in disp.artists_["density"]]
    assert kinds == ["LineCollection", "PathCollection", "Line2D"]


def test_simulation_panels_have_readable_labels_and_one_legend_clear_of_them():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    sims = [simulate_pr_estimator(cases.A(1 / 11), n, [0.2, 0.5, 0.8], n_replicates=100, rng=0)
            for n in (100, 400)]  # fmt: skip
    fig = Figure(figsize=(6, 4.6))
    axes = fig.subplots(2, 3, squeeze=False)
    PRSimulationDisplay(sims).plot(axes)
    fig.tight_layout(rect=(0, 0.6 / fig.get_figheight(), 1, 1))
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    for ax in axes.flat:
        labels = [t for t in ax.get_xticklabels() if t.get_text()]
        assert len(labels) <= 3 and all(t.get_fontsize() >= 8 for t in labels)
    assert all(ax.get_xlabel() for ax in axes[-1])
    (legend,) = fig.legends
    texts = {t.get_text() for t in legend.get_texts()}
    assert {"replicates (histogram)", "normal approximation", "population precision"} <= texts
    box = legend.get_window_extent(renderer)
    for ax in axes.flat:  # the legend covers no panel, tick label or axis label
        assert not box.overlaps(ax.get_tightbbox(renderer))
