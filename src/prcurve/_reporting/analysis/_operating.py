"""The report's operating points and deployment prevalence (``--min-precision``,
``--min-recall``, ``--prevalence``).

One self-contained section: :func:`analyse_operating` computes, for one scorer, the operating
points at the requested targets with bootstrap intervals (one shared bootstrap,
:func:`prcurve._inference._operating_ci.operating_points`) and, with a deployment prevalence π,
the same targets chosen at π, the curve at π (:meth:`PRCurve.at_prevalence`), every AUC-PR
estimator at π, a bootstrap interval of average precision at π and the naive bootstrap band of
the curve at π.  :func:`deployment_comparisons` compares every pair of scorers at π (paired
bootstrap of the difference of average precision).  :func:`operating_summary` and
:func:`comparison_summary` turn them into ``summary.json`` data, :func:`operating_html` and
:func:`deployment_html` into page fragments, :func:`deployment_files` into curve CSV files.
"""

from __future__ import annotations

import base64
import html
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from ..._core._area import AUC_PR_METHODS
from ..._core._empirical import PRCurve
from ..._core._operating import OperatingPoint
from ..._core._partial import area_with_options
from ..._core._validation import check_binary_problem
from ..._inference._auc_ci import AUCPRInterval, auc_pr_ci
from ..._inference._band import PRConfidenceBand, pr_confidence_band
from ..._inference._compare import ComparisonResult, compare
from ..._inference._operating_ci import _operating_bootstrap, _points_from_counts, operating_points
from ..._prg._curve import PRGCurve
from ..input._io import figure_png
from ..render._reading import format_p_value
from ._sizing import (
    Plan,
    rescale_band,
    rescale_comparison,
    rescale_interval,
    rescale_points,
    subsample,
)

__all__ = [
    "DEFAULT_MIN_PRECISION",
    "DEFAULT_MIN_RECALL",
    "ESTIMATED_PI_ALL_ROWS",
    "OperatingAnalysis",
    "analyse_operating",
    "comparison_entry",
    "comparison_summary",
    "deployment_comparisons",
    "deployment_figure",
    "deployment_files",
    "deployment_html",
    "fewest_flagged",
    "operating_html",
    "operating_summary",
    "operating_targets",
    "operating_task",
]

#: Targets of the operating-point table when none are given.
DEFAULT_MIN_PRECISION = (0.5, 0.8, 0.9)
DEFAULT_MIN_RECALL = (0.5, 0.8, 0.9)
#: Stream key of the operating-point bootstrap (independent of the report's other streams).
STREAM = 14
#: Stream key of the paired comparisons at the deployment prevalence.
COMPARE_STREAM = 15
#: Why, with π estimated from a count, the steps at π resample every row ({what}: which steps).
ESTIMATED_PI_ALL_ROWS = (
    "π is estimated from a count (--prevalence-count): its uncertainty does not shrink with the "
    "number of rows, so {what} resample every row instead of a stratified subsample whose "
    "spread is rescaled by √(m/n) (which would shrink π's share too); slower on large data"
)
#: Why a weighted report has no band at π.
BAND_AT_PI_IGNORES_WEIGHTS = (
    "confidence band at π: not computed, because the bootstrap band takes no sample weights"
)


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
    deployed_band: PRConfidenceBand | None = None
    seconds_at_prevalence: float = 0.0  # of the interval and band at π


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


def operating_targets(
    min_precision: Sequence[float], min_recall: Sequence[float]
) -> list[tuple[str, float]]:
    """The report's targets in table order: every minimum precision, then every minimum recall."""
    return [("min_precision", p) for p in min_precision] + [("min_recall", r) for r in min_recall]


def fewest_flagged(
    score: np.ndarray,
    pr: PRCurve,
    targets: Sequence[tuple[str, float]],
    prevalences: Sequence[Any] = (None,),
) -> tuple[int, list[OperatingPoint]]:
    """The fewest rows any target's threshold flags (``score >= threshold``) on all rows, and
    the points (without intervals).

    The points are chosen from the curve ``pr`` of these rows (no sort), every target at every
    prevalence; the count sizes the operating points' subsample
    (:func:`._sizing.plan_operating`).  No feasible point: n.
    """
    points = _points_from_counts(pr, targets, prevalences) if targets else []
    flagged = [int(np.count_nonzero(score >= p.threshold)) for p in points if p.feasible]
    return min(flagged, default=int(score.shape[0])), points


