"""The report page for a reader who has not read the papers: ranking, explanations, legends."""

from __future__ import annotations

import html

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import BUILTIN_EXAMPLE, LabelledScores, read_labelled_scores
from prcurve._reporting.output._summary import summary
from prcurve._reporting.render._html import draw_figures, render_figures, render_html
from prcurve._reporting.render._reading import WIDE_BAND, format_p_value, ranking


def _analysis(data: LabelledScores, b: int = 200):
    settings = Settings(data.source, data.label_column, tuple(data.scores), data.positive_label,
                        n_resamples=b, seed=1)  # fmt: skip
    return analyse(data, settings)


@pytest.fixture(scope="module")
def example():
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    return data, _analysis(data)


@pytest.fixture(scope="module")
def rare():
    """0.5 % positives, two scorers of different quality: curves lie low, bands are wide."""
    rng = np.random.default_rng(3)
    n = 6000
    y = rng.random(n) < 0.005
    scores = {"good": rng.normal(size=n) + 2.5 * y, "weak": rng.normal(size=n) + 0.8 * y}
    data = LabelledScores("rare.csv", "y", y, scores, "1")
    return data, _analysis(data)


def _page(analysis) -> str:
    data = {**summary(analysis), "files": ["report.html"]}
    return render_html(analysis, data, render_figures(analysis))


@pytest.mark.parametrize("which", ["example", "rare"])
def test_ranking_names_the_best_scorer_by_average_precision(which, request):
    data, analysis = request.getfixturevalue(which)
    ap = {k: average_precision_score(data.y, s) for k, s in data.scores.items()}
    best = max(ap, key=ap.get)
    text = ranking(summary(analysis))
    assert f"Best by average precision (AP): <code>{best}</code>" in text
    assert f"AP = {ap[best]:.3f}" in text
    lines = text.split("<li>")[2:]  # one line per other scorer
    assert len(lines) == len(ap) - 1
    for a, b, c in analysis.comparisons:
        if best not in (a, b):
            continue
        other = b if a == best else a
        (line,) = [x for x in lines if x.startswith(f"<code>{other}</code>")]
        iv = c.interval
        lo, hi = (iv.low, iv.high) if a == best else (-iv.high, -iv.low)
        significant = c.p_value < 0.05 and lo > 0
        assert ("the difference is significant" in line) == significant
        assert ("<b>not</b> significant" in line) == (not significant)
        assert f"{lo:.3f} to {hi:.3f}" in line


def test_weak_evidence_is_called_not_significant(rare):
    _, analysis = rare
    ((_, _, c),) = analysis.comparisons
    text = ranking(summary(analysis))
    # the weak scorer is far behind but the data has few positives: whichever way the bootstrap
    # decides, the verdict follows its interval and p-value (checked above); here both show
    assert html.escape(format_p_value(c.p_value, c.n_resamples)) in text


def test_page_explains_every_headline_term(example):
    page = _page(example[1])
    for term in ("AP (average precision)", "Davis–Goadrich area (DG)", "Achievable curve",
                 "AUPRG", "confidence band", "Comparison (p-value)"):  # fmt: skip
        assert term in page, term
    assert page.index("Which scorer is best?") < page.index("<h2>Summary</h2>")


@pytest.mark.parametrize(
    ("p", "b", "text"),
    [(1 / 201, 200, "< 0.005"), (1 / 1001, 1000, "< 0.001"), (1 / 301, 300, "< 0.004"),
     (3 / 1001, 1000, "0.003"), (0.5, 200, "0.50")],
)  # fmt: skip
def test_p_value_at_the_bootstrap_floor(p, b, text):
    assert format_p_value(p, b) == text


def test_wide_band_is_flagged_with_the_reason(rare, example):
    data, analysis = rare
    page = _page(analysis)
    n_pos = int(data.y.sum())
    wide = [s.band.radius > WIDE_BAND for s in analysis.scorers.values() if s.band is not None]
    assert any(wide)
    assert page.count('class="warn"') == sum(wide)
    assert f"with only {n_pos:,} positives" in page
    narrow = example[1]
    flags = sum(s.band.radius > WIDE_BAND for s in narrow.scorers.values() if s.band is not None)
    assert _page(narrow).count('class="warn"') == flags


