"""The result of a bounded accumulator: the curve through its bins, estimates and error bounds.

The bins' edges are exact operating points of the data, so the curve through them
(:attr:`BoundedPRCurve.binned`, each bin read as one tie) is a true, coarser PR curve.  What a
merged bin hides is the order of its positives and negatives; ``prcurve._core._bin_bounds``
turns that into intervals for AP, the DG area and precision, and this result reports their
midpoints as the estimates and their half-widths (plus float64 rounding) as guaranteed bounds.
The proof is in :class:`prcurve.BoundedPRAccumulator` (Notes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._batch import quantile_group
from ._bin_bounds import ap_terms, dg_terms, precision_gap_sup
from ._counts import BinaryCounts
from ._empirical import PRCurve
from ._results import compact_repr
from ._validation import check_choice, check_unit_interval_array

__all__ = ["BOUNDED_AUC_METHODS", "BoundedPRCurve"]

#: The areas a bounded curve bounds.
BOUNDED_AUC_METHODS = ("average_precision", "davis_goadrich")

#: float64 unit roundoff.
_U = 2.0**-53


@compact_repr
@dataclass(frozen=True)
class BoundedPRCurve:
    """A PR curve from a fixed-memory accumulator, with guaranteed bounds on its errors.

    Attributes
    ----------
    binned : PRCurve
        One operating point per bin (thresholds decreasing: each bin's lowest score), the bin
        read as one tie; equal to :func:`prcurve.pr_curve` on all the data when ``exact``.
    score_low, score_high : ndarray
        Each bin's lowest and highest score (equal where a bin is one score), bins from the top.
    exact : bool
        Whether every bin is one distinct score; then every bound is 0 and every value is the
        exact one.
    ap_interval, dg_interval : tuple of float
        Intervals sure to hold the exact average precision and Davis–Goadrich area.
    ap_bound, dg_bound : float
        Most the estimates (:meth:`auc`, the intervals' midpoints) can be off by.
    precision_bound : float
        Most :meth:`precision_at` can be off by, at any recall.
    """

    binned: PRCurve
    score_low: np.ndarray
    score_high: np.ndarray
    exact: bool
    ap_interval: tuple[float, float]
    dg_interval: tuple[float, float]
    ap_bound: float
    dg_bound: float
    precision_bound: float

    @classmethod
    def from_bins(
        cls,
        counts: BinaryCounts,
        *,
        score_high: np.ndarray,
        pos: np.ndarray,
        neg: np.ndarray,
        threshold_rule: str = "ge",
    ) -> BoundedPRCurve:
        """Build from cumulative counts at the bins' lower edges (bins from the top)."""
        binned = PRCurve.from_counts(counts, threshold_rule=threshold_rule)
        one = counts.thresholds == score_high
        if one.all():
            ap = binned.auc("average_precision")
            dg = binned.auc("davis_goadrich")
            low = counts.thresholds
            return cls(binned, low, score_high, True, (ap, ap), (dg, dg), 0.0, 0.0, 0.0)
        n_pos = float(counts.n_pos)
        a, fa = _starts(counts, pos, neg)
        slack = 8.0 * (pos.shape[0] + 8) * _U
        ap_lo, ap_hi = (float(np.sum(v)) / n_pos for v in ap_terms(a, fa, pos, neg, one))
        dg_lo, dg_hi = (float(np.sum(v)) / n_pos for v in dg_terms(a, fa, pos, neg, one))
        gap = precision_gap_sup(a, fa, pos, neg)
        return cls(
            binned=binned,
            score_low=counts.thresholds,
            score_high=score_high,
            exact=False,
            ap_interval=(max(ap_lo - slack, 0.0), min(ap_hi + slack, 1.0)),
            dg_interval=(max(dg_lo - slack, 0.0), min(dg_hi + slack, 1.0)),
            ap_bound=(ap_hi - ap_lo) / 2 + slack,
            dg_bound=(dg_hi - dg_lo) / 2 + slack,
            precision_bound=float(np.max(np.where(one, 0.0, gap))) / 2 + 8 * _U,
        )

    @property
    def n_bins(self) -> int:
        """Number of bins (operating points of :attr:`binned`)."""
        return int(self.binned.tp.shape[0])

    def auc(self, method: str = "average_precision") -> float:
        """Estimate of the exact area: the midpoint of its interval (exact when ``exact``)."""
        lo, hi = self.auc_interval(method)
        return lo if self.exact else (lo + hi) / 2

    def auc_interval(self, method: str = "average_precision") -> tuple[float, float]:
        """An interval sure to contain the exact area by ``method`` on all the data."""
        check_choice(method, "method", BOUNDED_AUC_METHODS)
        return self.ap_interval if method == "average_precision" else self.dg_interval

    def error_bound(self, quantity: str = "average_precision") -> float:
        """Most :meth:`auc` (``"average_precision"``, ``"davis_goadrich"``) or
        :meth:`precision_at` (``"precision"``, at any recall) can differ from the exact value."""
        check_choice(quantity, "quantity", (*BOUNDED_AUC_METHODS, "precision"))
        return {
            "average_precision": self.ap_bound,
            "davis_goadrich": self.dg_bound,
            "precision": self.precision_bound,
        }[quantity]

    def precision_interval(self, recall: Any) -> tuple[np.ndarray | float, np.ndarray | float]:
        """Lower and upper bounds on the exact functional estimator PR̂(β) at recall levels β.

        The exact value is :meth:`prcurve.PRCurve.precision_at` (``ties="interpolate"``) of
        :func:`prcurve.pr_curve` on all the data; in a bin of one score both bounds equal it.
        """
        beta = check_unit_interval_array(recall, "recall", low_open=True, high_open=False)
        flat = np.atleast_1d(beta).ravel()
        exact_value = np.atleast_1d(self.binned.precision_at(flat))
        c = self.binned
        i = quantile_group(c.tp, float(c.n_pos), flat, ties="interpolate")
        t = float(c.n_pos) * flat
        fb = c.fp[i].astype(np.float64)
        fa = np.where(i > 0, c.fp[np.maximum(i - 1, 0)], 0).astype(np.float64)
        merged = self.score_low[i] != self.score_high[i]
        lo = np.where(merged, t / (t + fb), exact_value)
        hi = np.where(merged, t / (t + fa), exact_value)
        if np.ndim(beta) == 0:
            return float(lo[0]), float(hi[0])
        return lo.reshape(np.shape(beta)), hi.reshape(np.shape(beta))

    def precision_at(self, recall: Any) -> np.ndarray | float:
        """Estimate of PR̂(β): the midpoint of :meth:`precision_interval` (exact when ``exact``)."""
        if self.exact:
            return self.binned.precision_at(recall)
        lo, hi = self.precision_interval(recall)
        mid = (np.asarray(lo) + np.asarray(hi)) / 2
        return float(mid) if np.ndim(mid) == 0 else mid


def _starts(counts: BinaryCounts, pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, ...]:
    """Positive and negative mass above each bin (bins from the top), as float64."""
    a = np.asarray(counts.tp, dtype=np.float64) - pos
    fa = np.asarray(counts.fp, dtype=np.float64) - neg
    return a, fa
