"""The page's "Choosing a threshold" section.

For each scorer, the threshold view (:class:`prcurve.plot.ThresholdDisplay`: precision, recall,
F₁, queue rate and FPR against the threshold, with pointwise bands) with the report's operating
points, the cost-optimal threshold and the top-K threshold marked; then a table of the
cost-optimal thresholds (``--cost-ratio``/``--prevalence``) and one of precision@K and
recall@K (``--top-k``), with their intervals, and a short "how to read this".  The numbers come
from the scorers' ``threshold_choice`` entries of ``summary.json``; the figures draw the
analysis's views (nothing is computed here: the analysis is :mod:`..analysis._choice`); the
markup and the text are ``templates/binary/choice.html``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from markupsafe import Markup

from ..._core._disk import n_at_least
from ..analysis._choice import full_view, metric_blocks
from ._page import img
from ._png import figure_png
from ._templates import code, render, with_ci

__all__ = ["choice_figure", "choice_html"]


def _fmt(x: Any, digits: int = 4) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _thr(x: Any) -> str:
    # + 0.0: a threshold of -0.0 (one score with 0.0) prints "0" whichever engine kept it
    return "–" if x is None else f"{x + 0.0:.6g}"


def _ci(entry: dict[str, Any] | None, digits: int = 4) -> str:
    if entry is None:
        return "–"
    return f"[{_fmt(entry['low'], digits)}, {_fmt(entry['high'], digits)}]"


def _threshold_ci(entry: dict[str, Any] | None) -> str:
    """A threshold interval; an upper end of ``null`` is "flag nothing" (+inf)."""
    if entry is None:
        return "–"
    if entry["low"] is None:  # every replicate flags nothing
        return "[flag nothing]"
    high = "flag nothing" if entry["high"] is None else _thr(entry["high"])
    return f"[{_thr(entry['low'])}, {high}]"


def _in_sample_points(sc: Any) -> list[Any]:
    """The report's operating points chosen on the data (not those at a deployment π)."""
    op = sc.operating
    if op is None:
        return []
    points = list(op.points)
    if op.deployment_prevalence is not None:  # every target at the data's π, then at π
        points = points[: len(points) // 2]
    return [p for p in points if p.feasible]


def _thinned(sc: Any, marks: list[float]) -> Any:
    """The threshold view of scorer ``sc`` with only the rows its figure can show: per pixel
    column of the threshold axis, the first, last, lowest and highest point of each metric
    (:func:`prcurve.plot._thin.thin_indices`), every row carrying a band and the rows of the
    thresholds ``marks`` (whose metrics the markers show).

    Matplotlib then never holds a million-point line (at 10⁶ distinct scores drawing the
    full view took 0.9 s and 300 MB more; :func:`prcurve.plot._thin.thin_axes` thins only
    after the lines exist).  The metrics are read slice by slice off the counts
    (:func:`..analysis._choice.metric_blocks`) and the view is made of the kept rows only, so
    a curve of 10⁸ thresholds on disk is never written out whole as five metric arrays.
    """
    from ...plot._thin import COLUMNS, thin_lines

    pr, vb = sc.pr, sc.view_bands
    k = pr.thresholds.shape[0]
    if k <= 4 * COLUMNS:
        return sc.threshold_view
    # the thresholds increasing, as drawn: from the lowest to the highest
    lo, hi = (float(np.float64(pr.thresholds[i])) for i in (k - 1, 0))
    keep = [k - 1 - thin_lines(k, metric_blocks(pr, vb.beta), lo, hi)]
    if vb.band_index is not None:
        keep.append(vb.band_index)
    held = n_at_least(pr.thresholds, np.asarray(marks, dtype=np.float64)) - 1
    keep.append(held[held >= 0])
    return full_view(pr, vb, np.unique(np.concatenate(keep)))


def choice_figure(sc: Any, name: str) -> Any:
    """The threshold view of one scorer with its chosen thresholds marked (a matplotlib
    Figure, no pyplot): the operating points of the report, the cost-optimal threshold and the
    top-K threshold; the legend on the right, outside the panel."""
    from matplotlib.figure import Figure as MplFigure

    from ...plot import ThresholdDisplay
    from ...plot._style import plain_text

    fig = MplFigure(figsize=(11.5, 5.0))
    ax = fig.subplots()
    choice = sc.choice
    # black and sky blue: the two Okabe–Ito colours the view's metrics leave free
    if choice is not None and choice.cost is not None:
        c = choice.cost
        rule = f"least cost (c_FP/c_FN = {c.cost_ratio:g})"
        if np.isfinite(c.threshold):
            ax.axvline(c.threshold, color="#000000", linewidth=2.6,
                       label=f"{rule}: t = {c.threshold:.4g}")  # fmt: skip
        else:  # nothing to draw: the legend says so
            ax.plot([], [], linestyle="none", marker="x", color="#000000",
                    label=f"{rule}: flag nothing")  # fmt: skip
    if choice is not None and choice.top_k is not None:
        k = choice.top_k
        ax.axvline(
            k.threshold, color="#56B4E9", linewidth=2.6, linestyle=(0, (4, 2)),
            label=f"top {k.k:g} rows: t = {k.threshold:.4g}",
        )  # fmt: skip
    points = _in_sample_points(sc)
    view = _thinned(sc, [float(p.threshold) for p in points])
    ThresholdDisplay(view, operating_points=points).plot(ax)
    ax.set_title(f"{plain_text(name)}: every metric against the threshold")
    # fixed margins (no measuring of text): the legend takes the right third
    fig.subplots_adjust(left=0.06, right=0.66, bottom=0.11, top=0.93)
    return fig


def _cost_rows(entries: dict[str, dict[str, Any]]) -> list[list[Any]]:
    rows = []
    for name, e in entries.items():
        c = e["cost_optimal"]
        at = "flag nothing" if c["flags_nothing"] else _thr(c["threshold"])
        treat = c["treat_all_interval"]
        fixed = treat is not None and treat["low"] == treat["high"]  # π known: no spread
        rows.append([
            code(name),
            with_ci(at, _threshold_ci(c["threshold_interval"])),
            _fmt(c["queue_rate"]), _fmt(c["precision"], 3), _fmt(c["recall"], 3),
            with_ci(_fmt(c["expected_cost"]), _ci(c["expected_cost_interval"])),
            with_ci(_fmt(c["net_benefit"]), _ci(c["net_benefit_interval"])),
            _fmt(c["treat_all_net_benefit"]) if fixed
            else with_ci(_fmt(c["treat_all_net_benefit"]), _ci(treat)),
        ])  # fmt: skip
    return rows


def choice_html(
    analysis: Any, data: dict[str, Any], *, check: Callable[[], None] | None = None
) -> Markup:
    """The "Choosing a threshold" section (empty when no scorer has a threshold view).

    ``check`` is called before each figure is drawn (it raises to stop the drawing)."""
    entries = {
        n: s["threshold_choice"] for n, s in data["scorers"].items() if "threshold_choice" in s
    }
    if not entries:
        return Markup()
    level = data["settings"]["level"]
    costs = {n: e for n, e in entries.items() if e["cost_optimal"] is not None}
    tops = {n: e["top_k"] for n, e in entries.items() if e["top_k"] is not None}
    figures = []
    for i, name in enumerate(entries):
        if check is not None:
            check()
        fig = choice_figure(analysis.scorers[name], name)
        caption = _caption(name, entries[name]["threshold_view"], name in costs, name in tops)
        figures.append(img(figure_png(fig), caption, caption=caption, key=f"threshold-view-{i}"))
    return render(
        "binary/choice.html", cost=_cost_table(costs, level), top_k=_top_k_table(tops, level),
        notes=[(name, note) for name, e in entries.items() for note in e["notes"]],
        figures=figures,
    )  # fmt: skip


def _cost_table(costs: dict[str, Any], level: float) -> dict[str, Any] | None:
    """The cost-optimal thresholds' table and the sentence above it (None without costs)."""
    if not costs:
        return None
    first = next(iter(costs.values()))["cost_optimal"]
    where = {"data": "the data's", "known": "the deployment", "count": "the estimated"}
    ci = f"({level:.0%} CI)"
    head = [
        "scorer", f"cost-optimal threshold {ci}", "share flagged", "precision", "recall",
        f"expected cost {ci}", f"net benefit {ci}", "treat all: net benefit",
    ]  # fmt: skip
    return {
        "ratio": f"{first['cost_ratio']:g}", "probability": f"{first['threshold_probability']:.4g}",
        "where": where[first["prevalence_source"]], "prevalence": f"{first['prevalence']:.4g}",
        "head": head, "rows": _cost_rows(costs),
    }  # fmt: skip


def _top_k_table(tops: dict[str, Any], level: float) -> dict[str, Any] | None:
    """Precision@K and recall@K with their intervals (None without --top-k)."""
    if not tops:
        return None
    head = ["scorer", "K", "rows", f"precision@K ({level:.0%} CI)",
            f"recall@K ({level:.0%} CI)", "score of the K-th row"]  # fmt: skip
    rows = [
        [code(n), f"{t['k']:g}", f"{t['depth_rows']:,.0f}",
         with_ci(_fmt(t["precision_at_k"]), _ci(t["precision_at_k_interval"])),
         with_ci(_fmt(t["recall_at_k"]), _ci(t["recall_at_k_interval"])),
         _thr(t["threshold"])]
        for n, t in tops.items()
    ]  # fmt: skip
    return {"head": head, "rows": rows}


def _caption(name: str, view: dict[str, Any], cost: bool, top_k: bool) -> str:
    """The caption (and alt text) of one scorer's threshold view."""
    band = (
        f"; shaded: {view['level']:.0%} pointwise bootstrap bands ({view['n_resamples']:,} "
        "resamples)"
        if view["band_points"]
        else ""
    )
    return (
        f"{name}: precision, recall, F₁, queue rate and false-positive rate against the "
        f"threshold{band}; vertical lines: the operating points of this report"
        + (", the cost-optimal threshold" if cost else "")
        + (", the threshold reaching the top K rows" if top_k else "")
        + "."
    )
