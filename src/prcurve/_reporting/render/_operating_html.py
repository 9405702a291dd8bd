"""The page's operating-point table and its deployment-prevalence section.

:func:`operating_html` renders one scorer's ``operating_points`` entry of ``summary.json`` (the
targets of ``--min-precision``/``--min-recall``, with their intervals); :func:`deployment_html`
the section at ``--prevalence`` π: the PR curves at π (:func:`deployment_figure`, drawn from the
analysis's curves and bands at π), every AUC-PR estimator at π and the comparisons at π.  The
numbers come from the ``summary.json`` dictionary, so the page and the JSON agree; nothing is
computed here (the analysis is :mod:`..analysis._operating`); the markup and the text around
the numbers are ``templates/binary/operating.html`` and ``deployment.html``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from ._page import png_data
from ._png import figure_png
from ._reading import format_p_value
from ._templates import render

__all__ = ["deployment_figure", "deployment_html", "operating_html"]


def _fmt(x: Any, digits: int = 4) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _ci(entry: dict[str, Any] | None, digits: int = 4) -> str:
    if entry is None:
        return "–"
    return f"[{_fmt(entry['low'], digits)}, {_fmt(entry['high'], digits)}]"


def _thr(x: Any) -> str:
    # + 0.0: a threshold of -0.0 (one score with 0.0) prints "0" whichever engine kept it
    return "–" if x is None else f"{x + 0.0:.6g}"


def _count(x: Any) -> str:
    if x is None:
        return "–"
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.1f}"


METHOD_LABELS = {
    "average_precision": "AP",
    "davis_goadrich": "Davis–Goadrich",
    "trapezoid": "linear trapezoid",
    "lower_trapezoid": "lower trapezoid",
    "interpolated_median": "interpolated median",
}
CRITERION_LABELS = {"min_precision": "precision ≥", "min_recall": "recall ≥"}


def operating_html(entry: dict[str, Any], level: float, *, subsampled: bool = False) -> Markup:
    """The operating-point table of one scorer (from its ``summary.json`` entry);
    ``subsampled``: its intervals' widths come from a subsample (weighted data, large)."""
    points = entry.get("operating_points") or []
    if not points:
        return Markup()
    head = [
        "target",
        "prevalence",
        "threshold (score ≥)",
        f"threshold {level:.0%} CI",
        "precision",
        f"precision {level:.0%} CI",
        "recall",
        f"recall {level:.0%} CI",
        "FPR",
        "TP",
        "FP",
    ]
    rows = []
    for p in points:
        target = f"{CRITERION_LABELS.get(p['criterion'], p['criterion'])} {p['target']:g}"
        prev = f"{p['prevalence']:.4g}"
        if not p["feasible"]:
            rows.append([target, prev, p["reason"]] + ["–"] * (len(head) - 3))
            continue
        rows.append(
            [
                target,
                prev,
                _thr(p["threshold"]),
                "–"
                if p["threshold_interval"] is None
                else f"[{_thr(p['threshold_interval']['low'])}, "
                f"{_thr(p['threshold_interval']['high'])}]",
                _fmt(p["precision"]),
                _ci(p["precision_interval"]),
                _fmt(p["recall"]),
                _ci(p["recall_interval"]),
                _fmt(p["fpr"]),
                _count(p["tp"]),
                _count(p["fp"]),
            ]
        )
    return render(
        "binary/operating.html", head=head, rows=rows, subsampled=subsampled,
        notes=entry.get("operating_notes", []),
    )  # fmt: skip