def _overlap(fig) -> list[tuple[str, float]]:
    """For each legend: the share of every drawn curve's vertices inside the legend box."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PolyCollection
    from matplotlib.lines import Line2D

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    out = []
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        for artist in ax.get_children():
            if isinstance(artist, Line2D) and artist.get_visible():
                pts = artist.get_transform().transform(artist.get_xydata())
            elif isinstance(artist, PolyCollection):
                pts = np.concatenate([p.vertices for p in artist.get_paths()] or [np.empty((0, 2))])
                pts = artist.get_transform().transform(pts)
            else:
                continue
            pts = pts[np.all(np.isfinite(pts), axis=1)]
            if pts.shape[0] == 0:
                continue
            inside = ((pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1)
                      & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1))  # fmt: skip
            out.append((f"{ax.get_title()}: {artist.get_label()}", float(inside.mean())))
    return out


@pytest.mark.parametrize("which", ["example", "rare"])
def test_legends_do_not_cover_the_curves(which, request):
    _, analysis = request.getfixturevalue(which)
    checked = 0
    for _, _, _, fig in draw_figures(analysis):
        for what, share in _overlap(fig):
            assert share <= 0.01, f"{what}: {share:.1%} of it under the legend"
            checked += 1
    assert checked >= 10  # every panel's curves were looked at


def test_prg_panel_zooms_to_the_operating_points_at_low_prevalence(rare, example):
    from prcurve._reporting.render._figures import _zoom_prg

    for _, analysis in (rare, example):
        for i, sc in enumerate(analysis.scorers.values()):
            fig = draw_figures(analysis)[1 + i][3]
            ax = fig.axes[2]
            x, y = sc.prg.path(from_zero=False)
            inside = (x >= 0) & (x <= 1) & (y >= 0) & (y <= 1)
            lo = np.quantile(x[inside], 0.01)
            crowded = lo > 0.5 or np.quantile(y[inside], 0.01) > 0.5
            assert ax.get_title().endswith("(zoomed)") == crowded
            if lo > 0.5:  # most operating points are in view and spread over the panel
                x0, x1 = ax.get_xlim()
                start = min(lo, sc.prg.best_f_threshold().recall_gain)  # the best-F₁ marker too
                assert x0 <= start and x1 >= 1.0 and x1 - x0 < 2 * (1.0 - start)
            from matplotlib.figure import Figure

            assert _zoom_prg(Figure().subplots(), sc.prg) == crowded


def test_figures_quote_the_analysis_areas_without_recomputing_them(example, monkeypatch):
    import prcurve._core._empirical as empirical
    from prcurve._reporting.render._figures import _known_areas

    _, analysis = example
    sc = next(iter(analysis.scorers.values()))
    for method, value in sc.auc_pr.items():  # answers from the analysis, else computes
        assert _known_areas(sc.pr, sc.auc_pr).auc(method) == value
        assert _known_areas(sc.pr, {}).auc(method) == sc.pr.auc(method)
    sizes = []
    real = empirical.area_from_counts
    monkeypatch.setattr(empirical, "area_from_counts",
                        lambda tp, *a, **k: sizes.append(len(tp)) or real(tp, *a, **k))  # fmt: skip
    texts = []
    for _, _, _, fig in draw_figures(analysis):
        for ax in fig.axes:
            legend = ax.get_legend()
            texts += [t.get_text() for t in legend.get_texts()] if legend else []
    full = {len(s.pr.tp) for s in analysis.scorers.values()}
    assert not full & set(sizes), "a scorer's full-curve area was computed again for a legend"
    for name, s in analysis.scorers.items():
        assert f"{name} (AP = {s.auc_pr['average_precision']:.3f})" in texts
        assert f"{name} (AUC-PR (DG) = {s.auc_pr['davis_goadrich']:.3f})" in texts


def test_thinned_roc_draws_the_same_curve_with_the_full_area():
    import io

    from matplotlib.figure import Figure
    from PIL import Image

    from prcurve import roc_curve
    from prcurve._reporting.render._figures import _thin_roc
    from prcurve.plot import ROCCurveDisplay

    rng = np.random.default_rng(5)
    n = 300_000
    y = rng.random(n) < 0.3
    roc = roc_curve(y, rng.normal(size=n) + 0.7 * y)
    thin = _thin_roc(roc, roc.auc())
    assert thin.fpr.shape[0] < roc.fpr.shape[0] / 4
    assert thin.auc() == roc.auc()

    def pixels(curve):
        fig = Figure(figsize=(5, 5))
        ROCCurveDisplay(curve, name="s").plot(fig.subplots())
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100)
        return np.asarray(Image.open(buf).convert("L"), dtype=float)

    diff = np.abs(pixels(roc) - pixels(thin))
    assert np.mean(diff) < 0.5 and np.mean(diff > 64) < 1e-3


def test_summary_table_header_names_every_column(example):
    """One header cell per value cell, in order (the headline interval column included)."""
    import re

    data, analysis = example
    page = _page(analysis)
    table = page.split("<h2>Summary</h2>", 1)[1].split("</table>", 1)[0]
    head = re.findall(r"<th>(.*?)</th>", table)
    assert head[:3] == ["scorer", "AP", "AP 95% CI (method)"]
    assert "DG area" in head and "ROC AUC" in head
    for row in re.findall(r"<tr>(.*?)</tr>", table.split("</thead>", 1)[1]):
        assert len(re.findall(r"<td>", row)) == len(head)
    cells = re.findall(r"<td>(.*?)</td>", table.split("</thead>", 1)[1])
    name = next(iter(data.scores))
    ap = analysis.scorers[name].auc_pr["average_precision"]
    assert cells[0] == name and cells[1] == f"{ap:.4f}"
