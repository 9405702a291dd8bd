"""DeLong's variance of the ROC AUC: its interval, and the paired test of two scorers.

DeLong, DeLong & Clarke-Pearson (1988) write the AUC (the Mann–Whitney statistic, ties counting
one half) as the mean of *placement values*: a positive's ``V10`` is the share of negatives it
out-scores (ties ½), a negative's ``V01`` the share of positives that out-score it.  Their
variance estimate is

    Var(AUC) = S10 / n₊ + S01 / n₋,

with ``S10``, ``S01`` the sample variances (divisor ``n − 1``) of the placement values of each
class.  Sun & Xu (2014) showed that the placements are midranks: ``n₋·V10`` is a positive's
midrank among all scores minus its midrank among the positives, which makes the method
O(n log n).  With the sorted counts in hand this is simpler still: every instance of the
threshold group ``g`` (scores tied at ``t_g``) has the same placement,

    V10_g = 1 − (FP_{g−1} + FP_g) / (2 n₋),     V01_g = (TP_{g−1} + TP_g) / (2 n₊),

and group ``g`` holds ``TP_g − TP_{g−1}`` positives and ``FP_g − FP_{g−1}`` negatives, so one
AUC's variance is a weighted sum over the groups (no per-instance work at all).  The paired test
of two scorers on the same instances needs the covariance of the two scorers' placements, so it
reads each instance's group under each scorer (one argsort per scorer, its ranks scattered back:
a binary search of every instance among the thresholds is several times slower); the
variance of the difference is computed from the per-instance *differences* of placements, so
that two scorers that rank identically get exactly zero.

This is the method of pROC (``ci.auc(method="delong")``, ``var(method="delong")`` and
``roc.test(method="delong", paired=TRUE)``): the interval is ``AUC ± z·SE`` clipped to [0, 1],
the test statistic ``(AUC_a − AUC_b) / SE(difference)`` referred to the standard normal.

DeLong's estimator is defined for unweighted instances; ``sample_weight`` is refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import ndtr, ndtri

from .._core._blocks import count_blocks
from .._core._counts import BinaryCounts, count_sorted
from .._core._results import ConfidenceInterval, PRCurveWarning, compact_repr
from .._core._validation import check_binary_problem, check_choice, check_level
from ._resample import require_class_sizes

__all__ = [
    "ALTERNATIVES",
    "DeLongAUC",
    "DeLongTest",
    "DegenerateVarianceWarning",
    "delong_test",
    "group_placements",
    "instance_groups",
    "roc_auc_delong",
    "roc_auc_delong_from_counts",
]

#: Alternative hypotheses of :func:`delong_test` (about ``AUC_a − AUC_b``).
ALTERNATIVES = ("two-sided", "greater", "less")


class DegenerateVarianceWarning(PRCurveWarning):
    """DeLong's variance estimate is zero (for one AUC: perfectly separated or constant scores;
    for a difference: the two scorers' placements differ by constants), so the interval has no
    width and the test statistic is set by convention."""


@compact_repr
@dataclass(frozen=True)
class DeLongAUC:
    """ROC AUC with DeLong's standard error and normal interval.

    Attributes
    ----------
    auc : float
        Area under the empirical ROC curve (Mann–Whitney, ties ½).
    standard_error : float
        Square root of :attr:`variance`.
    variance : float
        DeLong's estimate ``S10/n₊ + S01/n₋`` (pROC's ``var(roc, method="delong")``).
    ci : ConfidenceInterval
        ``auc ± z·standard_error``, clipped to [0, 1].
    n_pos, n_neg : int
    """

    auc: float
    standard_error: float
    variance: float
    ci: ConfidenceInterval
    n_pos: int
    n_neg: int


@compact_repr
@dataclass(frozen=True)
class DeLongTest:
    """Paired DeLong test of two scorers' ROC AUCs on the same instances.

    Attributes
    ----------
    auc_a, auc_b : float
    difference : float
        ``auc_a − auc_b``.
    standard_error : float
        DeLong's standard error of the difference (covariance of the paired placements included).
    statistic : float
        ``difference / standard_error`` (0 when both are 0, ±inf when only the error is 0).
    p_value : float
        From the standard normal, for :attr:`alternative`.
    ci : ConfidenceInterval
        Two-sided interval ``difference ± z·standard_error`` at :attr:`level`.
    correlation : float
        Estimated correlation of the two AUCs (NaN-free: 0 when a variance is 0).
    alternative : str
        ``"two-sided"``, ``"greater"`` (``auc_a > auc_b``) or ``"less"``.
    n_pos, n_neg : int
    """

    auc_a: float
    auc_b: float
    difference: float
    standard_error: float
    statistic: float
    p_value: float
    ci: ConfidenceInterval
    correlation: float
    alternative: str
    n_pos: int
    n_neg: int


def _refuse_weights(sample_weight: Any) -> None:
    if sample_weight is not None:
        raise ValueError(
            "sample_weight: expected None (DeLong's variance is defined for unweighted "
            "instances), got weights"
        )


def group_placements(counts: BinaryCounts) -> tuple[np.ndarray, np.ndarray, float]:
    """Placement values ``V10_g``, ``V01_g`` of each threshold group, and the AUC.

    ``V10_g`` is the placement of a positive scored ``thresholds[g]``, ``V01_g`` that of a
    negative (see the module docstring).  Unweighted counts only.
    """
    tp = np.asarray(counts.tp, dtype=np.float64)
    fp = np.asarray(counts.fp, dtype=np.float64)
    n_pos, n_neg = float(counts.n_pos), float(counts.n_neg)
    tp_prev = np.concatenate([[0.0], tp[:-1]])
    fp_prev = np.concatenate([[0.0], fp[:-1]])
    v10 = 1.0 - (fp_prev + fp) / (2 * n_neg)
    v01 = (tp_prev + tp) / (2 * n_pos)
    auc = float(np.dot(tp - tp_prev, v10) / n_pos)
    return v10, v01, auc


def instance_groups(s: np.ndarray) -> np.ndarray:
    """Index of each instance's threshold group (thresholds decreasing, as in the counts).

    Ties share a group, so the sort need not be stable.
    """
    order = np.argsort(s)
    values = s[order]
    starts = np.empty(values.shape[0], dtype=bool)
    starts[0] = True
    np.not_equal(values[1:], values[:-1], out=starts[1:])
    ascending = np.cumsum(starts, dtype=np.intp)  # 1-based group index, ascending scores
    groups = np.empty(values.shape[0], dtype=np.intp)
    groups[order] = ascending[-1] - ascending
    return groups


def _variance(counts: BinaryCounts) -> tuple[float, float]:
    """AUC and DeLong's variance, summed over threshold groups weighted by their sizes.

    The placements of :func:`group_placements`, computed block by block in two passes (the AUC,
    then the squared deviations from it): a few megabytes of temporaries instead of a dozen
    arrays of the curve's length.
    """
    n_pos, n_neg = float(counts.n_pos), float(counts.n_neg)
    area = 0.0
    for tp_prev, fp_prev, tp, fp in count_blocks(counts.tp, counts.fp):
        area += float(np.dot(tp - tp_prev, 1.0 - (fp_prev + fp) / (2 * n_neg)))
    auc = area / n_pos
    s10 = s01 = 0.0
    for tp_prev, fp_prev, tp, fp in count_blocks(counts.tp, counts.fp):
        v10 = 1.0 - (fp_prev + fp) / (2 * n_neg)
        v01 = (tp_prev + tp) / (2 * n_pos)
        s10 += float(np.dot(tp - tp_prev, (v10 - auc) ** 2))
        s01 += float(np.dot(fp - fp_prev, (v01 - auc) ** 2))
    return auc, s10 / (n_pos - 1) / n_pos + s01 / (n_neg - 1) / n_neg


def _warn_degenerate(what: str, stacklevel: int = 3) -> None:
    import warnings

    warnings.warn(
        f"DeLong's variance of {what} is 0 on these data; the interval has zero width",
        DegenerateVarianceWarning,
        stacklevel=stacklevel,
    )


def roc_auc_delong(
    y_true: Any,
    y_score: Any,
    *,
    level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> DeLongAUC:
    """ROC AUC with DeLong's standard error and confidence interval (Sun & Xu's fast algorithm).

    Parameters
    ----------
    y_true, y_score, pos_label
        As for :func:`prcurve.roc_curve`; at least 2 positives and 2 negatives.
    level : float, default 0.95
        Confidence level of the interval.
    sample_weight : None
        Refused: DeLong's variance is defined for unweighted instances.

    Returns
    -------
    DeLongAUC

    Notes
    -----
    The normal interval under-covers for few positives or an AUC near 1 (see
    ``bench/coverage_delong.py``); a :class:`DegenerateVarianceWarning` flags a zero variance.

    Examples
    --------
    >>> from prcurve import roc_auc_delong
    >>> res = roc_auc_delong([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.3])
    >>> round(res.auc, 4), round(res.standard_error, 4)
    (0.7778, 0.2485)
    """
    level = check_level(level)
    _refuse_weights(sample_weight)
    y, s, _ = check_binary_problem(y_true, y_score, None, pos_label)
    return _delong_auc(count_sorted(y, s), level)


def roc_auc_delong_from_counts(counts: BinaryCounts, *, level: float = 0.95) -> DeLongAUC:
    """:func:`roc_auc_delong` from the engine's sorted counts (any engine: memory, Dask, Spark).

    DeLong's variance depends only on the number of positives and negatives at each distinct
    score (every instance of a tie group has the same placement), so the counts suffice and
    this equals :func:`roc_auc_delong` on the rows they were made from.

    Parameters
    ----------
    counts : BinaryCounts
        Unweighted counts (:func:`prcurve.binary_counts` without weights), at least 2 positives
        and 2 negatives.
    level : float, default 0.95

    Examples
    --------
    >>> from prcurve import binary_counts, roc_auc_delong_from_counts
    >>> counts = binary_counts([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.3])
    >>> round(roc_auc_delong_from_counts(counts).standard_error, 4)
    0.2485
    """
    level = check_level(level)
    if not isinstance(counts, BinaryCounts):
        raise TypeError(
            f"counts: expected a prcurve.BinaryCounts (from prcurve.binary_counts or an "
            f"engine), got {type(counts).__name__}"
        )
    if counts.weighted:
        raise ValueError(
            "counts: expected unweighted counts (DeLong's variance is defined for unweighted "
            "instances), got weighted counts"
        )
    if counts.n_pos < 2 or counts.n_neg < 2:
        raise ValueError(
            f"counts: DeLong's variance needs at least 2 positives and 2 negatives, got "
            f"{counts.n_pos} positive(s) and {counts.n_neg} negative(s)"
        )
    return _delong_auc(counts, level)


def _delong_auc(counts: BinaryCounts, level: float) -> DeLongAUC:
    """The AUC, its DeLong variance and interval from unweighted counts."""
    n_pos, n_neg = int(counts.n_pos), int(counts.n_neg)
    require_class_sizes(n_pos, n_neg, min_pos=2, min_neg=2, what="DeLong's variance")
    auc, var = _variance(counts)
    if var <= 0:
        _warn_degenerate("the AUC", stacklevel=4)
    se = math.sqrt(max(var, 0.0))
    z = float(ndtri(0.5 + level / 2))
    ci = ConfidenceInterval(max(auc - z * se, 0.0), min(auc + z * se, 1.0), level)
    return DeLongAUC(auc, se, var, ci, n_pos, n_neg)


def delong_test(
    y_true: Any,
    score_a: Any,
    score_b: Any,
    *,
    level: float = 0.95,
    alternative: str = "two-sided",
    sample_weight: Any = None,
    pos_label: Any = None,
) -> DeLongTest:
    """Paired DeLong test of ``AUC_a = AUC_b`` for two scorers on the same labelled instances.

    Parameters
    ----------
    y_true, pos_label
        As for :func:`prcurve.roc_curve`; at least 2 positives and 2 negatives.
    score_a, score_b : array-like of shape (n,)
        The two scorers' scores for the same instances, in the same order.
    level : float, default 0.95
        Confidence level of the interval of the difference.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: AUC_a > AUC_b.  The interval is two-sided whatever the alternative.
    sample_weight : None
        Refused: DeLong's variance is defined for unweighted instances.

    Returns
    -------
    DeLongTest

    Examples
    --------
    >>> from prcurve import delong_test
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> res = delong_test(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.3], [0.1, 0.2, 0.35, 0.8, 0.25, 0.3])
    >>> round(res.difference, 4), round(res.p_value, 4)
    (-0.2222, 0.3711)
    """
    level = check_level(level)
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    _refuse_weights(sample_weight)
    y, sa, _ = check_binary_problem(y_true, score_a, None, pos_label, score_name="score_a")
    _, sb, _ = check_binary_problem(y_true, score_b, None, pos_label, score_name="score_b")
    n_pos = int(np.count_nonzero(y))
    n_neg = int(y.shape[0]) - n_pos
    require_class_sizes(n_pos, n_neg, min_pos=2, min_neg=2, what="the DeLong test")
    v10a, v01a, auc_a = group_placements(count_sorted(y, sa))
    v10b, v01b, auc_b = group_placements(count_sorted(y, sb))
    # per-instance placements of each scorer, paired by instance
    ga, gb = instance_groups(sa), instance_groups(sb)
    pa, pb = v10a[ga[y]], v10b[gb[y]]
    na, nb = v01a[ga[~y]], v01b[gb[~y]]
    cov10 = np.cov(pa, pb)  # divisor n − 1, as DeLong's S10
    cov01 = np.cov(na, nb)
    var_a = cov10[0, 0] / n_pos + cov01[0, 0] / n_neg
    var_b = cov10[1, 1] / n_pos + cov01[1, 1] / n_neg
    var_d = float(np.var(pa - pb, ddof=1) / n_pos + np.var(na - nb, ddof=1) / n_neg)
    cov_ab = (var_a + var_b - var_d) / 2
    corr = float(cov_ab / math.sqrt(var_a * var_b)) if var_a > 0 and var_b > 0 else 0.0
    diff = auc_a - auc_b
    se = math.sqrt(max(var_d, 0.0))
    if se > 0:
        stat = diff / se
    else:
        _warn_degenerate("the AUC difference")
        stat = 0.0 if diff == 0 else math.copysign(math.inf, diff)
    if alternative == "two-sided":
        p = float(2 * ndtr(-abs(stat)))
    elif alternative == "greater":
        p = float(ndtr(-stat))
    else:
        p = float(ndtr(stat))
    z = float(ndtri(0.5 + level / 2))
    ci = ConfidenceInterval(diff - z * se, diff + z * se, level)
    return DeLongTest(
        auc_a, auc_b, diff, se, stat, min(p, 1.0), ci, corr, alternative, n_pos, n_neg
    )