def deployment_figure(analysis: Any, names: Sequence[str], pi: float) -> Any:
    """The PR curves at π of the scorers ``names``, each with its band at π (shaded), the legend
    below the panel: at a low π the curves lie along the bottom, where a legend inside would
    cover them."""
    from matplotlib.figure import Figure as MplFigure

    from ...plot import PRCurvesDisplay
    from ._figures import finish_panels

    curves = {n: s.operating.deployed for n, s in analysis.scorers.items() if n in names}
    fig = MplFigure(figsize=(6.5, 6.2))
    ax = fig.subplots()
    disp = PRCurvesDisplay(curves).plot(ax, auc_method="average_precision", lower_bound=True)
    for n, s in analysis.scorers.items():
        band = None if n not in names else s.operating.deployed_band
        if band is not None:  # the band at π, shaded in the curve's colour
            ax.fill_between(
                band.recall, band.band.low, band.band.high, color=disp.lines_[n].get_color(),
                alpha=0.15, linewidth=0,
            )  # fmt: skip
    ax.set_title(f"Precision–recall at deployment prevalence π = {pi:.4g}")
    finish_panels(fig, (ax,))
    return fig


def deployment_html(analysis: Any, data: dict[str, Any]) -> Markup:
    """The deployment-prevalence section: PR curves at π and every AUC-PR estimator at π."""
    entries = {n: s["deployment"] for n, s in data["scorers"].items() if "deployment" in s}
    if not entries:
        return Markup()
    first = next(iter(entries.values()))
    pi, count = first["prevalence"], first["prevalence_count"]
    if count is None:
        how = "π is treated as known: every bootstrap resample is reweighted to π."
    else:
        how = (
            f"π was estimated as {count[0]:,}/{count[1]:,}: every bootstrap resample also draws "
            f"its own π from Beta({count[0]} + ½, {count[1] - count[0]} + ½), so the intervals "
            "include the prevalence's uncertainty."
        )
    fig = deployment_figure(analysis, list(entries), pi)
    points_at_pi = any(
        math.isclose(p["prevalence"], pi)
        for s in data["scorers"].values()
        for p in s.get("operating_points") or []
    )
    methods = list(first["auc_pr"])
    level = data["settings"]["level"]
    head = ["scorer", *(METHOD_LABELS.get(m, m) for m in methods), f"AP {level:.0%} CI"]
    head += ["achievable AUC-PR", "AUPRG", "best F₁ (score ≥)", f"band {level:.0%} half-width"]
    rows = []
    for name, e in entries.items():
        best = e["best_f1"]
        rows.append(
            [name]
            + [_fmt(e["auc_pr"][m]) for m in methods]
            + [_ci(e["average_precision_bootstrap"])]
            + [_fmt(e["achievable_auc_pr_davis_goadrich"]), _fmt(e["auprg"])]
            + [f"{_fmt(best['f1'])} ({_thr(best['threshold'])})"]
            + [_fmt((e.get("confidence_band") or {}).get("radius"))]
        )
    caption = (
        f"PR curves at π = {pi:.4g}: true- and false-positive rates of the data kept, every "
        "negative reweighted so that positives make up π; the dashed line is chance (π)."
    )
    return render(
        "binary/deployment.html", pi=f"{pi:.4g}", png=png_data(figure_png(fig)),
        caption=caption, head=head, rows=rows, how=how, points_at_pi=points_at_pi,
        band=next((e["confidence_band"] for e in entries.values() if e.get("confidence_band")),
                  None),
        comparisons=_comparisons(data.get("deployment_comparisons")),
    )  # fmt: skip


def _comparisons(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """The paired comparisons at π: table head, rows and notes (None without any)."""
    if not entry or not (entry["comparisons"] or entry["notes"]):
        return None
    rows = []
    level = 0.95
    for c in entry["comparisons"]:
        level = c["level"]
        rows.append(
            [
                f"{c['a']} − {c['b']}",
                _fmt(c["estimate_a"]),
                _fmt(c["estimate_b"]),
                _fmt(c["difference"]),
                _ci(c),
                format_p_value(c["p_value"], c["n_resamples"]),
                "yes" if c["bands_separate"] else "no",
            ]
        )
    head = ["A − B", "AP of A at π", "AP of B at π", "difference", f"{level:.0%} CI"]
    head += ["p-value", "bands separate"]
    return {"head": head, "rows": rows, "notes": entry["notes"]}