def _subsampled_points(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    pr: PRCurve,
    targets: list[tuple[str, float]],
    prevalences: Sequence[Any],
    p: Plan,
    level: float,
    rng: np.random.Generator,
    progress: Any,
    centres: list[OperatingPoint] | None = None,
) -> tuple[list[OperatingPoint], list[str]]:
    """Points chosen on all rows (the curve ``pr``; ``centres`` if already had), widths from a
    subsample ``(y, score, w)``.

    The centres are exactly what :func:`operating_points` chooses on all rows; the subsample's
    replicates hold precision and recall at those thresholds and are rescaled by
    :func:`._sizing.rescale_points` (threshold ends snapped to scores of the data).
    """
    if centres is None:
        centres = _points_from_counts(pr, targets, prevalences)
    hold = [c.threshold if c.feasible else None for c in centres]
    ys, ss, ws = check_binary_problem(y, score, w, None)
    sub_points, reps = _operating_bootstrap(
        ys, ss, ws, targets, prevalences=prevalences, n_resamples=p.n_resamples, rng=rng,
        progress=progress, hold=hold,
    )  # fmt: skip
    return rescale_points(centres, sub_points, reps, p, pr, level)


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
    plan: Plan | None = None,
    n_neg_rows: int | None = None,
    all_rows_note: bool = False,
    centres: list[OperatingPoint] | None = None,
    subsample_rows: np.ndarray | None = None,
    deploy_plan: Plan | None = None,
) -> OperatingAnalysis:
    """Every operating-point number of one scorer (``index`` picks its random stream).

    ``(y, score, sample_weight)`` are the rows and ``pr`` their curve, unless ``plan`` is
    subsampled and ``subsample_rows`` not given, when they are the plan's stratified subsample
    (``n_neg_rows``: the negatives of all rows).  ``subsample_rows``: the indices of that
    subsample among the rows given.  Every point, area and curve is that of all rows.  With
    ``plan`` subsampled (weighted data on a large report) the widths of the points' intervals
    come from the subsample, rescaled by √(m/n) (:mod:`._sizing`); otherwise every row is
    resampled (coarse to fine when unweighted, :mod:`prcurve._inference._coarse_fine`).  The
    interval of average precision and the band at π are resampled as ``deploy_plan`` (default
    ``plan``) says: on the subsample when it is subsampled, rescaled.  A prevalence estimated
    from a count needs every row (its uncertainty does not shrink with n); ``all_rows_note``
    says so in the notes (the report sets it when the data are large enough that a known π
    would be subsampled); ``centres``: the points of all rows if already chosen
    (:func:`fewest_flagged`).
    """
    targets = operating_targets(min_precision, min_recall)
    # children 0 and 1 are those of earlier versions (spawn(3) extends spawn(2))
    streams = np.random.SeedSequence(seed, spawn_key=(STREAM, index)).spawn(3)
    notes: list[str] = []
    points: list[OperatingPoint] = []
    if subsample_rows is not None:  # all rows given, and which of them the subsample holds
        n_neg_rows = int(y.shape[0] - np.count_nonzero(y))
        sub = (y[subsample_rows], score[subsample_rows],
               None if sample_weight is None else sample_weight[subsample_rows])  # fmt: skip
    else:
        sub = (y, score, sample_weight)
    deploy_plan = plan if deploy_plan is None else deploy_plan
    subsampled = plan is not None and plan.subsampled
    deploy_sub = deploy_plan is not None and deploy_plan.subsampled
    if all_rows_note:
        notes.append(
            ESTIMATED_PI_ALL_ROWS.format(what="the operating points, the interval and the band")
        )
    if (subsampled or deploy_sub) and isinstance(prevalence, tuple):
        raise ValueError(
            "plan: expected every row with a prevalence estimated from a count, got a subsample"
        )
    prevalences = (None,) if prevalence is None else (None, prevalence)
    if targets and subsampled:
        assert plan is not None
        gen = np.random.default_rng(streams[0])
        points, more = _subsampled_points(
            *sub,
            pr,
            targets,
            prevalences,
            plan,
            level,
            gen,
            progress,
            centres,
        )
        notes += more
    elif targets:
        points, more = operating_points(
            y, score, targets, prevalences=prevalences, level=level, n_resamples=n_resamples,
            rng=np.random.default_rng(streams[0]), progress=progress,
            sample_weight=sample_weight, counts=pr if sample_weight is None else None,
        )  # fmt: skip
        notes += more
    n_neg = float(
        np.count_nonzero(~np.asarray(y, dtype=bool)) if n_neg_rows is None else n_neg_rows
    )
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
    started = time.perf_counter()
    deployed = pr.at_prevalence(value)
    yd, sd, wd = sub if deploy_sub else (y, score, sample_weight)
    b_deploy = n_resamples if deploy_plan is None else deploy_plan.n_resamples
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ci: AUCPRInterval | None = auc_pr_ci(
                yd, sd, interval="bootstrap_percentile", prevalence=prevalence, level=level,
                n_resamples=b_deploy, rng=np.random.default_rng(streams[1]), sample_weight=wd,
            )  # fmt: skip
        except ValueError as exc:
            notes.append(f"bootstrap interval of average precision at π = {value:g}: {exc}")
            ci = None
    notes += [f"average precision at π = {value:g}: {w.message}" for w in caught]
    band = _band_at(yd, sd, wd, prevalence, level, b_deploy, streams[2], notes)
    if deploy_sub:  # from the subsample back to all rows
        assert deploy_plan is not None
        if ci is not None:
            centre = area_with_options(
                pr.tp, pr.fp, pr.n_pos, pr.n_neg, "average_precision", prevalence=value
            )
            ci = rescale_interval(ci, centre, pr.n_pos, deploy_plan)
        if band is not None:
            band = rescale_band(band, deployed, deploy_plan)
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
        deployed_band=band,
        seconds_at_prevalence=time.perf_counter() - started,
    )


