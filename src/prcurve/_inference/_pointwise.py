"""Pointwise confidence intervals for the PR curve at given recall levels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import ndtri

from .._core._batch import functional_precision
from .._core._results import ConfidenceInterval, compact_repr
from .._core._validation import (
    check_binary_problem,
    check_choice,
    check_level,
    check_rng,
    check_unit_interval_array,
)
from .._population._asymptotic import pr_asymptotic_variance
from ._common import check_progress, check_resamples
from ._kernel import gaussian_kde, silverman_bandwidth
from ._resample import (
    ProgressHook,
    bootstrap_curve_blocks,
    prepare,
    require_class_sizes,
)

__all__ = ["POINTWISE_METHODS", "PointwiseCI", "pr_pointwise_ci"]

POINTWISE_METHODS = ("normal", "bootstrap")
#: Positives needed by the normal approximation (its density ratio is a kernel estimate).
MIN_POSITIVES_NORMAL = 5


@compact_repr
@dataclass(frozen=True)
class PointwiseCI:
    """Pointwise confidence intervals of the PR curve.

    Attributes
    ----------
    recall : ndarray, shape (m,)
        The requested recall levels.
    estimate : ndarray, shape (m,)
        The functional estimator PR̂ at those levels.
    interval : ConfidenceInterval
        ``low``/``high`` arrays of shape (m,), in [0, 1]; each covers PR(x) with probability
        ``level`` (not simultaneously: see :func:`prcurve.pr_confidence_band`).
    standard_error : ndarray, shape (m,)
        ``σ̂(x)/√n`` (normal) or the standard deviation of the bootstrap replicates.
    level : float
    method : str
    n_resamples : int or None
        Bootstrap replicates (None for the normal approximation).
    replicates : ndarray of shape (n_resamples, m), or None
        The bootstrap estimates PR*(x) (bootstrap only).
    """

    recall: np.ndarray
    estimate: np.ndarray
    interval: ConfidenceInterval
    standard_error: np.ndarray
    level: float
    method: str
    n_resamples: int | None
    replicates: np.ndarray | None


def _positive_quantile(ps: np.ndarray, pw: np.ndarray | None, p: np.ndarray) -> np.ndarray:
    """Ĝ⁻¹(p) = inf{z : Ĝ(z) >= p} of the (weighted) positive scores."""
    order = np.argsort(ps, kind="stable")
    z = ps[order]
    cw = np.cumsum(np.ones(z.shape[0]) if pw is None else pw[order])
    i = np.searchsorted(cw / cw[-1], p * (1 - 8 * np.finfo(float).eps), side="left")
    return z[np.clip(i, 0, z.shape[0] - 1)]


def _normal(y, s, w, x, level):
    ps, ns = s[y].astype(np.float64), s[~y].astype(np.float64)
    pw = None if w is None else w[y]
    nw = None if w is None else w[~y]
    sample = prepare(y, s, w)
    c = sample.counts
    est = functional_precision(c.tp[None, :], c.fp[None, :], np.array([c.n_pos]), x)[0]
    n_pos, n_neg = float(c.n_pos), float(c.n_neg)
    # α̂(x): share of negatives above Ĝ⁻¹(1 − x), read back from PR̂ = n₊x / (n₊x + n₋α̂)
    alpha = n_pos * x * (1.0 / est - 1.0) / n_neg
    t = _positive_quantile(ps, pw, 1.0 - x)
    h_pos, h_neg = silverman_bandwidth(ps, pw), silverman_bandwidth(ns, nw)
    if h_pos <= 0 or h_neg <= 0:
        raise ValueError(
            "y_score: the scores of one class are all equal, so their density (needed by "
            "method='normal') cannot be estimated; use method='bootstrap'"
        )
    ratio = gaussian_kde(ns, t, h_neg, nw) / gaussian_kde(ps, t, h_pos, pw)
    var = pr_asymptotic_variance(est, x, alpha, ratio, n_neg / n_pos)
    n_eff = (
        float(y.shape[0])
        if w is None
        else float((w / w.max()).sum() ** 2 / np.sum((w / w.max()) ** 2))
    )
    se = np.sqrt(var / n_eff)
    z = ndtri(0.5 + level / 2)
    return est, np.clip(est - z * se, 0, 1), np.clip(est + z * se, 0, 1), se


def pr_pointwise_ci(
    y_true: Any,
    y_score: Any,
    recall: Any,
    *,
    level: float = 0.95,
    method: str = "normal",
    n_resamples: int = 1000,
    rng: Any = None,
    sample_weight: Any = None,
    progress: ProgressHook | None = None,
    pos_label: Any = None,
) -> PointwiseCI:
    """Pointwise confidence intervals for the precision at given recall levels.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and scores (see :func:`prcurve.pr_curve`).
    recall : array-like of shape (m,)
        Recall levels: in (0, 1) for ``"normal"``, in (0, 1] for ``"bootstrap"``.
    level : float
        Confidence level, in (0, 1).
    method : {"normal", "bootstrap"}
        ``"normal"``: PR̂(x) ± z·σ̂(x)/√n with the asymptotic variance σ²(x) (see Notes).
        ``"bootstrap"``: percentile interval of a stratified bootstrap (n₊ positives and n₋
        negatives resampled with replacement).
    n_resamples : int
        Bootstrap replicates.
    rng : None, int or numpy.random.Generator
    sample_weight : array-like of shape (n,), optional
        Weights: counts become weight totals; the bootstrap resamples instances and carries their
        weights; the normal approximation uses weighted kernel densities and Kish's effective
        sample size ``(Σw)²/Σw²`` as n.
    progress : callable, optional
        ``progress(done, total)`` after each block of bootstrap replicates.
    pos_label : optional

    Returns
    -------
    PointwiseCI

    Notes
    -----
    The normal approximation uses the variance of √n (PR̂(x) − PR(x)), n = n₊ + n₋, of
    Clémençon & Vayatis (2009) eq. (9) in the corrected form of Hughes-Oliver (section 3):
    ``σ²(x) = PR⁴/x² · skew(1+skew) · {α²(1+skew) + (f₋/f₊)² x(1−x) skew + α(1−α)}``,
    with plug-ins PR̂(x), α̂(x) = 1 − Ĥ(Ĝ⁻¹(1 − x)), skew = n₋/n₊, and the density ratio
    f₋(t)/f₊(t) at t = Ĝ⁻¹(1 − x) estimated by a Gaussian kernel density of each class with
    Silverman's bandwidth ``0.9 · min(sd, IQR/1.34) · n_c^(−1/5)`` (n_c the class size).  It
    needs at least 5 positives and 2 negatives; the bootstrap needs 2 of each.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import pr_pointwise_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.2
    >>> s = rng.normal(size=2000) + 1.5 * y
    >>> ci = pr_pointwise_ci(y, s, [0.25, 0.5, 0.75])
    >>> np.round(ci.estimate, 3), np.round(ci.interval.low, 3)
    (array([0.777, 0.644, 0.475]), array([0.691, 0.57 , 0.419]))
    >>> boot = pr_pointwise_ci(y, s, [0.5], method="bootstrap", n_resamples=500, rng=1)
    >>> bool(boot.interval.contains(0.644)[0])
    True
    """
    level = check_level(level)
    method = check_choice(method, "method", POINTWISE_METHODS)
    x = check_unit_interval_array(recall, "recall", low_open=True, high_open=method == "normal")
    if x.ndim != 1:
        x = x.reshape(-1)
    progress = check_progress(progress)
    y, s, w = check_binary_problem(y_true, y_score, sample_weight, pos_label)
    n_p = int(np.count_nonzero(y))
    n_n = y.shape[0] - n_p
    if method == "normal":
        require_class_sizes(
            n_p, n_n, min_pos=MIN_POSITIVES_NORMAL, min_neg=2, what="method='normal'"
        )
        est, lo, hi, se = _normal(y, s, w, x, level)
        return PointwiseCI(
            recall=x,
            estimate=est,
            interval=ConfidenceInterval(low=lo, high=hi, level=level),
            standard_error=se,
            level=level,
            method=method,
            n_resamples=None,
            replicates=None,
        )
    n_resamples = check_resamples(n_resamples)
    gen = check_rng(rng)
    require_class_sizes(n_p, n_n, min_pos=2, min_neg=2, what="method='bootstrap'")
    sample = prepare(y, s, w)
    c = sample.counts
    est = functional_precision(c.tp[None, :], c.fp[None, :], np.array([c.n_pos]), x)[0]
    reps = np.concatenate(
        [
            functional_precision(tp, fp, npos, x, fp_prev=fp_prev)
            for tp, fp, fp_prev, npos in bootstrap_curve_blocks(sample, n_resamples, gen, progress)
        ]
    )
    alpha = 1.0 - level
    lo, hi = np.quantile(reps, [alpha / 2, 1 - alpha / 2], axis=0)
    return PointwiseCI(
        recall=x,
        estimate=est,
        interval=ConfidenceInterval(low=lo, high=hi, level=level),
        standard_error=reps.std(axis=0, ddof=1),
        level=level,
        method=method,
        n_resamples=n_resamples,
        replicates=reps,
    )
