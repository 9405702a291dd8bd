"""The one counting engine: scores and labels -> cumulative TP/FP at the distinct thresholds.

Every curve in prcurve (PR, ROC, PRG, achievable, functional estimator, bootstrap) is derived
from a :class:`BinaryCounts`; nothing else sorts scores.

Speed
-----
Unweighted data take a path without ``argsort``: the scores of each class are gathered with
``np.compress`` and sorted with ``np.sort`` (SIMD-accelerated in NumPy >= 2), and the two sorted
runs are merged with ``searchsorted`` (few positives) or a stable merge of the two runs.  Counts
are int64, so they stay exact far beyond 2**24 instances whatever the score dtype.  Weighted data
use one ``argsort`` and float64 cumulative sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._validation import check_binary_problem

__all__ = ["BinaryCounts", "binary_counts", "count_sorted"]


@dataclass(frozen=True)
class BinaryCounts:
    """Cumulative counts at every distinct threshold, thresholds decreasing.

    Attributes
    ----------
    thresholds : ndarray, shape (k,)
        Distinct scores, strictly decreasing.
    tp, fp : ndarray, shape (k,)
        Number (or total weight) of positives / negatives with ``score >= thresholds[i]``.
        int64 when unweighted, float64 when weighted.
    n_pos, n_neg : int or float
        Total number (weight) of positives and negatives.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: float
    n_neg: float

    @property
    def weighted(self) -> bool:
        """Whether the counts are sample weights (float) rather than integers."""
        return self.tp.dtype.kind == "f"


def binary_counts(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None
) -> BinaryCounts:
    """Validate and count: the public entry point of the engine."""
    y, s, w = check_binary_problem(y_true, y_score, sample_weight, pos_label)
    return count_sorted(y, s, w)


def count_sorted(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> BinaryCounts:
    """Count validated arrays (``y`` boolean, ``s`` finite scores, ``w`` positive or None)."""
    if w is None:
        return _count_unweighted(y, s)
    return _count_weighted(y, s, w)


def _count_unweighted(y: np.ndarray, s: np.ndarray) -> BinaryCounts:
    n = s.shape[0]
    pos = np.sort(np.compress(y, s))
    neg = np.sort(np.compress(~y, s))
    n_pos, n_neg = pos.shape[0], neg.shape[0]
    neg_starts, pos_starts = _run_starts(neg), _run_starts(pos)
    if 4 * (np.count_nonzero(neg_starts) + np.count_nonzero(pos_starts)) < n:
        # heavy ties: count the few distinct values, weighted by their multiplicities
        u_neg, c_neg = _runs(neg, neg_starts)
        u_pos, c_pos = _runs(pos, pos_starts)
        small = _count_weighted(
            np.concatenate([np.zeros(u_neg.shape[0], bool), np.ones(u_pos.shape[0], bool)]),
            np.concatenate([u_neg, u_pos]),
            np.concatenate([c_neg, c_pos]).astype(np.float64),
        )
        return BinaryCounts(
            small.thresholds, small.tp.astype(np.int64), small.fp.astype(np.int64), n_pos, n_neg
        )
    values, is_pos = _merge_sorted(neg, pos)
    # ascending order: group starts where the value changes
    change = np.empty(n, dtype=bool)
    change[0] = True
    np.not_equal(values[1:], values[:-1], out=change[1:])
    below = np.empty(n + 1, dtype=np.int64)
    below[0] = 0
    np.cumsum(is_pos, out=below[1:])
    if change.all():  # no ties: every position starts a group, skip the gathers
        tp_desc = n_pos - below[n - 1 :: -1]
        fp_desc = np.arange(1, n + 1, dtype=np.int64) - tp_desc
        return BinaryCounts(values[::-1].copy(), tp_desc, fp_desc, n_pos, n_neg)
    starts = np.flatnonzero(change)[::-1]
    tp_desc = n_pos - below[starts]
    fp_desc = (n - starts) - tp_desc
    return BinaryCounts(values[starts], tp_desc, fp_desc, n_pos, n_neg)


def _run_starts(sorted_values: np.ndarray) -> np.ndarray:
    """Mask of the first element of each run of equal values in a sorted array."""
    change = np.empty(sorted_values.shape[0], dtype=bool)
    if sorted_values.shape[0]:
        change[0] = True
        np.not_equal(sorted_values[1:], sorted_values[:-1], out=change[1:])
    return change


def _runs(sorted_values: np.ndarray, change: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of a sorted array and their multiplicities."""
    start = np.flatnonzero(change)
    return sorted_values[start], np.diff(start, append=sorted_values.shape[0])


def _merge_sorted(neg: np.ndarray, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge two ascending runs; return the merged values and an is-positive mask."""
    n_neg, n_pos = neg.shape[0], pos.shape[0]
    n = n_neg + n_pos
    if n_pos == 0 or n_neg == 0:
        values = pos if n_neg == 0 else neg
        return values, np.full(n, n_neg == 0)
    small, large = (pos, neg) if n_pos <= n_neg else (neg, pos)
    if small.shape[0] * 8 <= n:
        # few of one class: binary-search their places among the others
        at = np.searchsorted(large, small, side="left")
        at += np.arange(small.shape[0])
        in_small = np.zeros(n, dtype=bool)
        in_small[at] = True
        values = np.empty(n, dtype=np.result_type(neg, pos))
        values[at] = small
        values[~in_small] = large
        is_pos = in_small if small is pos else ~in_small
        return values, is_pos
    both = np.concatenate([neg, pos])
    order = np.argsort(both, kind="stable")  # timsort: one linear merge of two runs
    return both[order], order >= n_neg


def _count_weighted(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> BinaryCounts:
    order = np.argsort(s, kind="stable")[::-1]
    values = s[order]
    wy = w[order]
    posw = np.where(y[order], wy, 0.0)
    negw = wy - posw
    n = values.shape[0]
    last = np.empty(n, dtype=bool)
    last[-1] = True
    np.not_equal(values[1:], values[:-1], out=last[:-1])
    ends = np.flatnonzero(last)
    tp = np.cumsum(posw)[ends]
    fp = np.cumsum(negw)[ends]
    return BinaryCounts(
        thresholds=values[ends],
        tp=tp,
        fp=fp,
        n_pos=float(tp[-1]),
        n_neg=float(fp[-1]),
    )
