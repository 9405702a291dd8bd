"""The report's words and figures (issue 23): names as text, worse-than-chance warnings, band
captions and subsample counts, weighted prevalence, legends."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args: str) -> subprocess.CompletedProcess:
    """``python -m prcurve ARGS`` in a subprocess."""
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, "-m", "prcurve", *args],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip


def _page(out) -> str:
    return (out / "report.html").read_text(encoding="utf-8")


def _write_csv(path, header, columns):
    lines = [",".join(header)]
    lines += [",".join(str(v) for v in row) for row in zip(*columns, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


NAMES = ("$\\foo$", "a_b^c", "<script>", "50%")


def test_markup_in_column_names_is_text_in_figures_and_page(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    y = (rng.random(n) < 0.3).astype(int)
    cols = [np.round(rng.normal(size=n) + (1 + k / 2) * y, 4) for k in range(len(NAMES))]
    path = _write_csv(tmp_path / "d.csv", ("y", *NAMES), [y, *cols])
    score_args = [a for name in NAMES for a in ("--score", name)]
    res = run("report", str(path), "--label", "y", *score_args, "--out", str(tmp_path / "o"))
    assert res.returncode == 0, res.stderr
    page = _page(tmp_path / "o")
    assert "<script>" not in page  # the name escaped everywhere on the page
    for name in NAMES:
        assert f"<code>{html.escape(name)}</code>" in page
    assert set(json.loads((tmp_path / "o" / "summary.json").read_text())["scorers"]) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_display_legends_draw_names_literally(name):
    """The legend entry is as wide as the name drawn with mathtext off (no math, no error)."""
    from matplotlib.figure import Figure

    import prcurve
    from prcurve.plot import PRCurveDisplay, PRCurvesDisplay, PRGCurveDisplay, ROCCurveDisplay

    y = np.array([0, 1, 0, 1, 1, 0, 0, 1])
    s = np.array([0.1, 0.9, 0.3, 0.8, 0.35, 0.6, 0.2, 0.7])
    pr = prcurve.pr_curve(y, s)
    fig = Figure()
    axes = fig.subplots(1, 4)
    PRCurveDisplay(pr, name=name).plot(axes[0])
    PRCurvesDisplay({name: pr}).plot(axes[1])
    ROCCurveDisplay(pr.to_roc(), name=name).plot(axes[2])
    PRGCurveDisplay(prcurve.PRGCurve.from_pr(pr), name=name).plot(axes[3])
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    for ax in axes:
        entry = next(t for t in ax.get_legend().get_texts() if "(" in t.get_text())
        literal = ax.text(0, 0, name + entry.get_text().split(name.replace("$", r"\$"))[-1])
        literal.set_parse_math(False)
        literal.set_fontsize(entry.get_fontsize())
        assert entry.get_window_extent(renderer).width == pytest.approx(
            literal.get_window_extent(renderer).width, rel=1e-6
        )


@pytest.fixture(scope="module")
def breast_cancer_report(tmp_path_factory):
    """Breast-cancer data, --pos-label malignant, P(benign) as one score (runs the wrong way)
    and P(malignant) as another."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    data = load_breast_cancer()
    model = make_pipeline(StandardScaler(), LogisticRegression())
    p = cross_val_predict(model, data.data, data.target, cv=5, method="predict_proba")[:, 1]
    tmp = tmp_path_factory.mktemp("bc")
    labels = data.target_names[data.target]  # "malignant" / "benign"
    path = _write_csv(
        tmp / "bc.csv", ("diagnosis", "p_benign", "p_malignant"),
        [labels, np.round(p, 8), np.round(1 - p, 8)],
    )  # fmt: skip
    out = tmp / "out"
    res = run(
        "report", str(path), "--label", "diagnosis", "--score", "p_benign", "--score",
        "p_malignant", "--pos-label", "malignant", "--out", str(out), "--quiet",
    )  # fmt: skip
    return res, out, data.target == 0, p