def _band_at(
    y: np.ndarray,
    score: np.ndarray,
    weight: np.ndarray | None,
    prevalence: float | tuple[int, int],
    level: float,
    n_resamples: int,
    stream: np.random.SeedSequence,
    notes: list[str],
) -> PRConfidenceBand | None:
    """Naive bootstrap band of the curve at π (None, with a note, when it cannot be had)."""
    if weight is not None:
        notes.append(BAND_AT_PI_IGNORES_WEIGHTS)
        return None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            band: PRConfidenceBand | None = pr_confidence_band(
                y, score, method="bootstrap", prevalence=prevalence, level=level,
                n_resamples=n_resamples, rng=np.random.default_rng(stream),
            )  # fmt: skip
        except ValueError as exc:
            notes.append(f"confidence band at π: {exc}")
            band = None
    notes += [f"confidence band at π: {w.message}" for w in caught]
    return band


def deployment_comparisons(
    problems: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray | None]],
    *,
    prevalence: float | tuple[int, int] | None,
    level: float,
    n_resamples: int,
    seed: int | None,
    progress: Any = None,
    curves: Mapping[str, PRCurve] | None = None,
    plans: Mapping[tuple[str, str], Plan] | None = None,
) -> tuple[list[tuple[str, str, ComparisonResult]], list[str]]:
    """Paired comparison at π of every pair of scorers (``problems``: name → (y, score, w)).

    Each pair has its own random stream; the rows are the same for every scorer (the report
    keeps the rows of positive weight, the same for all scorers).  A pair with a subsampled
    plan in ``plans`` (known π only; the report's ``--n-resamples auto`` on large data) is
    compared on a stratified subsample of ``plan.rows`` rows and moved back to all rows with
    :func:`._sizing.rescale_comparison`, using ``curves`` (name → curve of all rows) at π;
    otherwise every row is resampled ``n_resamples`` times.
    """
    if prevalence is None:
        return [], []
    out: list[tuple[str, str, ComparisonResult]] = []
    notes: list[str] = []
    pairs = list(combinations(problems, 2))
    streams = np.random.SeedSequence(seed, spawn_key=(COMPARE_STREAM,)).spawn(max(len(pairs), 1))
    for i, ((a, b), stream) in enumerate(zip(pairs, streams, strict=False)):
        (y, sa, w), sb = problems[a], problems[b][1]
        p = None if plans is None else plans.get((a, b))
        idx = None
        if p is not None and p.subsampled:
            if isinstance(prevalence, tuple) or curves is None:
                raise ValueError("plans: expected every row with π from a count or no curves")
            idx = subsample(
                y, p.rows, np.random.SeedSequence(seed, spawn_key=(COMPARE_STREAM, i, 0))
            )
        if idx is not None:
            y, sa, sb, w = y[idx], sa[idx], sb[idx], None if w is None else w[idx]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                res = compare(
                    y, sa, sb, prevalence=prevalence, level=level,
                    n_resamples=n_resamples if p is None else p.n_resamples,
                    rng=np.random.default_rng(stream), sample_weight=w, progress=progress,
                )  # fmt: skip
                if idx is not None:
                    assert (
                        p is not None and curves is not None and not isinstance(prevalence, tuple)
                    )
                    pi = float(prevalence)
                    res = rescale_comparison(
                        res, curves[a].at_prevalence(pi), curves[b].at_prevalence(pi), p
                    )
                out.append((a, b, res))
            except ValueError as exc:
                notes.append(f"comparison of {a} and {b} at π: {exc}")
        notes += [f"comparison of {a} and {b} at π: {w.message}" for w in caught]
    return out, notes


