"""The report's operating points and deployment prevalence (``--min-precision``,
``--min-recall``, ``--prevalence``).

One self-contained section: :func:`analyse_operating` computes, for one scorer, the operating
points at the requested targets with bootstrap intervals (one shared bootstrap,
:func:`prcurve._inference._operating_ci.operating_points`) and, with a deployment prevalence π,
the same targets chosen at π, the curve at π (:meth:`PRCurve.at_prevalence`), every AUC-PR
estimator at π, a bootstrap interval of average precision at π and the naive bootstrap band of
the curve at π.  :func:`deployment_comparisons` compares every pair of scorers at π (paired
bootstrap of the difference of average precision).  The output stage turns them into
``summary.json`` data (``output._summary``) and curve files, the rendering stage into page
fragments (``render._operating_html``).
"""

from __future__ import annotations

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
from ._intervals import report_warnings
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
    "deployment_comparisons",
    "fewest_flagged",
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


def _points(
    rows: tuple[np.ndarray, np.ndarray, np.ndarray | None],
    sub: tuple[np.ndarray, np.ndarray, np.ndarray | None],
    pr: PRCurve,
    targets: list[tuple[str, float]],
    prevalences: Sequence[Any],
    plan: Plan | None,
    level: float,
    n_resamples: int,
    gen: np.random.Generator,
    progress: Any,
    centres: list[OperatingPoint] | None,
) -> tuple[list[OperatingPoint], list[str]]:
    """The points of all rows with their intervals: widths from the subsample ``sub`` when
    ``plan`` (subsampled) is given, else from resampling every row of ``rows``."""
    if plan is not None:
        return _subsampled_points(
            *sub, pr, targets, prevalences, plan, level, gen, progress, centres
        )
    y, score, sample_weight = rows
    return operating_points(
        y, score, targets, prevalences=prevalences, level=level, n_resamples=n_resamples,
        rng=gen, progress=progress, sample_weight=sample_weight,
        counts=pr if sample_weight is None else None,
    )  # fmt: skip


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
    rows = (y, score, sample_weight)
    sub = rows
    if subsample_rows is not None:  # the rows given, and which of them the subsample holds
        if n_neg_rows is None:
            n_neg_rows = int(y.shape[0] - np.count_nonzero(y))
        sub = (y[subsample_rows], score[subsample_rows],
               None if sample_weight is None else sample_weight[subsample_rows])  # fmt: skip
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
    points: list[OperatingPoint] = []
    if targets:
        gen = np.random.default_rng(streams[0])
        points, more = _points(
            rows, sub, pr, targets, prevalences, plan if subsampled else None, level,
            n_resamples, gen, progress, centres,
        )  # fmt: skip
        notes += more
    n_neg = float(
        np.count_nonzero(~np.asarray(y, dtype=bool)) if n_neg_rows is None else n_neg_rows
    )
    notes += _no_false_positive_notes(points, n_neg, weighted=sample_weight is not None)
    if prevalence is None:
        return OperatingAnalysis(points, notes=notes)
    b_deploy = n_resamples if deploy_plan is None else deploy_plan.n_resamples
    return _at_prevalence(
        points, notes, pr, prevalence, sub if deploy_sub else rows,
        deploy_plan if deploy_sub else None, level, b_deploy, streams[1:],
    )  # fmt: skip


def _no_false_positive_notes(
    points: list[OperatingPoint], n_neg: float, *, weighted: bool
) -> list[str]:
    """A note for each point whose threshold has no false positive in the data: its precision
    interval collapses to 1, and the note says what one false positive would give.

    ``n_neg``: the negative rows (of positive weight, when ``weighted``).  With weights a false
    positive is not one row but its weight, so the note says what one negative row of the
    negatives' mean weight would give, and counts rows as rows and weights as weighted sums.
    """
    notes = []
    for p in points:
        if p.feasible and p.fp == 0 and p.tp is not None and p.precision_interval is not None:
            mean = p.n_neg / n_neg  # one negative row's weight (reweighted at π)
            one = p.tp / (p.tp + mean)
            if weighted:
                what = (
                    "one negative row of the negatives' mean weight (their weighted sum "
                    f"{p.n_neg:,.4g} over {n_neg:,.0f} negative rows of positive weight)"
                )
            else:
                what = f"a single false positive among the {n_neg:,.0f} negatives"
            notes.append(
                f"{p.criterion} {p.target:g} at prevalence {p.prevalence:.4g}: the threshold "
                "has no false positive in the data, so no resample has one and the precision "
                f"interval collapses to 1; {what} would give precision {one:.4f}"
            )
    return notes


def _at_prevalence(
    points: list[OperatingPoint],
    notes: list[str],
    pr: PRCurve,
    prevalence: float | tuple[int, int],
    rows: tuple[np.ndarray, np.ndarray, np.ndarray | None],
    plan: Plan | None,
    level: float,
    n_resamples: int,
    streams: Sequence[np.random.SeedSequence],
) -> OperatingAnalysis:
    """The operating analysis with its deployment part: the curve of all rows at π, its areas,
    AUPRG and best F₁, the interval of AP and the band at π resampled on ``rows`` (with
    ``plan`` subsampled: the subsample, the results rescaled to all rows); ``streams``: the
    interval's and the band's."""
    if isinstance(prevalence, tuple):
        count: tuple[int, int] | None = (int(prevalence[0]), int(prevalence[1]))
        value = prevalence[0] / prevalence[1]
    else:
        count, value = None, float(prevalence)
    started = time.perf_counter()
    deployed = pr.at_prevalence(value)
    yd, sd, wd = rows
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            ci: AUCPRInterval | None = auc_pr_ci(
                yd, sd, interval="bootstrap_percentile", prevalence=prevalence, level=level,
                n_resamples=n_resamples, rng=np.random.default_rng(streams[0]), sample_weight=wd,
            )  # fmt: skip
        except ValueError as exc:
            notes.append(f"bootstrap interval of average precision at π = {value:g}: {exc}")
            ci = None
    notes += [f"average precision at π = {value:g}: {w.message}" for w in report_warnings(caught)]
    band = _band_at(yd, sd, wd, prevalence, level, n_resamples, streams[1], notes)
    if plan is not None:  # from the subsample back to all rows
        if ci is not None:
            centre = area_with_options(
                pr.tp, pr.fp, pr.n_pos, pr.n_neg, "average_precision", prevalence=value
            )
            ci = rescale_interval(ci, centre, pr.n_pos, plan)
        if band is not None:
            band = rescale_band(band, deployed, plan)
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
    notes += [f"confidence band at π: {w.message}" for w in report_warnings(caught)]
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
                if p is not None and p.subsampled:  # (idx None: the rows at hand)
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
        notes += [f"comparison of {a} and {b} at π: {w.message}" for w in report_warnings(caught)]
    return out, notes


# --- page fragments ----------------------------------------------------------------------------
