"""The page's operating-point table and its deployment-prevalence section.

:func:`operating_html` renders one scorer's ``operating_points`` entry of ``summary.json`` (the
targets of ``--min-precision``/``--min-recall``, with their intervals); :func:`deployment_html`
the section at ``--prevalence`` π: the PR curves at π (:func:`deployment_figure`, drawn from the
analysis's curves and bands at π), every AUC-PR estimator at π and the comparisons at π.  The
numbers come from the ``summary.json`` dictionary, so the page and the JSON agree; nothing is
computed here (the analysis is :mod:`..analysis._operating`).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import Any

from ._png import figure_png
from ._reading import format_p_value

__all__ = ["deployment_figure", "deployment_html", "operating_html"]


def _fmt(x: Any, digits: int = 4) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _ci(entry: dict[str, Any] | None, digits: int = 4) -> str:
    if entry is None:
        return "–"
    return f"[{_fmt(entry['low'], digits)}, {_fmt(entry['high'], digits)}]"


def _thr(x: Any) -> str:
    return "–" if x is None else f"{x:.6g}"


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


def operating_html(entry: dict[str, Any], level: float, *, subsampled: bool = False) -> str:
    """The operating-point table of one scorer (from its ``summary.json`` entry);
    ``subsampled``: its intervals' widths come from a subsample (weighted data, large)."""
    points = entry.get("operating_points") or []
    if not points:
        return ""
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
            rows.append([target, prev, html.escape(p["reason"])] + ["–"] * (len(head) - 3))
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
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in entry.get("operating_notes", []))
    return (
        "<h3>Operating points</h3>"
        f'<table class="operating"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'
        '<p class="note">Precision ≥ p: the highest recall among thresholds whose precision is '
        "at least p; recall ≥ r: the highest precision among thresholds whose recall is at least "
        "r (ties toward the higher threshold). At a deployment prevalence the negatives are "
        "reweighted to it (recall and FPR unchanged) and the target is chosen there; FP is then "
        "the reweighted count. Percentile bootstrap intervals: the threshold is chosen again in "
        "every resample; precision and recall are those of the chosen threshold held fixed, "
        "which ignores that it was selected on these data (optimistic near the target). "
        + (_SUBSAMPLED_NOTE if subsampled else _EVERY_ROW_NOTE)
        + "</p>"
        + (f"<ul>{notes}</ul>" if notes else "")
    )


_EVERY_ROW_NOTE = (
    "Every row is resampled; the resamples are drawn coarse to fine (counts in blocks of the "
    "ranking first, a block in full only where a target's choice depends on it), which gives "
    "exactly the law of the ordinary bootstrap at a fraction of its cost."
)
_SUBSAMPLED_NOTE = (
    "On large weighted data the points are still those of all rows, but the widths of their "
    "intervals come from a stratified subsample, scaled by √(subsample/rows) (the threshold's "
    "in rank coordinates, its ends scores of the data); the settings list the rows each step "
    "resampled. The threshold interval of a target met high on the curve is then somewhat "
    "narrow (measured coverage 0.87–0.90 against 0.94 with every row resampled; "
    "--n-resamples N resamples every row)."
)


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


