"""The report's operating points and deployment prevalence (``--min-precision``,
``--min-recall``, ``--prevalence``).

One self-contained section: :func:`analyse_operating` computes, for one scorer, the operating
points at the requested targets with bootstrap intervals (one shared bootstrap,
:func:`prcurve._inference._operating_ci.operating_points`) and, with a deployment prevalence π,
the same targets chosen at π, the curve at π (:meth:`PRCurve.at_prevalence`), every AUC-PR
estimator at π and a bootstrap interval of average precision at π.  :func:`operating_summary`
turns it into ``summary.json`` data, :func:`operating_html` and :func:`deployment_html` into
page fragments, :func:`deployment_files` into curve CSV files.
"""

from __future__ import annotations

import base64
import html
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core._area import AUC_PR_METHODS
from .._core._empirical import PRCurve
from .._core._operating import OperatingPoint
from .._inference import AUCPRInterval, auc_pr_ci
from .._inference._operating_ci import operating_points
from .._prg._curve import PRGCurve
from ._io import figure_png

__all__ = [
    "DEFAULT_MIN_PRECISION",
    "DEFAULT_MIN_RECALL",
    "OperatingAnalysis",
    "analyse_operating",
    "deployment_files",
    "deployment_html",
    "operating_html",
    "operating_summary",
    "operating_task",
]

#: Targets of the operating-point table when none are given.
DEFAULT_MIN_PRECISION = (0.5, 0.8, 0.9)
DEFAULT_MIN_RECALL = (0.5, 0.8, 0.9)
#: Stream key of the operating-point bootstrap (independent of the report's other streams).
STREAM = 14


@dataclass(frozen=True)
class OperatingAnalysis:
    """Operating points of one scorer, and its curve and areas at a deployment prevalence."""

    points: list[OperatingPoint]
    deployment_prevalence: float | None = None
    deployment_count: tuple[int, int] | None = None  # π estimated as k/m from this count
    deployed: PRCurve | None = None
    deployed_auc_pr: dict[str, float] = field(default_factory=dict)
    deployed_ap_ci: AUCPRInterval | None = None
    deployed_other: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def operating_task(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    pr: Any,
    options: dict[str, Any],
    progress: Any = None,
) -> tuple[OperatingAnalysis, list[str]]:
    """:func:`analyse_operating` as one of the report's inference steps (a worker process may
    run it): returns the analysis and no extra notes (its notes are in the analysis)."""
    return analyse_operating(y, score, pr, sample_weight=w, progress=progress, **options), []


def analyse_operating(
    y: np.ndarray,
    score: np.ndarray,
    pr: PRCurve,
    *,
    sample_weight: np.ndarray | None = None,
    min_precision: Sequence[float],
    min_recall: Sequence[float],
    prevalence: float | tuple[int, int] | None,
    level: float,
    n_resamples: int,
    seed: int | None,
    index: int,
    progress: Any = None,
) -> OperatingAnalysis:
    """Every operating-point number of one scorer (``index`` picks its random stream)."""
    targets = [("min_precision", p) for p in min_precision] + [
        ("min_recall", r) for r in min_recall
    ]
    streams = np.random.SeedSequence(seed, spawn_key=(STREAM, index)).spawn(2)
    notes: list[str] = []
    points: list[OperatingPoint] = []
    if targets:
        points, notes = operating_points(
            y, score, targets, prevalences=(None,) if prevalence is None else (None, prevalence),
            level=level, n_resamples=n_resamples, rng=np.random.default_rng(streams[0]),
            progress=progress, sample_weight=sample_weight,
        )  # fmt: skip
    n_neg = float(np.count_nonzero(~np.asarray(y, dtype=bool)))
    for p in points:
        if p.feasible and p.fp == 0 and p.tp is not None and p.precision_interval is not None:
            one = p.tp / (p.tp + p.n_neg / n_neg)  # one false positive (reweighted at π)
            notes.append(
                f"{p.criterion} {p.target:g} at prevalence {p.prevalence:.4g}: the threshold "
                "has no false positive in the data, so no resample has one and the precision "
                "interval collapses to 1; a single false positive among the "
                f"{n_neg:,.0f} negatives would give precision {one:.4f}"
            )
    if prevalence is None:
        return OperatingAnalysis(points, notes=notes)
    if isinstance(prevalence, tuple):
        count: tuple[int, int] | None = (int(prevalence[0]), int(prevalence[1]))
        value = prevalence[0] / prevalence[1]
    else:
        count, value = None, float(prevalence)
    deployed = pr.at_prevalence(value)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ci: AUCPRInterval | None = auc_pr_ci(
                y, score, interval="bootstrap_percentile", prevalence=prevalence, level=level,
                n_resamples=n_resamples, rng=np.random.default_rng(streams[1]),
                sample_weight=sample_weight,
            )  # fmt: skip
        except ValueError as exc:
            notes.append(f"bootstrap interval of average precision at π = {value:g}: {exc}")
            ci = None
    notes += [f"average precision at π = {value:g}: {w.message}" for w in caught]
    prg = PRGCurve.from_pr(deployed)
    best = prg.best_f_threshold()
    other = {
        "achievable_auc_pr_davis_goadrich": deployed.achievable().auc("davis_goadrich"),
        "auprg": prg.auc(),
        "best_f1": {
            "threshold": best.threshold,
            "f1": best.f_beta,
            "precision": best.precision,
            "recall": best.recall,
        },
    }
    return OperatingAnalysis(
        points,
        deployment_prevalence=value,
        deployment_count=count,
        deployed=deployed,
        deployed_auc_pr={m: deployed.auc(m) for m in AUC_PR_METHODS},
        deployed_ap_ci=ci,
        deployed_other=other,
        notes=notes,
    )


