"""Expected misclassification cost and Drummond–Holte cost curves, read off the count table.

A scorer used with threshold ``t`` (flag ``score >= t``) has rates FPR(t) and FNR(t) = 1 − TPR(t).
With costs ``c_FP`` (a false positive) and ``c_FN`` (a false negative) and a prevalence π its
expected cost per instance is ``EC = π·c_FN·FNR + (1 − π)·c_FP·FPR``.  Drummond & Holte (2006)
fold the prevalence and the costs into one number, the *probability cost*
``PC(+) = π·c_FN / (π·c_FN + (1 − π)·c_FP)``, and divide EC by its largest value
``π·c_FN + (1 − π)·c_FP`` (flag nothing when PC = 1, everything when PC = 0):
``NEC = FNR·PC(+) + FPR·(1 − PC(+))``.  Every operating point is thus a line over PC ∈ [0, 1],
and the cost curve of the scorer — the cost of the best threshold at each PC — is the lower
envelope of those lines.  The envelope is made of the lines of the ROC convex hull vertices
(ROC points below the hull are never optimal), so it is computed from the hull, not from all
lines: hull vertices j and j + 1 cross at ``PC = ΔFPR / (ΔFPR + ΔTPR)``.

"Flag nothing" (threshold ``+inf``, the ROC origin) is a candidate everywhere, as in Drummond &
Holte: it is the best decision when the costs make every flag too expensive.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._counts import binary_counts
from .._core._hull import upper_hull_indices
from .._core._partial import check_prevalence
from .._core._results import compact_repr
from .._core._validation import check_unit_interval_array

__all__ = ["CostCurve", "ExpectedCost", "cost_curve", "expected_cost", "expected_cost_of_counts"]


def check_cost(value: Any, name: str) -> float:
    """A finite, non-negative misclassification cost."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a non-negative number, got {type(value).__name__}")
    v = float(value)
    if not (np.isfinite(v) and v >= 0):
        raise ValueError(f"{name}: expected a finite non-negative number, got {value!r}")
    return v


