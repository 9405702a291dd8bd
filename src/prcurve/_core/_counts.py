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

Soft labels
-----------
When each label is a probability ``p`` of being positive (PRROC's weighted curves, Keilwagen,
Grosse & Grau 2014), an instance of weight ``w`` adds ``p·w`` to the positive mass and
``(1 − p)·w`` to the negative mass of its score; the weighted path then counts these masses.
No row is duplicated, and a hard label (0 or 1) adds exactly what the weighted path adds, so
splitting an instance into a positive of weight ``p·w`` and a negative of weight ``(1 − p)·w``
gives the same counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._results import compact_repr
from ._validation import check_binary_problem

__all__ = ["BinaryCounts", "binary_counts", "count_sorted"]


@compact_repr
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
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    soft_labels: bool = False,
) -> BinaryCounts:
    """Validate and count: the public entry point of the engine.

    With ``soft_labels=True``, ``y_true`` holds the probability of each instance being
    positive (see the module's notes); labels that are all 0 or 1 give the ordinary counts.
    """
    y, s, w = check_binary_problem(
        y_true, y_score, sample_weight, pos_label, soft_labels=soft_labels
    )
    return count_sorted(y, s, w)


def count_sorted(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> BinaryCounts:
    """Count validated arrays (``s`` finite scores, ``w`` positive or None).

    ``y`` is boolean (hard labels), or float64 probabilities of being positive (soft labels).
    """
    if y.dtype.kind == "f":
        pos = y if w is None else y * w
        neg = 1.0 - y if w is None else (1.0 - y) * w
        return _count_masses(s, pos, neg)
    if w is None:
        return _count_unweighted(y, s)
    return _count_weighted(y, s, w)


def _count_unweighted(y: np.ndarray, s: np.ndarray) -> BinaryCounts:
    n = s.shape[0]
    n_pos = int(np.count_nonzero(y))
    n_neg = n - n_pos
    if 8 * min(n_pos, n_neg) <= n:
        return _count_imbalanced(y, s, n_pos, n_neg)
    pos = np.compress(y, s)
    pos.sort()
    neg = np.compress(~y, s)
    neg.sort()
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
    # balanced classes, few ties: merge the two sorted runs (timsort does one linear merge)
    both = np.concatenate([neg, pos])
    order = np.argsort(both, kind="stable")
    values = both[order]
    is_pos = order >= n_neg
    below = np.empty(n + 1, dtype=np.int64)
    below[0] = 0
    np.cumsum(is_pos, out=below[1:])
    return _from_groups(values, _run_starts(values), below, n_pos, n_neg, minority_is_pos=True)


def _count_imbalanced(y: np.ndarray, s: np.ndarray, n_pos: int, n_neg: int) -> BinaryCounts:
    """One sort of all scores; the few minority-class scores are placed by binary search."""
    values = np.sort(s)
    minority_is_pos = n_pos <= n_neg
    minority = np.compress(y if minority_is_pos else ~y, s)
    minority.sort()
    starts = _run_starts(values)
    # position of the first score equal to each minority score = the start of its group
    at = np.searchsorted(values, minority, side="left")
    n = values.shape[0]
    if starts.all():
        # no ties: mark the minority positions and count them from the top, straight into the
        # output array (no intermediate n-sized arrays: fresh memory costs page faults)
        # mark the minority positions in descending order, contiguously (a cumulative sum over
        # a reversed view is several times slower)
        mark = np.zeros(n, dtype=bool)
        mark[(n - 1) - at] = True
        tracked = np.cumsum(mark, dtype=np.int64)
        others = np.cumsum(np.logical_not(mark, out=mark), dtype=np.int64)
        tp, fp = (tracked, others) if minority_is_pos else (others, tracked)
        return BinaryCounts(values[::-1], tp, fp, n_pos, n_neg)
    first = np.flatnonzero(starts)
    group = np.searchsorted(first, at)
    below = np.empty(first.shape[0] + 1, dtype=np.int64)
    below[0] = 0
    np.cumsum(np.bincount(group, minlength=first.shape[0]), out=below[1:])
    return _from_groups(values, starts, below, n_pos, n_neg, minority_is_pos, per_group=True)


def _from_groups(
    values: np.ndarray,
    starts: np.ndarray,
    below: np.ndarray,
    n_pos: int,
    n_neg: int,
    minority_is_pos: bool,
    per_group: bool = False,
) -> BinaryCounts:
    """Counts at distinct thresholds from ascending values.

    ``starts`` marks the first element of each run of equal values.  ``below[i]`` counts the
    tracked class (positives, or the minority class) strictly before position ``i`` of
    ``values`` -- or, with ``per_group``, strictly before group ``i``.
    """
    n = values.shape[0]
    tracked_total = n_pos if minority_is_pos else n_neg
    if starts.all():  # no ties: skip the gathers
        tracked = tracked_total - below[n - 1 :: -1]
        others = np.arange(1, n + 1, dtype=np.int64)
        others -= tracked
        thresholds = values[::-1]
    else:
        first = np.flatnonzero(starts)[::-1]
        tracked = tracked_total - (below[first.shape[0] - 1 :: -1] if per_group else below[first])
        others = (n - first) - tracked
        thresholds = values[first]
    tp, fp = (tracked, others) if minority_is_pos else (others, tracked)
    return BinaryCounts(thresholds, tp, fp, n_pos, n_neg)


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


def _count_weighted(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> BinaryCounts:
    posw = np.where(y, w, 0.0)
    return _count_masses(s, posw, w - posw)


def _count_masses(s: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> BinaryCounts:
    """Cumulative positive and negative masses (float64) at the distinct scores."""
    order = np.argsort(s, kind="stable")[::-1]
    values = s[order]
    posw = pos[order]
    negw = neg[order]
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