# --- summary.json ----------------------------------------------------------------------------


def _num(x: Any) -> Any:
    if x is None or isinstance(x, bool | str):
        return x
    if isinstance(x, int | np.integer):
        return int(x)
    v = float(x)
    return v if np.isfinite(v) else None


def _interval(ci: Any) -> dict[str, Any] | None:
    return None if ci is None else {"low": _num(ci.low), "high": _num(ci.high)}


def _point_entry(p: OperatingPoint) -> dict[str, Any]:
    return {
        "criterion": p.criterion,
        "target": p.target,
        "prevalence": p.prevalence,
        "feasible": p.feasible,
        "reason": p.reason,
        **{k: _num(getattr(p, k)) for k in ("threshold", "precision", "recall", "fpr")},
        **{k: _num(getattr(p, k)) for k in ("tp", "fp", "fn", "tn")},
        "threshold_interval": _interval(p.threshold_interval),
        "precision_interval": _interval(p.precision_interval),
        "recall_interval": _interval(p.recall_interval),
        "feasible_fraction": p.feasible_fraction,
    }


def operating_summary(op: OperatingAnalysis) -> dict[str, Any]:
    """The scorer's ``operating_points`` (and ``deployment``) entries of ``summary.json``."""
    out: dict[str, Any] = {
        "operating_points": [_point_entry(p) for p in op.points],
        "operating_notes": list(op.notes),
    }
    if op.deployed is not None:
        ci = op.deployed_ap_ci
        out["deployment"] = {
            "prevalence": op.deployment_prevalence,
            "prevalence_count": None if op.deployment_count is None else list(op.deployment_count),
            "auc_pr": {m: _num(v) for m, v in op.deployed_auc_pr.items()},
            "achievable_auc_pr_davis_goadrich": _num(
                op.deployed_other["achievable_auc_pr_davis_goadrich"]
            ),
            "auprg": _num(op.deployed_other["auprg"]),
            "best_f1": {k: _num(v) for k, v in op.deployed_other["best_f1"].items()},
            "average_precision_bootstrap": None
            if ci is None
            else {
                "low": _num(ci.interval.low),
                "high": _num(ci.interval.high),
                "level": ci.level,
                "n_resamples": ci.n_resamples,
            },
        }
    return out


# --- page fragments ----------------------------------------------------------------------------


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


def operating_html(entry: dict[str, Any], level: float) -> str:
    """The operating-point table of one scorer (from its ``summary.json`` entry)."""
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
        "which ignores that it was selected on these data (optimistic near the target).</p>"
        + (f"<ul>{notes}</ul>" if notes else "")
    )


def deployment_html(analysis: Any, data: dict[str, Any]) -> str:
    """The deployment-prevalence section: PR curves at π and every AUC-PR estimator at π."""
    entries = {n: s["deployment"] for n, s in data["scorers"].items() if "deployment" in s}
    if not entries:
        return ""
    from matplotlib.figure import Figure as MplFigure

    from ..plot import PRCurvesDisplay

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
    curves = {n: s.operating.deployed for n, s in analysis.scorers.items() if n in entries}
    fig = MplFigure(figsize=(6.5, 5.2))
    ax = fig.subplots()
    PRCurvesDisplay(curves).plot(ax, auc_method="average_precision", lower_bound=True)
    ax.set_title(f"Precision–recall at deployment prevalence π = {pi:.4g}")
    fig.tight_layout()
    png = base64.b64encode(figure_png(fig)).decode("ascii")
    methods = list(next(iter(entries.values()))["auc_pr"])
    level = data["settings"]["level"]
    head = ["scorer", *(METHOD_LABELS.get(m, m) for m in methods), f"AP {level:.0%} CI"]
    head += ["achievable AUC-PR", "AUPRG", "best F₁ (score ≥)"]
    rows = []
    for name, e in entries.items():
        best = e["best_f1"]
        rows.append(
            [html.escape(name)]
            + [_fmt(e["auc_pr"][m]) for m in methods]
            + [_ci(e["average_precision_bootstrap"])]
            + [_fmt(e["achievable_auc_pr_davis_goadrich"]), _fmt(e["auprg"])]
            + [f"{_fmt(best['f1'])} ({_thr(best['threshold'])})"]
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
    )


def deployment_files(stem: str, op: OperatingAnalysis | None) -> dict[str, dict[str, Any]]:
    """``curves/<stem>_at_prevalence.csv`` with every operating point at π: file → columns."""
    if op is None or op.deployed is None:
        return {}
    c = op.deployed
    return {
        f"{stem}_at_prevalence.csv": {
            "threshold": c.thresholds,
            "tp": c.tp,
            "fp": c.fp,
            "precision": c.precision,
            "recall": c.recall,
        }
    }
