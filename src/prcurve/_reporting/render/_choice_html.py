"""The page's "Choosing a threshold" section.

For each scorer, the threshold view (:class:`prcurve.plot.ThresholdDisplay`: precision, recall,
F₁, queue rate and FPR against the threshold, with pointwise bands) with the report's operating
points, the cost-optimal threshold and the top-K threshold marked; then a table of the
cost-optimal thresholds (``--cost-ratio``/``--prevalence``) and one of precision@K and
recall@K (``--top-k``), with their intervals, and a short "how to read this".  The numbers come
from the scorers' ``threshold_choice`` entries of ``summary.json``; the figures draw the
analysis's views (nothing is computed here: the analysis is :mod:`..analysis._choice`).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._decision._threshold_view import METRICS
from ._png import figure_png

__all__ = ["choice_figure", "choice_html"]


def _fmt(x: Any, digits: int = 4) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _thr(x: Any) -> str:
    return "–" if x is None else f"{x:.6g}"


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


def _thinned(view: Any, marks: list[float]) -> Any:
    """The view with only the rows its figure can show: per pixel column of the threshold
    axis, the first, last, lowest and highest point of each metric
    (:func:`prcurve.plot._thin.thin_indices`), every row carrying a band and the rows of the
    thresholds ``marks`` (whose metrics the markers show).

    Matplotlib then never holds a million-point line (at 10⁶ distinct scores drawing the
    full view took 0.9 s and 300 MB more; :func:`prcurve.plot._thin.thin_axes` thins only
    after the lines exist).
    """
    from dataclasses import replace

    from ...plot._thin import COLUMNS, thin_indices

    k = view.thresholds.shape[0]
    if k <= 4 * COLUMNS:
        return view
    x = np.asarray(view.thresholds, dtype=np.float64)[::-1]  # increasing, as drawn
    lo, hi = float(x[0]), float(x[-1])
    keep = [k - 1 - thin_indices(x, view.metric(m)[::-1], lo, hi) for m in METRICS]
    if view.band_index is not None:
        keep.append(view.band_index)
    held = np.searchsorted(-x[::-1], -np.asarray(marks, dtype=np.float64), side="right") - 1
    keep.append(held[held >= 0])
    rows = np.unique(np.concatenate(keep))
    arrays = ("thresholds", "tp", "fp", *METRICS)
    thin = {a: np.asarray(getattr(view, a))[rows] for a in arrays}
    if view.band_index is not None:
        thin["band_index"] = np.searchsorted(rows, view.band_index)
    return replace(view, **thin)


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
    view = _thinned(sc.threshold_view, [float(p.threshold) for p in points])
    ThresholdDisplay(view, operating_points=points).plot(ax)
    ax.set_title(f"{plain_text(name)}: every metric against the threshold")
    # fixed margins (no measuring of text): the legend takes the right third
    fig.subplots_adjust(left=0.06, right=0.66, bottom=0.11, top=0.93)
    return fig


def _png(fig: Any, key: str, caption: str) -> str:
    data = base64.b64encode(figure_png(fig)).decode("ascii")
    esc = html.escape(caption)
    return (
        f'<figure id="{key}"><img src="data:image/png;base64,{data}" alt="{esc}">'
        f"<figcaption>{esc}</figcaption></figure>"
    )


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="choice"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


HOW_TO_READ = (
    "<b>How to read this.</b> Each figure shows what flagging every row with score ≥ t "
    "gives, for every threshold t: the share of flagged rows that are positive (precision), "
    "the share of positives flagged (recall), F₁, the share of all rows flagged (queue rate: "
    "the review workload) and the share of negatives flagged (false-positive rate). The shaded "
    "bands are pointwise bootstrap intervals: each covers its own threshold, not the whole "
    "line at once, and they are unreliable where only a handful of false positives or missed "
    "positives decide a value. Vertical lines mark the thresholds chosen in this report. "
)

COST_HOW_TO_READ = (
    "The cost-optimal threshold minimises the expected cost per row, π·(share of positives "
    "missed) + (1 − π)·R·(false-positive rate), with R = c_FP/c_FN and costs in units of one "
    "missed positive; net benefit (Vickers &amp; Elkin 2006) is π·recall − (1 − π)·R·FPR, the "
    "same choice seen as true positives gained net of weighted false alarms, so expected cost "
    "= π − net benefit. Compare it with flagging everyone (treat all) and no one (0). The "
    "threshold's interval re-chooses the threshold in every bootstrap replicate: it shows how "
    "sharply the data pin it down (a wide interval: a flat cost curve, many thresholds "
    "nearly as good) but carries no coverage guarantee; the cost and net-benefit intervals "
    "keep the threshold chosen on all rows. "
)

TOP_K_HOW_TO_READ = (
    "Precision@K and recall@K are those of the K highest-scored rows, tied scores taken in "
    "random order (the expectation over their orders). "
)


def _with_ci(value: str, ci: str) -> str:
    """A value with its interval below it, smaller (one column for both)."""
    return f'{value}<br><span class="ci">{ci}</span>'


def _cost_rows(entries: dict[str, dict[str, Any]]) -> list[list[str]]:
    rows = []
    for name, e in entries.items():
        c = e["cost_optimal"]
        at = "flag nothing" if c["flags_nothing"] else _thr(c["threshold"])
        treat = c["treat_all_interval"]
        fixed = treat is not None and treat["low"] == treat["high"]  # π known: no spread
        rows.append([
            f"<code>{html.escape(name)}</code>",
            _with_ci(at, _threshold_ci(c["threshold_interval"])),
            _fmt(c["queue_rate"]), _fmt(c["precision"], 3), _fmt(c["recall"], 3),
            _with_ci(_fmt(c["expected_cost"]), _ci(c["expected_cost_interval"])),
            _with_ci(_fmt(c["net_benefit"]), _ci(c["net_benefit_interval"])),
            _fmt(c["treat_all_net_benefit"]) if fixed
            else _with_ci(_fmt(c["treat_all_net_benefit"]), _ci(treat)),
        ])  # fmt: skip
    return rows


def choice_html(
    analysis: Any, data: dict[str, Any], *, check: Callable[[], None] | None = None
) -> str:
    """The "Choosing a threshold" section ("" when no scorer has a threshold view).

    ``check`` is called before each figure is drawn (it raises to stop the drawing)."""
    entries = {
        n: s["threshold_choice"] for n, s in data["scorers"].items() if "threshold_choice" in s
    }
    if not entries:
        return ""
    level = data["settings"]["level"]
    parts = ['<h2 id="choosing">Choosing a threshold</h2>']
    costs = {n: e for n, e in entries.items() if e["cost_optimal"] is not None}
    if costs:
        first = next(iter(costs.values()))["cost_optimal"]
        where = {"data": "the data's", "known": "the deployment", "count": "the estimated"}
        parts.append(
            f"<p>Cost ratio R = c_FP/c_FN = {first['cost_ratio']:g} (threshold probability "
            f"p_t = R/(1 + R) = {first['threshold_probability']:.4g}) at "
            f"{where[first['prevalence_source']]} prevalence π = {first['prevalence']:.4g}; "
            "costs per row, in units of one missed positive.</p>"
        )
        ci = f"({level:.0%} CI)"
        head = [
            "scorer", f"cost-optimal threshold {ci}", "share flagged", "precision", "recall",
            f"expected cost {ci}", f"net benefit {ci}", "treat all: net benefit",
        ]  # fmt: skip
        parts.append(_table(head, _cost_rows(costs)))
    tops = {n: e["top_k"] for n, e in entries.items() if e["top_k"] is not None}
    if tops:
        head = ["scorer", "K", "rows", f"precision@K ({level:.0%} CI)",
                f"recall@K ({level:.0%} CI)", "score of the K-th row"]  # fmt: skip
        rows = [
            [f"<code>{html.escape(n)}</code>", f"{t['k']:g}", f"{t['depth_rows']:,.0f}",
             _with_ci(_fmt(t["precision_at_k"]), _ci(t["precision_at_k_interval"])),
             _with_ci(_fmt(t["recall_at_k"]), _ci(t["recall_at_k_interval"])),
             _thr(t["threshold"])]
            for n, t in tops.items()
        ]  # fmt: skip
        parts.append(_table(head, rows))
    text = HOW_TO_READ + (COST_HOW_TO_READ if costs else "") + (TOP_K_HOW_TO_READ if tops else "")
    parts.append(f'<p class="note">{text}</p>')
    for name, e in entries.items():
        for note in e["notes"]:
            parts.append(f'<p class="note">{html.escape(name)}: {html.escape(note)}</p>')
    for i, name in enumerate(entries):
        sc = analysis.scorers[name]
        view = entries[name]["threshold_view"]
        band = (
            f"; shaded: {view['level']:.0%} pointwise bootstrap bands ({view['n_resamples']:,} "
            "resamples)"
            if view["band_points"]
            else ""
        )
        caption = (
            f"{name}: precision, recall, F₁, queue rate and false-positive rate against the "
            f"threshold{band}; vertical lines: the operating points of this report"
            + (", the cost-optimal threshold" if name in costs else "")
            + (", the threshold reaching the top K rows" if name in tops else "")
            + "."
        )
        if check is not None:
            check()
        parts.append(_png(choice_figure(sc, name), f"threshold-view-{i}", caption))
    return "\n".join(parts)
