"""The ranking read by depth: expected counts in the top ``d`` rows, ties in random order.

A budget "the top k rows" splits a group of tied scores whenever the k-th row is tied with the
(k+1)-th: which of the tied rows are flagged is then not decided by the scores.  prcurve reports
the **expectation under a uniformly random order of the tied rows** (every order of each tied
group equally likely, independently across groups).

Why the expectation is a linear interpolation
---------------------------------------------
Let the rows above a tied group ``g`` number ``R_{g-1}``, with cumulative (weighted) positives
``TP_{g-1}``; the group has ``s`` rows and positive weight ``P_g``.  At depth
``d = R_{g-1} + m`` (``0 <= m <= s``) the top ``d`` rows hold every row above the group and the
first ``m`` rows of the group in a random order.  Each row of the group is among those ``m`` with
probability ``m/s`` (by symmetry, whatever its weight), so by linearity of expectation

    E[TP(d)] = TP_{g-1} + (m/s) · P_g ,

the linear interpolation of the cumulative counts against the cumulative number of rows.  The
same holds for the negatives and for the total weight flagged.  It holds for a fractional ``m``
too if the row straddling the depth is counted by its share (the convention for fractions of the
data, which keeps lift and gain continuous in the depth).

Rows, not weight
----------------
Depth counts rows (of positive weight: rows of zero weight are removed, as everywhere in
prcurve); sample weights weight what the rows hold.  Every quantity comes from the count table
of :mod:`prcurve._core` (thresholds, TP, FP).  With weights that table holds weights, not rows,
so the number of rows of each group comes from the engine's unweighted count of the same scores
(the same distinct thresholds): its ``np.sort`` path costs about a tenth of the weighted
``argsort`` (45 ms against 390 ms at 10^6 rows), where a binary search of every score among the
thresholds cost 500 ms.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._counts import BinaryCounts, count_sorted
from .._core._validation import check_binary_problem

__all__ = ["Ranking", "check_depth", "ranking"]


@dataclass(frozen=True)
class Ranking:
    """The count table with the number of rows flagged at each threshold.

    Attributes
    ----------
    counts : BinaryCounts
        Thresholds decreasing, cumulative TP/FP (weights when weighted).
    rows : ndarray of int64, shape (G,)
        Cumulative number of rows with ``score >= thresholds[i]``.
    score, weight, positive : ndarray, shape (n,) or None
        With weights (and ``keep_rows``): the validated score, (rescaled) weight and label of
        every row, for :meth:`groups_of_top`; None unweighted.
    """

    counts: BinaryCounts
    rows: np.ndarray
    score: np.ndarray | None = None
    weight: np.ndarray | None = None
    positive: np.ndarray | None = None

    @property
    def n_rows(self) -> int:
        """Number of rows ranked (rows of positive weight)."""
        return int(self.rows[-1])

    def expected(self, depth: Any) -> tuple[np.ndarray, np.ndarray]:
        """Expected (weighted) TP and FP in the top ``depth`` rows (depth in [0, n], real).

        The linear interpolation of the cumulative counts against the cumulative rows (see the
        module docstring for why that is the expectation over random orders of tied rows).
        """
        r = np.concatenate([[0.0], self.rows.astype(np.float64)])
        tp = np.concatenate([[0.0], np.asarray(self.counts.tp, dtype=np.float64)])
        fp = np.concatenate([[0.0], np.asarray(self.counts.fp, dtype=np.float64)])
        return np.interp(depth, r, tp), np.interp(depth, r, fp)

    def groups_of_top(self, n_groups: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Group index, weight and label of the rows in the first ``n_groups`` tie groups.

        A binary search among the thresholds, only for those rows (weighted data only).
        """
        assert self.score is not None and self.weight is not None and self.positive is not None
        thresholds = self.counts.thresholds
        mine = self.score >= thresholds[n_groups - 1]
        ascending = thresholds[n_groups - 1 :: -1]
        group = (n_groups - 1) - np.searchsorted(ascending, self.score[mine], side="left")
        return group, self.weight[mine], self.positive[mine]


def ranking(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, keep_rows: bool = False
) -> Ranking:
    """Validate, count once, and count the rows of every tie group.

    ``keep_rows=True`` (weighted data only) keeps each row's group, weight and label, which the
    expectation of AP@k needs.
    """
    y, s, w = check_binary_problem(y_true, y_score, sample_weight)
    counts = count_sorted(y, s, w)
    if w is None:  # rows flagged = TP + FP exactly
        return Ranking(counts, np.add(counts.tp, counts.fp, dtype=np.int64))
    by_rows = count_sorted(y, s)  # the same scores: the same distinct thresholds
    rows = np.add(by_rows.tp, by_rows.fp, dtype=np.int64)
    if keep_rows:
        return Ranking(counts, rows, s, w, y)
    return Ranking(counts, rows)


def check_depth(k: Any, n_rows: int, *, allow_fraction: bool = True) -> float:
    """The depth in rows asked for by ``k``: an int number of rows or a fraction in (0, 1).

    A fraction ``x`` gives the depth ``x·n`` rows, which need not be whole.
    """
    fraction = " or a fraction of the rows in (0, 1)" if allow_fraction else ""
    expected = f"an integer number of rows in [1, {n_rows}]{fraction}"
    if isinstance(k, bool) or not isinstance(k, numbers.Real):
        raise TypeError(f"k: expected {expected}, got {type(k).__name__} {k!r}")
    if isinstance(k, numbers.Integral):
        rows = int(k)
        if not 1 <= rows <= n_rows:
            raise ValueError(f"k: expected {expected}, got {k!r}")
        return float(rows)
    value = float(k)
    if not allow_fraction or not (0.0 < value < 1.0):
        raise ValueError(f"k: expected {expected}, got {k!r}")
    return value * n_rows