def test_worse_than_chance_warned_on_page_json_and_stderr(breast_cancer_report):
    from sklearn.metrics import average_precision_score, roc_auc_score

    res, out, malignant, p_benign = breast_cancer_report
    assert res.returncode == 0, res.stderr
    auc = roc_auc_score(malignant, p_benign)
    assert auc < 0.05  # the scenario of the issue (0.009 there)
    prevalence = malignant.mean()
    assert average_precision_score(malignant, p_benign) < prevalence
    summary = json.loads((out / "summary.json").read_text())
    bad, good = summary["scorers"]["p_benign"], summary["scorers"]["p_malignant"]
    assert bad["chance"]["worse_than_chance"] is True
    assert bad["chance"]["roc_auc"] == pytest.approx(auc, abs=1e-12)
    assert good["chance"]["worse_than_chance"] is False and good["chance"]["warning"] is None
    warning = bad["chance"]["warning"]
    assert "'p_benign' ranks significantly worse than chance" in warning
    assert f"ROC AUC {auc:.3f}" in warning
    assert f"below the share of positives {prevalence:.3f}" in warning
    assert "--pos-label 'malignant'" in warning and "1 − score" in warning
    stderr_lines = [ln for ln in res.stderr.splitlines() if ln.startswith("prcurve: warning:")]
    assert stderr_lines == [f"prcurve: warning: {warning}"]
    page = _page(out)
    assert html.unescape(page).count(warning) == 2  # under the ranking and in its section
    assert "worse than chance: see the warning below" in page


