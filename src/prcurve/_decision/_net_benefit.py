"""Decision-curve net benefit (Vickers & Elkin 2006), at a deployment prevalence, with intervals.

A threshold probability ``p_t`` says how a decision maker weighs the harm of a false positive
against the benefit of a true positive: the odds ``p_t/(1 − p_t)``.  Flagging by a rule with
rates (TPR, FPR) at prevalence π has net benefit ``NB = π·TPR − (1 − π)·FPR·p_t/(1 − p_t)``
(``TP/n − FP/n·p_t/(1 − p_t)`` at the data's prevalence).  "Treat all" flags everyone
(``π − (1 − π)·p_t/(1 − p_t)``), "treat none" no one (0).

Two rules map ``p_t`` to a decision on the scores:

* ``net_benefit``: the decision-curve rule — the score is taken to be a calibrated probability
  and ``score >= p_t`` is flagged (as ``dcurves`` does);
* ``best_net_benefit``: the best operating point for that ``p_t`` (any score, calibrated or
  not) — the largest NB over every threshold and "flag nothing".  It is a ROC convex hull
  vertex (the tangent of slope ``(1 − π)/π · p_t/(1 − p_t)``), so it is found by a binary search
  of the hull's edge slopes, not by a scan of every threshold for every ``p_t``.  It is the
  optimum chosen on the data, so it is optimistic as an estimate of what it delivers.

Intervals (of ``net_benefit`` and ``treat_all``) are percentile bootstrap intervals from the
shared resampling engine (:mod:`prcurve._inference._resample`): the decision ``score >= p_t``
is held fixed and its NB recomputed in every replicate, the prevalence being each replicate's
own (no ``prevalence`` given), fixed (a number) or drawn from Beta(k + ½, m − k + ½)
(a count ``(k, m)``), as in :func:`prcurve.operating_point`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._counts import BinaryCounts, count_sorted
from .._core._disk import n_at_least
from .._core._hull import upper_hull_indices
from .._core._results import ConfidenceInterval, compact_repr
from .._core._validation import (
    check_binary_problem,
    check_choice,
    check_level,
    check_rng,
    check_unit_interval_array,
)
from .._inference._common import check_progress, check_resamples
from .._inference._partial_ci import DeploymentPrevalence, check_deployment_prevalence
from .._inference._resample import ProgressHook, bootstrap_blocks, check_sampling, prepare

__all__ = ["NetBenefitCurve", "net_benefit"]

#: Default threshold probabilities: 0.01, 0.02, ..., 0.99.
DEFAULT_THRESHOLD_PROBABILITIES = np.round(np.arange(1, 100) / 100, 2)


@compact_repr
@dataclass(frozen=True)
class NetBenefitCurve:
    """Net benefit against threshold probability: the model, treat all and treat none.

    All arrays have one entry per threshold probability.

    Attributes
    ----------
    threshold_probabilities : ndarray, shape (m,)
        The ``p_t`` values, in [0, 1).
    net_benefit : ndarray, shape (m,)
        Net benefit of flagging ``score >= p_t`` (the score read as a calibrated probability).
    treat_all, treat_none : ndarray, shape (m,)
        Net benefit of flagging everyone, ``π − (1 − π)·p_t/(1 − p_t)``, and no one (0).
    best_net_benefit : ndarray, shape (m,)
        The largest net benefit over every threshold (and flagging nothing): what a
        recalibrated score could deliver at ``p_t`` on these data (optimistic: chosen on them).
    best_thresholds : ndarray, shape (m,)
        The score threshold giving it (the highest among ties; ``+inf``: flag nothing).
    prevalence : float
        The prevalence π of the net benefits (the data's when none was given).
    net_benefit_interval, treat_all_interval : ConfidenceInterval or None
        Pointwise percentile bootstrap intervals (arrays of shape (m,)), with
        ``interval="bootstrap"``.  ``treat_all`` depends on the data only through π: its
        interval is a single point when π is given as a number.
    level : float or None
    n_resamples : int or None
    """

    threshold_probabilities: np.ndarray
    net_benefit: np.ndarray
    treat_all: np.ndarray
    treat_none: np.ndarray
    best_net_benefit: np.ndarray
    best_thresholds: np.ndarray
    prevalence: float
    net_benefit_interval: ConfidenceInterval | None = None
    treat_all_interval: ConfidenceInterval | None = None
    level: float | None = None
    n_resamples: int | None = None


def _held_columns(thresholds: np.ndarray, p_t: np.ndarray) -> np.ndarray:
    """Column of the decreasing ``thresholds`` flagging ``score >= p_t`` (-1: flags nothing)."""
    return n_at_least(thresholds, p_t) - 1


def _best(counts: BinaryCounts, pi: float, odds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Largest NB over all decisions for each odds ``p_t/(1 − p_t)``, and its threshold."""
    hull = upper_hull_indices(counts.fp, counts.tp)
    tpr = np.concatenate([[0.0], np.divide(counts.tp[hull], counts.n_pos, dtype=np.float64)])
    fpr = np.concatenate([[0.0], np.divide(counts.fp[hull], counts.n_neg, dtype=np.float64)])
    thresholds = np.concatenate([[np.inf], np.asarray(counts.thresholds[hull], dtype=np.float64)])
    d_t, d_f = np.diff(tpr), np.diff(fpr)
    # edge slopes dTPR/dFPR, decreasing along the hull (vertical first edge: +inf)
    with np.errstate(divide="ignore"):
        slope = np.where(d_f > 0, d_t / np.where(d_f > 0, d_f, 1.0), np.inf)
    # the optimum is past every edge steeper than the tangent (1 − π)/π·odds (ties: stop there,
    # the higher threshold); compared as π·slope against (1 − π)·odds, which cannot overflow
    j = np.searchsorted(-pi * slope, -(1 - pi) * odds, side="left")
    return pi * tpr[j] - (1 - pi) * fpr[j] * odds, thresholds[j]


def _replicate_net_benefit(
    y: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None,
    columns: np.ndarray,
    odds: np.ndarray,
    deploy: DeploymentPrevalence | None,
    n_resamples: int,
    gen: np.random.Generator,
    progress: ProgressHook | None,
    sampling: str,
) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap replicates of NB at the held columns and of treat-all: shapes (B, m)."""
    sample = prepare(y, s, w)
    flags = columns >= 0
    used, where = np.unique(columns[flags], return_inverse=True)
    nb_parts, all_parts = [], []
    for tp, fp, npos, nneg in bootstrap_blocks(
        sample, n_resamples, gen, progress, used, sampling=sampling
    ):
        npos = np.asarray(npos, dtype=np.float64)
        nneg = np.asarray(nneg, dtype=np.float64)
        if deploy is None:
            pi = npos / (npos + nneg)
        else:
            pi = np.broadcast_to(np.asarray(deploy.draw(npos.shape[0], gen)), npos.shape)
        pi = pi[:, None]
        nb = np.zeros((npos.shape[0], odds.shape[0]))
        if used.shape[0]:
            tpr = tp[:, where] / npos[:, None]
            fpr = fp[:, where] / nneg[:, None]
            nb[:, flags] = pi * tpr - (1 - pi) * fpr * odds[flags]
        nb_parts.append(nb)
        all_parts.append(pi - (1 - pi) * odds)
    return np.concatenate(nb_parts), np.concatenate(all_parts)


def net_benefit(
    y_true: Any,
    y_score: Any,
    *,
    threshold_probabilities: Any = None,
    prevalence: Any = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    interval: str | None = None,
    level: float = 0.95,
    n_resamples: int = 1000,
    rng: Any = None,
    progress: ProgressHook | None = None,
    sampling: str = "instances",
) -> NetBenefitCurve:
    """Decision-curve net benefit of a score, of treating all and of treating none.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and scores (see :func:`prcurve.pr_curve`).  For ``net_benefit`` the
        score is read as a probability (flag ``score >= p_t``); ``best_net_benefit`` takes any
        score.
    threshold_probabilities : array-like of floats in [0, 1), optional
        The ``p_t`` values; 0.01, 0.02, ..., 0.99 by default.
    prevalence : float in (0, 1) or (int, int), optional
        Deployment prevalence π (TPR and FPR kept, as in :meth:`PRCurve.at_prevalence`); the
        data's by default.  A pair ``(k, m)``: π estimated as k/m, its uncertainty carried into
        the intervals (see :func:`prcurve.operating_point`).
    sample_weight : array-like of shape (n,), optional
    pos_label : optional
    interval : {None, "bootstrap"}
        ``"bootstrap"``: pointwise percentile intervals of ``net_benefit`` and ``treat_all``.
    level : float
        Confidence level in (0, 1).
    n_resamples : int
    rng : None, int or numpy.random.Generator
    progress : callable, optional
        ``progress(done, total)`` after each block of replicates.
    sampling : {"instances", "stratified"}
        Bootstrap sampling model (see :func:`prcurve.auc_pr_ci`).  With ``"stratified"`` and
        no ``prevalence`` every replicate keeps the data's prevalence.

    Returns
    -------
    NetBenefitCurve

    Notes
    -----
    Vickers & Elkin (2006), "Decision curve analysis: a novel method for evaluating prediction
    models", Medical Decision Making 26: net benefit = TP/n − FP/n · p_t/(1 − p_t) (their
    section "Calculation of a decision curve"), here written with rates as
    ``π·TPR − (1 − π)·FPR·p_t/(1 − p_t)`` so that it holds at any deployment prevalence.
    The values equal those of the ``dcurves`` package on the same data (tested).

    Coverage of the 95 % intervals (``bench/coverage_net_benefit.py``, binormal model with a
    calibrated score, 400 data sets, p_t from 0.02 to 0.35): 0.92–0.97 at n = 200 and 1000 with
    the data's or a counted prevalence; with a known prevalence the interval reflects only the
    rates TPR and FPR, and it under-covers where one of them is near 0 or 1 (p_t = 0.02,
    TPR ≈ 0.99: 0.89 at n = 200, 0.90 at n = 1000), as percentile intervals of a proportion
    near its bound do.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import net_benefit
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.3
    >>> p = 1 / (1 + np.exp(-(rng.normal(size=500) + 1.5 * y - 1.3)))
    >>> nb = net_benefit(y, p, threshold_probabilities=[0.1, 0.3, 0.5])
    >>> nb.net_benefit.round(3).tolist(), nb.treat_all.round(3).tolist()
    ([0.187, 0.124, 0.096], [0.176, -0.06, -0.484])
    >>> ci = net_benefit(y, p, threshold_probabilities=[0.3], interval="bootstrap",
    ...                  n_resamples=200, rng=1).net_benefit_interval
    >>> bool(ci.low[0] < 0.124 < ci.high[0])
    True
    """
    if threshold_probabilities is None:
        p_t = DEFAULT_THRESHOLD_PROBABILITIES.copy()
    else:
        p_t = np.atleast_1d(
            check_unit_interval_array(
                threshold_probabilities, "threshold_probabilities", low_open=False, high_open=True
            )
        )
        if p_t.ndim != 1 or p_t.shape[0] == 0:
            raise ValueError(
                f"threshold_probabilities: expected a non-empty 1-D array, got shape {p_t.shape}"
            )
    deploy = None if prevalence is None else check_deployment_prevalence(prevalence)
    kind = None if interval is None else check_choice(interval, "interval", ("bootstrap",))
    sampling = check_sampling(sampling)
    if kind is not None:
        level = check_level(level)
        n_resamples = check_resamples(n_resamples)
        gen = check_rng(rng)
        progress = check_progress(progress)
    y, s, w = check_binary_problem(y_true, y_score, sample_weight, pos_label)
    counts = count_sorted(y, s, w)
    pi = float(counts.n_pos / (counts.n_pos + counts.n_neg)) if deploy is None else deploy.value
    odds = p_t / (1 - p_t)
    cols = _held_columns(counts.thresholds, p_t)
    at = np.maximum(cols, 0)
    tpr = np.where(cols >= 0, np.divide(counts.tp[at], counts.n_pos, dtype=np.float64), 0.0)
    fpr = np.where(cols >= 0, np.divide(counts.fp[at], counts.n_neg, dtype=np.float64), 0.0)
    nb = pi * tpr - (1 - pi) * fpr * odds
    best, best_thr = _best(counts, pi, odds)
    result = NetBenefitCurve(
        threshold_probabilities=p_t,
        net_benefit=nb,
        treat_all=pi - (1 - pi) * odds,
        treat_none=np.zeros_like(p_t),
        best_net_benefit=best,
        best_thresholds=best_thr,
        prevalence=pi,
    )
    if kind is None:
        return result
    reps, reps_all = _replicate_net_benefit(
        y, s, w, cols, odds, deploy, n_resamples, gen, progress, sampling
    )
    probs = [(1 - level) / 2, (1 + level) / 2]
    lo, hi = np.quantile(reps, probs, axis=0)
    lo_all, hi_all = np.quantile(reps_all, probs, axis=0)
    return NetBenefitCurve(
        **{
            **result.__dict__,
            "net_benefit_interval": ConfidenceInterval(lo, hi, level),
            "treat_all_interval": ConfidenceInterval(lo_all, hi_all, level),
            "level": level,
            "n_resamples": n_resamples,
        }
    )