def deployment_html(analysis: Any, data: dict[str, Any]) -> str:
    """The deployment-prevalence section: PR curves at π and every AUC-PR estimator at π."""
    entries = {n: s["deployment"] for n, s in data["scorers"].items() if "deployment" in s}
    if not entries:
        return ""
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
    png = base64.b64encode(figure_png(fig)).decode("ascii")
    methods = list(next(iter(entries.values()))["auc_pr"])
    level = data["settings"]["level"]
    head = ["scorer", *(METHOD_LABELS.get(m, m) for m in methods), f"AP {level:.0%} CI"]
    head += ["achievable AUC-PR", "AUPRG", "best F₁ (score ≥)", f"band {level:.0%} half-width"]
    rows = []
    for name, e in entries.items():
        best = e["best_f1"]
        rows.append(
            [html.escape(name)]
            + [_fmt(e["auc_pr"][m]) for m in methods]
            + [_ci(e["average_precision_bootstrap"])]
            + [_fmt(e["achievable_auc_pr_davis_goadrich"]), _fmt(e["auprg"])]
            + [f"{_fmt(best['f1'])} ({_thr(best['threshold'])})"]
            + [_fmt((e.get("confidence_band") or {}).get("radius"))]
        )
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    caption = (
        f"PR curves at π = {pi:.4g}: true- and false-positive rates of the data kept, every "
        "negative reweighted so that positives make up π; the dashed line is chance (π)."
    )
    return (
        f'<h2 id="deployment">At deployment prevalence π = {pi:.4g}</h2>'
        f'<figure id="deployment-figure"><img src="data:image/png;base64,{png}" '
        f'alt="{html.escape(caption)}"><figcaption>{html.escape(caption)}</figcaption></figure>'
        f'<table class="deployment"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'
        '<p class="note">AUC-PR estimators of the curve at π (the same as weighting every '
        "negative by n₊(1 − π)/(π n₋)), the achievable curve's area, AUPRG and the best F₁ "
        f"(threshold in brackets) at π. {html.escape(how)} ROC curves do not depend on π. "
        "Operating points at π are in each scorer's table.</p>"
        + _band_note(entries)
        + _comparisons_html(data.get("deployment_comparisons"), pi)
    )


def _band_note(entries: dict[str, Any]) -> str:
    band = next((e["confidence_band"] for e in entries.values() if e.get("confidence_band")), None)
    if band is None:
        return ""
    lo, hi = band["recall_range"]
    return (
        f'<p class="note">Shaded: {band["level"]:.0%} simultaneous band of each curve at π over '
        f"recall {lo:g}–{hi:g}, the naive bootstrap band of resamples reweighted to π "
        f"({band['n_resamples']:,} resamples). Its coverage was measured on a binormal model at "
        "π = 0.01 (bench/coverage_prevalence.py): 0.985 at n = 250 and 1,000, 0.925 at "
        "n = 4,000 with every miss at recall below 0.3, where precision at a low π rests on the "
        "few negatives scoring above the top positives.</p>"
    )


def _comparisons_html(entry: dict[str, Any] | None, pi: float) -> str:
    """Table of the paired comparisons at π (empty without two scorers)."""
    if not entry or not (entry["comparisons"] or entry["notes"]):
        return ""
    rows = []
    level = 0.95
    for c in entry["comparisons"]:
        level = c["level"]
        rows.append(
            [
                f"{html.escape(c['a'])} − {html.escape(c['b'])}",
                _fmt(c["estimate_a"]),
                _fmt(c["estimate_b"]),
                _fmt(c["difference"]),
                _ci(c),
                html.escape(format_p_value(c["p_value"], c["n_resamples"])),
                "yes" if c["bands_separate"] else "no",
            ]
        )
    head = ["A − B", "AP of A at π", "AP of B at π", "difference", f"{level:.0%} CI"]
    head += ["p-value", "bands separate"]
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in entry["notes"])
    return (
        f'<h3 id="deployment-comparisons">Pairwise comparisons at π = {pi:.4g}</h3>'
        + (
            f'<table class="deployment-comparisons"><thead><tr>{th}</tr></thead>'
            f"<tbody>{body}</tbody></table>"
            if rows
            else ""
        )
        + '<p class="note">Paired bootstrap of the difference of average precision at π: every '
        "resample draws the instances once for both scorers and reweights its negatives to π "
        "with its own class totals; percentile interval, two-sided p-value of no difference "
        "(bootstrap distribution shifted to 0). At a low π average precision is biased upward, "
        "and on a binormal model at π = 0.01 this interval covered only 0.88 "
        "(bench/coverage_prevalence.py): read it as indicative.</p>"
        + (f"<ul>{notes}</ul>" if notes else "")
    )
