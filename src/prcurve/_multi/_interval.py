"""Bootstrap intervals for averaged (macro, weighted, micro) and per-class AUC-PR."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._area import AUC_PR_METHODS, batched_area
from .._core._results import ConfidenceInterval, compact_repr
from .._core._validation import check_choice, check_level, check_rng
from .._inference._common import DegenerateBootstrapWarning, check_progress, check_resamples
from .._inference._resample import (
    block_rows,
    prepare,
    replicate_counts,
    uniform_multiplicities,
)
from ._curves import average_areas, check_average, curves_of
from ._labels import check_multi_problem

__all__ = ["AveragedAUCPRInterval", "auc_pr_multi_ci"]


@compact_repr
@dataclass(frozen=True)
class AveragedAUCPRInterval:
    """An averaged AUC-PR with its bootstrap interval, and every class's own interval.

    Attributes
    ----------
    estimate : float
        The ``average`` of the per-class areas (the micro curve's area for ``"micro"``).
    interval : ConfidenceInterval
        Percentile bootstrap interval of :attr:`estimate`.
    per_class : ndarray, shape (k,)
        Each class's area against the rest.
    per_class_interval : ConfidenceInterval
        Percentile intervals of the per-class areas (array ends, shape (k,)).
    classes : ndarray, shape (k,)
    average : {"macro", "weighted", "micro"}
    method : str
        The AUC-PR estimator.
    level : float
    n_resamples : int
    replicates : ndarray, shape (n_resamples,)
        Bootstrap values of the averaged area.
    n_degenerate : int
        Replicates in which some class drew no positive; that class is left out of that
        replicate's macro average (its weight is zero in the weighted one) and of its own
        per-class interval.  A replicate with no positive of any class has no average (NaN in
        :attr:`replicates`) and is left out of the interval; a class drawn in no replicate has
        NaN ends in :attr:`per_class_interval` (a warning says so).
    """

    estimate: float
    interval: ConfidenceInterval
    per_class: np.ndarray
    per_class_interval: ConfidenceInterval
    classes: np.ndarray
    average: str
    method: str
    level: float
    n_resamples: int
    replicates: np.ndarray
    n_degenerate: int


def _class_replicates(sample, member: np.ndarray, mult: np.ndarray, method: str):
    """Area and support of one class in each replicate (instance multiplicities ``mult``)."""
    tp, fp, n_pos, _ = replicate_counts(sample, mult[:, member], mult[:, ~member], by_instance=True)
    ok = n_pos > 0
    area = batched_area(tp, fp, np.where(ok, n_pos, 1.0), method)
    return np.where(ok, area, 0.0), np.where(ok, n_pos, 0.0)


def _percentile(values: np.ndarray, valid: np.ndarray, level: float) -> tuple[float, float]:
    v = values[valid]
    if v.size == 0:
        return float("nan"), float("nan")
    lo, hi = np.quantile(v, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def auc_pr_multi_ci(
    y_true: Any,
    y_score: Any,
    *,
    average: str = "macro",
    method: str = "average_precision",
    labels: Any = None,
    sample_weight: Any = None,
    level: float = 0.95,
    n_resamples: int = 1000,
    rng: Any = None,
    progress: Any = None,
) -> AveragedAUCPRInterval:
    """Percentile-bootstrap interval for the averaged AUC-PR of a multi-output problem.

    Parameters
    ----------
    y_true, y_score, labels, sample_weight
        As in :func:`prcurve.pr_curves`.
    average : {"macro", "weighted", "micro"}
        The average whose interval is wanted (see :func:`prcurve.auc_pr`).
    method : str
        AUC-PR estimator (any of :func:`prcurve.auc_pr`'s).
    level : float
    n_resamples : int
    rng : None, int or numpy.random.Generator
    progress : callable (done, total), optional

    Returns
    -------
    AveragedAUCPRInterval

    Notes
    -----
    Instances are resampled with replacement, all their class labels and scores together, so
    the class counts vary between replicates as they would between samples of instances drawn
    at random (not stratified: the classes of an instance are not a fixed design).  Each
    replicate is counted on the original thresholds without sorting again
    (``prcurve._inference._resample``), block by block, vectorised over replicates.  Like every
    percentile bootstrap of AUC-PR it inherits the estimator's small-sample bias; the measured
    coverage is in the test-suite (``tests/multi/test_interval.py``).

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import auc_pr_multi_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, size=300)
    >>> scores = rng.normal(size=(300, 3)) + 1.5 * (y[:, None] == np.arange(3))
    >>> res = auc_pr_multi_ci(y, scores, n_resamples=200, rng=1)
    >>> bool(res.interval.low < res.estimate < res.interval.high)
    True
    """
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    checked = check_average(average)
    if checked is None:
        raise ValueError(
            "average: expected one of 'macro', 'micro', 'weighted', got None "
            "(per-class intervals are in the result's per_class_interval)"
        )
    average = checked
    level = check_level(level)
    n_resamples = check_resamples(n_resamples)
    progress = check_progress(progress)
    gen = check_rng(rng)
    problem = check_multi_problem(y_true, y_score, sample_weight=sample_weight, labels=labels)
    curves = curves_of(problem)
    ind, s, w = problem.indicator, problem.scores, problem.weight
    n, k = s.shape
    samples = [prepare(ind[:, j], s[:, j], w) for j in range(k)]
    micro_sample = None
    if average == "micro":
        micro_sample = prepare(ind.ravel(), s.ravel(), None if w is None else np.repeat(w, k))
        micro_member = ind.ravel()
    areas = np.empty((n_resamples, k))
    support = np.empty((n_resamples, k))
    overall = np.empty(n_resamples)
    rows = block_rows(n * (k if average == "micro" else 1), n_resamples)
    done = 0
    while done < n_resamples:
        b = min(rows, n_resamples - done)
        mult = uniform_multiplicities(gen, b, n)
        for j in range(k):
            areas[done : done + b, j], support[done : done + b, j] = _class_replicates(
                samples[j], ind[:, j], mult, method
            )
        if micro_sample is not None:
            area, n_pos = _class_replicates(
                micro_sample, micro_member, np.repeat(mult, k, axis=1), method
            )
            overall[done : done + b] = np.where(n_pos > 0, area, np.nan)
        done += b
        if progress is not None:
            progress(done, n_resamples)
    if average != "micro":
        overall = average_areas(areas, support, average)
    degenerate = (support == 0).any(axis=1)
    if degenerate.any():
        warnings.warn(
            f"{int(degenerate.sum())} of {n_resamples} bootstrap replicates drew no positive of "
            "some class; that class is left out of those replicates",
            DegenerateBootstrapWarning,
            stacklevel=2,
        )
    usable = np.isfinite(overall)
    if not usable.any():
        raise ValueError(
            f"y_true: no bootstrap replicate drew a positive instance of any class "
            f"({n} instances); too few positives for a bootstrap interval"
        )
    low, high = _percentile(overall, usable, level)
    ends = np.array([_percentile(areas[:, j], support[:, j] > 0, level) for j in range(k)])
    return AveragedAUCPRInterval(
        estimate=float(curves.auc(method, average=average)),
        interval=ConfidenceInterval(low, high, level),
        per_class=np.asarray(curves.auc(method, average=None)),
        per_class_interval=ConfidenceInterval(ends[:, 0], ends[:, 1], level),
        classes=curves.classes,
        average=average,
        method=method,
        level=level,
        n_resamples=n_resamples,
        replicates=overall,
        n_degenerate=int(degenerate.sum()),
    )