def comparison_entry(a: str, b: str, r: Any) -> dict[str, Any]:
    """One paired comparison of scorers ``a`` and ``b`` as a ``summary.json`` entry."""
    return {
        "a": a,
        "b": b,
        "method": r.method,
        "estimate_a": _num(r.estimate_a),
        "estimate_b": _num(r.estimate_b),
        "difference": _num(r.difference),
        "low": _num(r.interval.low),
        "high": _num(r.interval.high),
        "level": r.level,
        "p_value": _num(r.p_value),
        "n_resamples": r.n_resamples,
        "bands_separate": bool(r.bands_separate),
    }


def comparison_summary(
    comparisons: Sequence[tuple[str, str, ComparisonResult]], notes: Sequence[str] = ()
) -> dict[str, Any]:
    """``summary.json``'s ``deployment_comparisons`` entry."""
    return {
        "comparisons": [
            {
                **comparison_entry(a, b, r),
                "prevalence": r.prevalence,
                "prevalence_count": None
                if r.prevalence_count is None
                else list(r.prevalence_count),
            }
            for a, b, r in comparisons
        ],
        "notes": list(notes),
    }


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
            "confidence_band": None
            if op.deployed_band is None
            else {
                "method": op.deployed_band.method,
                "level": op.deployed_band.level,
                "recall_range": list(op.deployed_band.recall_range),
                "radius": _num(op.deployed_band.radius),
                "n_resamples": op.deployed_band.n_resamples,
                "grid_points": int(op.deployed_band.recall.shape[0]),
            },
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
    from ..render._figures import finish_panels

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


def deployment_files(stem: str, op: OperatingAnalysis | None) -> dict[str, dict[str, Any]]:
    """``curves/<stem>_at_prevalence.csv`` with every operating point at π: file → columns."""
    if op is None or op.deployed is None:
        return {}
    c = op.deployed
    files: dict[str, dict[str, Any]] = {
        f"{stem}_at_prevalence.csv": {
            "threshold": c.thresholds,
            "tp": c.tp,
            "fp": c.fp,
            "precision": c.precision,
            "recall": c.recall,
        }
    }
    band = op.deployed_band
    if band is not None:
        files[f"{stem}_band_at_prevalence.csv"] = {
            "recall": band.recall,
            "estimate": band.estimate,
            "low": np.asarray(band.band.low),
            "high": np.asarray(band.band.high),
        }
    return files