def _rates(counts: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds (``+inf`` first: flag nothing), FPR and TPR of every candidate decision."""
    thresholds = np.concatenate([[np.inf], np.asarray(counts.thresholds, dtype=np.float64)])
    fpr = np.concatenate([[0.0], np.divide(counts.fp, counts.n_neg, dtype=np.float64)])
    tpr = np.concatenate([[0.0], np.divide(counts.tp, counts.n_pos, dtype=np.float64)])
    return thresholds, fpr, tpr


@compact_repr
@dataclass(frozen=True)
class ExpectedCost:
    """Expected cost of every threshold at one cost ratio and prevalence, and the best one.

    Arrays have one row per candidate decision: "flag nothing" (threshold ``+inf``) first, then
    one per distinct score, thresholds decreasing (flag ``score >= threshold``).

    Attributes
    ----------
    thresholds, fpr, fnr : ndarray, shape (k + 1,)
        Thresholds (float64) and the rates FP/n₋ and FN/n₊ they give.
    expected_cost : ndarray, shape (k + 1,)
        Cost per instance at the prevalence, ``π·c_FN·FNR + (1 − π)·c_FP·FPR``.
    normalized_cost : ndarray, shape (k + 1,)
        Expected cost divided by ``π·c_FN + (1 − π)·c_FP``: ``FNR·PC + FPR·(1 − PC)`` in [0, 1].
    threshold : float
        The threshold of least expected cost (the highest such threshold when several tie;
        ``+inf``: flag nothing).
    minimum, minimum_normalized : float
        Its expected and normalized expected cost.
    cost_fp, cost_fn, prevalence : float
        The inputs (prevalence: the data's when none was given).
    probability_cost : float
        Drummond & Holte's PC(+) = π·c_FN / (π·c_FN + (1 − π)·c_FP).
    """

    thresholds: np.ndarray
    fpr: np.ndarray
    fnr: np.ndarray
    expected_cost: np.ndarray
    normalized_cost: np.ndarray
    threshold: float
    minimum: float
    minimum_normalized: float
    cost_fp: float
    cost_fn: float
    prevalence: float
    probability_cost: float


def _probability_cost(n_pos: float, n_neg: float, c_fp: float, c_fn: float) -> float:
    """PC(+) = π·c_FN / (π·c_FN + (1 − π)·c_FP), with π = n_pos / (n_pos + n_neg).

    Written as 1 / (1 + r), r = (n_neg / n_pos)·(c_FP / c_FN), with r formed from logarithms:
    the products underflow or overflow for weights and costs near the ends of float64 (a class
    weight of 5e-324 beside 1), where the quotient of the products would be 0/0.  A zero cost
    gives the exact end (0 or 1); both classes and one cost are positive here.
    """
    if c_fn == 0.0:
        return 0.0
    if c_fp == 0.0:
        return 1.0
    log_r = (math.log(n_neg) - math.log(n_pos)) + (math.log(c_fp) - math.log(c_fn))
    if log_r > 709.0:  # exp would overflow: PC(+) below the smallest float
        return 0.0
    return 1.0 / (1.0 + math.exp(log_r))


def expected_cost(
    y_true: Any,
    y_score: Any,
    *,
    cost_fp: float,
    cost_fn: float,
    prevalence: float | None = None,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> ExpectedCost:
    """Expected misclassification cost of every threshold, and the threshold minimising it.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and scores (see :func:`prcurve.pr_curve`); flag ``score >= threshold``.
    cost_fp, cost_fn : float
        Cost of a false positive and of a false negative (non-negative, not both 0).  Only
        their ratio moves the best threshold; the scale is that of ``expected_cost``.
    prevalence : float in (0, 1), optional
        Deployment prevalence π (TPR and FPR are kept, as in :meth:`PRCurve.at_prevalence`);
        the data's (weighted) prevalence by default.
    sample_weight : array-like of shape (n,), optional
    pos_label : optional

    Returns
    -------
    ExpectedCost

    Notes
    -----
    Drummond & Holte (2006), "Cost curves: an improved method for visualizing classifier
    performance", Machine Learning 65: expected cost (their eq. 1 with the true-class
    probabilities), probability cost PC(+) (eq. 2) and normalized expected cost (eq. 3).
    The minimum over thresholds equals the cost curve (:func:`cost_curve`) at PC(+) times
    ``π·c_FN + (1 − π)·c_FP``.

    Examples
    --------
    >>> from prcurve import expected_cost
    >>> ec = expected_cost([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4],
    ...                    cost_fp=1.0, cost_fn=4.0)
    >>> ec.threshold, round(ec.minimum, 4), round(ec.probability_cost, 2)
    (0.6, 0.1667, 0.8)
    """
    c_fp, c_fn = check_cost(cost_fp, "cost_fp"), check_cost(cost_fn, "cost_fn")
    if c_fp == 0 and c_fn == 0:
        raise ValueError("cost_fp and cost_fn: expected at least one positive cost, got both 0")
    pi = None if prevalence is None else check_prevalence(prevalence)
    counts = binary_counts(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    return expected_cost_of_counts(counts, c_fp, c_fn, pi)


def expected_cost_of_counts(
    counts: Any, c_fp: float, c_fn: float, pi: float | None = None
) -> ExpectedCost:
    """:func:`expected_cost` of a count table already had (checked costs; no sort).

    ``counts``: a :class:`~prcurve._core._counts.BinaryCounts` or an unthinned
    :class:`~prcurve.PRCurve` (thresholds, tp, fp, n_pos, n_neg); ``pi`` None: the data's
    prevalence.  The report reads the cost-optimal threshold off its one sorted table this way.
    """
    n_pos, n_neg = float(counts.n_pos), float(counts.n_neg)
    if pi is None:  # both shares from the counts: 1 - π would cancel when n_neg << n_pos
        pos_share, neg_share = n_pos / (n_pos + n_neg), n_neg / (n_pos + n_neg)
    else:
        pos_share, neg_share = pi, 1.0 - pi
        n_pos, n_neg = pi, 1.0 - pi
    thresholds, fpr, tpr = _rates(counts)
    fnr = 1.0 - tpr
    # costs as fractions of the larger one, so that no product or sum overflows
    top = max(c_fp, c_fn)
    a, b = pos_share * (c_fn / top), neg_share * (c_fp / top)
    pc = _probability_cost(n_pos, n_neg, c_fp, c_fn)
    normalized = pc * fnr + (1.0 - pc) * fpr
    cost = (a * fnr + b * fpr) * top
    best = int(np.argmin(cost))  # the first minimum: the highest threshold among ties
    return ExpectedCost(
        thresholds=thresholds,
        fpr=fpr,
        fnr=fnr,
        expected_cost=cost,
        normalized_cost=normalized,
        threshold=float(thresholds[best]),
        minimum=float(cost[best]),
        minimum_normalized=float(normalized[best]),
        cost_fp=c_fp,
        cost_fn=c_fn,
        prevalence=pos_share,
        probability_cost=float(pc),
    )


@compact_repr
@dataclass(frozen=True)
class CostCurve:
    """The Drummond–Holte cost curve: least normalized expected cost against PC(+).

    The curve is piecewise linear; line ``j`` (the decision ``score >= thresholds[j]``, a vertex
    of the ROC convex hull) is the best on ``[probability_cost[j], probability_cost[j + 1]]``.

    Attributes
    ----------
    probability_cost : ndarray, shape (m + 1,)
        Break points, from 0 to 1, increasing.
    normalized_cost : ndarray, shape (m + 1,)
        The curve at the break points.
    thresholds, fpr, fnr : ndarray, shape (m,)
        The optimal decisions between break points (``+inf``: flag nothing), and their rates;
        their lines are ``fpr + (fnr − fpr)·PC``.
    """

    probability_cost: np.ndarray
    normalized_cost: np.ndarray
    thresholds: np.ndarray
    fpr: np.ndarray
    fnr: np.ndarray

    def at(self, probability_cost: Any) -> np.ndarray | float:
        """The least normalized expected cost at PC(+) values in [0, 1] (exact: linear pieces)."""
        pc = check_unit_interval_array(
            probability_cost, "probability_cost", low_open=False, high_open=False
        )
        out = np.interp(pc, self.probability_cost, self.normalized_cost)
        return float(out) if np.ndim(pc) == 0 else out

    def threshold_at(self, probability_cost: Any) -> np.ndarray | float:
        """The threshold of least cost at PC(+) values (at a break point: the higher one)."""
        pc = check_unit_interval_array(
            probability_cost, "probability_cost", low_open=False, high_open=False
        )
        j = np.searchsorted(self.probability_cost[1:-1], pc, side="left")
        out = self.thresholds[j]
        return float(out) if np.ndim(pc) == 0 else out

    def area(self) -> float:
        """Area under the cost curve: the expected least cost with PC(+) uniform on [0, 1]."""
        x, y = self.probability_cost, self.normalized_cost
        return float(np.sum(np.diff(x) * (y[1:] + y[:-1])) / 2)


def cost_curve(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None
) -> CostCurve:
    """The cost curve: least normalized expected cost over all thresholds, for every PC(+).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and scores (see :func:`prcurve.pr_curve`).
    sample_weight : array-like of shape (n,), optional
    pos_label : optional

    Returns
    -------
    CostCurve

    Notes
    -----
    Drummond & Holte (2006), section 3: a ROC point (FPR, TPR) is the line
    ``NEC = FNR·PC + FPR·(1 − PC)`` in cost space, and the lower envelope of the lines is the
    dual of the ROC convex hull.  Adjacent hull vertices (with "flag nothing", the origin) cross
    at ``PC = ΔFPR/(ΔFPR + ΔTPR)``; a vertex optimal only at a single PC (a vertical first or
    horizontal last hull edge) is left out.

    Examples
    --------
    >>> from prcurve import cost_curve
    >>> cc = cost_curve([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> cc.probability_cost.round(3).tolist(), cc.thresholds.tolist()
    ([0.0, 0.333, 1.0], [0.9, 0.6])
    >>> round(cc.at(0.5), 4), cc.threshold_at(0.5)
    (0.1667, 0.6)
    """
    counts = binary_counts(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    thresholds, fpr, tpr = _rates(counts)
    vertices = np.concatenate([[0], upper_hull_indices(counts.fp, counts.tp) + 1])
    f, t = fpr[vertices], tpr[vertices]
    d_f, d_t = np.diff(f), np.diff(t)
    cross = d_f / (d_f + d_t)  # hull edges have d_f + d_t > 0 (distinct vertices)
    breaks = np.concatenate([[0.0], cross, [1.0]])
    keep = breaks[1:] > breaks[:-1]
    vertices, f, t = vertices[keep], f[keep], t[keep]
    breaks = np.concatenate([breaks[:-1][keep], [1.0]])
    fnr = 1.0 - t
    value = np.empty(breaks.shape[0])
    value[:-1] = f + (fnr - f) * breaks[:-1]
    value[-1] = fnr[-1]
    return CostCurve(
        probability_cost=breaks,
        normalized_cost=value,
        thresholds=thresholds[vertices],
        fpr=f,
        fnr=fnr,
    )