def test_naive_band_caption_and_subsample_counts_name_both(tmp_path):
    """20,000 rows, 11 distinct scores: the band runs on a subsample; its reason says so and
    the caption names the naive bootstrap, not the smoothed one."""
    rng = np.random.default_rng(7)
    n = 20_000
    y = (rng.random(n) < 0.08).astype(int)
    s = np.minimum(rng.integers(0, 9, size=n) + 2 * y, 10)
    assert np.unique(s).shape[0] == 11
    path = _write_csv(tmp_path / "d.csv", ("y", "s"), [y, s])
    out = tmp_path / "o"
    res = run(
        "report", str(path), "--label", "y", "--score", "s", "--out", str(out), "--quiet",
        "--n-resamples", "auto",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    band = json.loads((out / "summary.json").read_text())["scorers"]["s"]["confidence_band"]
    assert band["method"] == "bootstrap"
    step = next(
        st for st in json.loads((out / "summary.json").read_text())["inference"]
        if st["step"] == "s: confidence band"
    )  # fmt: skip
    assert step["rows"] < step["n"] == n
    reason = band["method_reason"]
    assert (
        f"11 distinct scores in the {step['rows']:,} rows the band resamples (a stratified "
        f"subsample of all {n:,} rows, which have 11 distinct scores)"
    ) in reason
    page = _page(out)
    assert "Naive bootstrap band" in page
    assert "Algorithm 1: smoothed bootstrap" not in page


def test_weighted_header_ranking_and_steps(tmp_path):
    rng = np.random.default_rng(3)
    n = 3000
    y = (rng.random(n) < 0.08).astype(int)
    s = np.round(rng.normal(size=n) + 1.5 * y, 3)
    w = rng.choice([0.5, 1.0, 2.0], size=n)
    path = _write_csv(tmp_path / "d.csv", ("y", "s", "w"), [y, s, w])
    out = tmp_path / "o"
    res = run(
        "report", str(path), "--label", "y", "--score", "s", "--weight", "w", "--out", str(out),
        "--quiet",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    weighted = float(w[y == 1].sum() / w.sum())
    unweighted = float(y.mean())
    assert f"{weighted:.4f}" != f"{unweighted:.4f}"
    page = _page(out)
    header = re.search(r'<p class="meta">Data:.*?</p>', page, re.S).group(0)
    assert f"weighted prevalence π₊ = {weighted:.4f}" in header
    assert f"unweighted {unweighted:.4f}" in header
    assert f"A scorer that ranks at random gets about {weighted:.3f}" in page
    summary = json.loads((out / "summary.json").read_text())
    assert "confidence_band" not in summary["scorers"]["s"]
    steps = [st["step"] for st in summary["inference"]]
    assert steps and not any("band" in st and "π" not in st for st in steps), steps
    assert "s: confidence band" not in page


def test_overview_roc_legend_puts_chance_after_the_scorers(tmp_path):
    from prcurve._reporting.analysis._analysis import Settings, analyse
    from prcurve._reporting.input._io import BUILTIN_EXAMPLE, read_labelled_scores
    from prcurve._reporting.render._figures import draw_figures

    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    settings = Settings(
        source="example", label=data.label if hasattr(data, "label") else "y",
        scores=tuple(data.scores), positive_label="1", n_resamples=50,
    )  # fmt: skip
    analysis = analyse(data, settings)
    _, _, _, fig = draw_figures(analysis)[0]
    ax_roc = fig.axes[1]
    labels = [t.get_text() for t in ax_roc.get_legend().get_texts()]
    assert labels[-1] == "chance"
    assert [lb.split(" (")[0] for lb in labels[:-1]] == list(data.scores)


def test_bands_separate_no_beside_small_p_is_explained(tmp_path):
    """Two scorers sharing most of their signal: the paired test sees the difference, the
    bands overlap everywhere; the page explains why that is no contradiction."""
    rng = np.random.default_rng(4)
    n = 3000
    y = (rng.random(n) < 0.2).astype(int)
    base = rng.normal(size=n) + 1.0 * y
    a = np.round(base + 0.3 * rng.normal(size=n), 5)
    b = np.round(base + 0.9 * rng.normal(size=n), 5)
    path = _write_csv(tmp_path / "d.csv", ("y", "a", "b"), [y, a, b])
    out = tmp_path / "o"
    res = run(
        "report", str(path), "--label", "y", "--score", "a", "--score", "b", "--out", str(out),
        "--quiet",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    comparison = json.loads((out / "summary.json").read_text())["comparisons"][0]
    assert comparison["p_value"] < 0.01 and not comparison["bands_separate"]
    page = _page(out)
    assert 'so "no" beside a small p-value is not a contradiction' in page
    assert "uses the pairing" in page


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("y,s,t\n1,0.5,0.2\n0\n", r"line 3 has 1 field, the header has 3 \(split at comma\)"),
        (
            "y,s\na,0.5\nb,0.2\nb,0.3\nc,0.1\n",
            r"has 3 distinct labels, expected two classes; found 'a' \(1 row\), 'b' \(2 rows\), "
            r"'c' \(1 row\)$",
        ),
    ],
)
def test_counts_in_input_errors_are_singular_when_one(tmp_path, text, message):
    path = tmp_path / "d.csv"
    path.write_text(text)
    res = run("report", str(path), "--label", "y", "--score", "s", "--out", str(tmp_path / "o"))
    assert res.returncode == 1
    assert re.search(message, res.stderr.strip()), res.stderr


def test_readme_tour_figure_legends_cover_no_panel():
    """docs/make_tour_figure.py (the guide's tour figure): each legend lies outside its panel, so
    it covers neither the band nor the chance and lower-bound lines."""
    import importlib.util

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    spec = importlib.util.spec_from_file_location(
        "make_tour_figure", os.path.join(ROOT, "docs", "make_tour_figure.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fig = module.make_figure()
    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # lays out the tick and axis labels
    renderer = canvas.get_renderer()
    for ax in fig.axes:
        legend, panel = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
        assert legend.y1 < panel.y0, (legend, panel)
        assert ax.get_xlabel() and legend.y1 < ax.xaxis.label.get_window_extent(renderer).y0
