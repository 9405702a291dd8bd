"""A mergeable accumulator of labelled scores in fixed memory, with a proven error bound.

The state is at most ``max_bins`` *bins*: disjoint, sorted score ranges ``[low, high]``, each
with the positive and the negative mass of the scores in it.  While the distinct scores fit,
every bin is one distinct score and the state is the exact one of
:class:`~prcurve._core._accumulator.PRAccumulator`.  When they do not, adjacent bins are merged
-- first those whose merge widens the error bound least (see :func:`_shrink`) -- and the result
(:class:`~prcurve._core._bounded_curve.BoundedPRCurve`) states, from the masses in each bin,
how far AP, the Davis–Goadrich area and the precision at any recall can be from their exact
values on all the data.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ._accumulator import _collapse
from ._bin_bounds import merge_costs
from ._bounded_curve import BoundedPRCurve
from ._counts import BinaryCounts
from ._validation import check_binary_problem, check_positive_int

__all__ = ["BoundedPRAccumulator"]

#: Bytes of state per bin: its lowest and highest score and its two masses (8 bytes each).
BYTES_PER_BIN = 32


class BoundedPRAccumulator:
    """Mergeable PR state of at most ``max_bins`` bins, exact until the distinct scores overflow.

    Parameters
    ----------
    max_bins : int, default 4096
        Most bins kept (``32 * max_bins`` bytes of state, whatever the number of rows).

    Feed batches with :meth:`update`, fold in accumulators built elsewhere with :meth:`merge`
    (both in place, returning the accumulator), or build a new one with :meth:`combine`; any
    order and any tree of merges is allowed.  :meth:`curve` returns a
    :class:`~prcurve.BoundedPRCurve`: the curve through the bins' edges, the estimates of AP,
    the DG area and precision, and a guaranteed bound on each one's error.

    Notes
    -----
    **Exactness.**  A distinct score is never split between bins (a batch's score falling in a
    bin's range joins it; overlapping ranges of two merged accumulators are united).  While
    every bin is one score, the bins are exactly :class:`prcurve.PRAccumulator`'s state and the
    curve equals :func:`prcurve.pr_curve` on all the data (bit for bit for unweighted counts);
    the bounds are then 0.

    **The bound.**  Take a bin with positive mass ``p`` and negative mass ``q``, and ``a``,
    ``F_A`` the positive and negative mass at higher scores; let ``F_B = F_A + q``.  The exact
    curve passes through ``(a, F_A)`` and ``(a + p, F_B)`` in (TP, FP) space -- the counts at
    the bin's edges are operating points, since no score straddles two bins -- and between them
    its operating points ``(t_j, f_j)`` and its DG interpolation form a monotone path inside the
    rectangle ``[a, a + p] × [F_A, F_B]``.  Precision ``t / (t + f)`` increases in ``t`` and
    decreases in ``f``, so at every point of the path

    ``t / (t + F_B) <= precision <= t / (t + F_A).``                                      (1)

    *AP.*  The bin's share of ``n₊ · AP`` is ``Σ_j Δt_j · t_j / (t_j + f_j)``, with
    ``Σ_j Δt_j = p``.  By (1) and ``t_j <= a + p`` it is at most ``p (a + p) / (a + p + F_A)``
    (reached when the positives come first, tied).  By (1), and because
    ``h(t) = t / (t + F_B)`` increases, ``Δt_j · h(t_j) >= ∫_{t_j − Δt_j}^{t_j} h``: it is at
    least ``∫_a^{a+p} h(t) dt`` (approached by the negatives first, then the positives one by
    one).  Points outside the bin do not depend on the order inside it, so summing the bins'
    lowest and highest shares and dividing by ``n₊`` bounds AP; the estimate is the midpoint,
    its error at most half the width.

    *DG area.*  The bin's share of ``n₊ ·`` area is ``∫_a^{a+p} t / (t + φ(t)) dt`` with
    ``φ(t) ∈ [F_A, F_B]`` the path's FP at ``TP = t``; by (1) it lies between ``∫ h`` and
    ``∫ t / (t + F_A) dt``, both reached.  A bin of negatives only (``p = 0``) adds nothing to
    either area, whatever its order: merging such bins costs nothing.

    *Precision at recall β* (the functional estimator, :meth:`prcurve.PRCurve.precision_at`):
    it reads the exact curve in the first bin whose upper edge reaches ``t = n₊β`` (the edges
    are exact operating points) at ``t / (t + N)`` with ``N`` the path's FP there, so by (1)
    it lies in ``[t / (t + F_B), t / (t + F_A)]``; the supremum of that gap over the bin is
    given in closed form (``prcurve._core._bin_bounds.precision_gap_sup``).

    Exact bins contribute their exact terms.  The stated bounds add ``8 (k + 8)`` units of
    float64 rounding (``u = 2**-53``, ``k`` bins) for evaluating these sums.

    **Which bins are merged.**  Merging bins ``i`` and ``i + 1`` changes only their own
    interval, so its cost -- the growth of the AP bound -- is local.  When the state exceeds
    ``max_bins``, the cheapest pairs are merged (disjoint pairs, in rounds, until it fits):
    bins of one class near the bottom of the ranking cost nothing, mixed bins among the first
    positives cost most, so resolution stays where the positives are.

    **Memory.**  The state is ``32 * max_bins`` bytes.  An update also briefly holds a few
    arrays the size of its batch (the batch's distinct scores and the merged bins).

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import BoundedPRAccumulator, pr_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(100_000) < 0.1
    >>> s = rng.normal(size=100_000) + y
    >>> acc = BoundedPRAccumulator(max_bins=500)
    >>> for i in range(0, 100_000, 25_000):
    ...     _ = acc.update(y[i : i + 25_000], s[i : i + 25_000])
    >>> result = acc.curve()
    >>> exact = pr_curve(y, s).auc()
    >>> bool(abs(result.auc() - exact) <= result.error_bound("average_precision") < 0.01)
    True
    """

    def __init__(self, *, max_bins: int = 4096) -> None:
        self.max_bins = check_positive_int(max_bins, "max_bins")
        self.low: np.ndarray = np.empty(0, dtype=np.float64)
        self.high: np.ndarray = np.empty(0, dtype=np.float64)
        self.pos: np.ndarray = np.empty(0, dtype=np.int64)
        self.neg: np.ndarray = np.empty(0, dtype=np.int64)

    def __repr__(self) -> str:
        return (
            f"BoundedPRAccumulator(max_bins={self.max_bins}, bins={self.n_bins}, "
            f"n_pos={self.n_pos!r}, n_neg={self.n_neg!r}, exact={self.exact})"
        )

    @property
    def n_bins(self) -> int:
        """Number of bins held."""
        return int(self.pos.shape[0])

    @property
    def exact(self) -> bool:
        """Whether every bin is one distinct score (nothing has been merged away)."""
        return bool(np.array_equal(self.low, self.high))

    @property
    def n_pos(self) -> float:
        """Total positive count (weight) so far."""
        return self.pos.sum().item() if self.pos.size else 0

    @property
    def n_neg(self) -> float:
        """Total negative count (weight) so far."""
        return self.neg.sum().item() if self.neg.size else 0

    @property
    def nbytes(self) -> int:
        """Memory held by the state, in bytes (at most ``32 * max_bins``)."""
        return int(self.low.nbytes + self.high.nbytes + self.pos.nbytes + self.neg.nbytes)

    def update(
        self, y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None
    ) -> BoundedPRAccumulator:
        """Add one batch, in place; returns the accumulator itself.

        ``y_true, y_score, sample_weight, pos_label`` are as in :func:`prcurve.pr_curve`; a
        batch may be empty or hold a single class.
        """
        y, s, w = check_binary_problem(y_true, y_score, sample_weight, pos_label, batch=True)
        if s.shape[0] == 0:
            return self
        if w is not None:
            kept = w > 0  # zero weight: as if absent
            y, s, w = y[kept], s[kept], w[kept]
        if not self.exact:  # most rows fall in a merged bin: add them there, collapse the rest
            loose = self._add_to_merged(y, s, w)
            y, s, w = y[loose], s[loose], None if w is None else w[loose]
        if s.shape[0]:
            scores, pos, neg = _collapse(y, s, w)
            self._absorb(scores, scores, pos, neg)
        return self

    def _add_to_merged(self, y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> np.ndarray:
        """Add the rows (sorted by score) that fall in a merged bin; mask of the others.

        A row joins the merged bin whose range ``[low, high]`` holds its score (ranges are
        disjoint, so equal scores land together and nothing changes but the masses).  The
        other rows -- equal to a bin of one score, or between ranges -- go through
        :meth:`_absorb`, which makes new bins of them, so resolution can still be spent where
        it is needed (e.g. above the highest score seen so far).
        """
        if w is not None and self.pos.dtype.kind != "f":
            self.pos, self.neg = self.pos.astype(np.float64), self.neg.astype(np.float64)
        k = self.n_bins
        idx = np.searchsorted(self.low, s, side="right") - 1
        joins = idx >= 0
        inside = idx[joins]
        joins[joins] = (self.low[inside] < self.high[inside]) & (s[joins] <= self.high[inside])
        at, yj = idx[joins], y[joins]
        if at.shape[0]:
            if w is None:
                self.pos += np.bincount(at[yj], minlength=k)
                self.neg += np.bincount(at[~yj], minlength=k)
            else:
                wj = w[joins]
                self.pos += np.bincount(at, weights=np.where(yj, wj, 0.0), minlength=k)
                self.neg += np.bincount(at, weights=np.where(yj, 0.0, wj), minlength=k)
        return ~joins

    def merge(self, other: BoundedPRAccumulator) -> BoundedPRAccumulator:
        """Add the data of ``other``, in place (``other`` does not change); returns ``self``.

        Overlapping bin ranges of the two are united, so the result is valid whatever the
        order of merges; it keeps ``self.max_bins``.
        """
        if not isinstance(other, BoundedPRAccumulator):
            raise TypeError(f"other: expected a BoundedPRAccumulator, got {type(other).__name__}")
        if other.n_bins:
            self._absorb(other.low, other.high, other.pos, other.neg)
        return self

    @classmethod
    def combine(
        cls, accumulators: Iterable[BoundedPRAccumulator], *, max_bins: int | None = None
    ) -> BoundedPRAccumulator:
        """A new accumulator holding the data of all ``accumulators`` (none of them changes).

        ``max_bins`` defaults to the smallest of theirs.
        """
        if not isinstance(accumulators, Iterable):
            raise TypeError(
                "accumulators: expected an iterable of BoundedPRAccumulator objects, got "
                f"{type(accumulators).__name__}"
            )
        parts = list(accumulators)
        for i, acc in enumerate(parts):
            if not isinstance(acc, BoundedPRAccumulator):
                raise TypeError(
                    "accumulators: expected BoundedPRAccumulator objects, got "
                    f"{type(acc).__name__} at index {i}"
                )
        if max_bins is None:
            if not parts:
                raise ValueError("accumulators: expected at least one accumulator, got none")
            max_bins = min(acc.max_bins for acc in parts)
        out = cls(max_bins=max_bins)
        for acc in parts:
            out.merge(acc)
        return out

    def counts(self) -> BinaryCounts:
        """Cumulative counts at the bins' lower edges (thresholds decreasing)."""
        if self.n_bins == 0:
            raise ValueError("y_true: expected at least one sample, got an empty accumulator")
        tp = np.cumsum(self.pos[::-1])
        fp = np.cumsum(self.neg[::-1])
        n_pos, n_neg = tp[-1].item(), fp[-1].item()
        if n_pos == 0 or n_neg == 0:
            raise ValueError(
                "y_true: expected both classes, got only "
                f"{'negatives' if n_pos == 0 else 'positives'} in the accumulated batches"
            )
        return BinaryCounts(self.low[::-1], tp, fp, n_pos, n_neg)

    def curve(self, *, threshold_rule: str = "ge") -> BoundedPRCurve:
        """The curve through the bins' edges with the error bounds (see the class Notes)."""
        return BoundedPRCurve.from_bins(
            self.counts(),
            score_high=self.high[::-1],
            pos=self.pos[::-1],
            neg=self.neg[::-1],
            threshold_rule=threshold_rule,
        )

    def _absorb(self, low: np.ndarray, high: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> None:
        """Unite sorted bins ``[low, high]`` with the state's, then shrink to ``max_bins``."""
        if pos.dtype.kind == "f" or self.pos.dtype.kind == "f":
            pos, neg = pos.astype(np.float64), neg.astype(np.float64)
            self.pos, self.neg = self.pos.astype(np.float64), self.neg.astype(np.float64)
        all_low = np.concatenate([self.low, low]) if self.n_bins else low
        all_high = np.concatenate([self.high, high]) if self.n_bins else high
        all_pos = np.concatenate([self.pos, pos]) if self.n_bins else pos
        all_neg = np.concatenate([self.neg, neg]) if self.n_bins else neg
        # two sorted runs: the stable sort is one linear merge
        order = np.argsort(all_low, kind="stable") if self.n_bins else np.arange(low.shape[0])
        lo, hi = all_low[order], all_high[order]
        # a new group starts where a range begins above every range before it
        start = np.empty(lo.shape[0], dtype=bool)
        start[0] = True
        np.greater(lo[1:], np.maximum.accumulate(hi)[:-1], out=start[1:])
        first = np.flatnonzero(start)
        self.low = lo[first]
        self.high = np.maximum.reduceat(hi, first)
        self.pos = np.add.reduceat(all_pos[order], first)
        self.neg = np.add.reduceat(all_neg[order], first)
        if self.n_bins > self.max_bins:
            self._shrink()

    def _shrink(self) -> None:
        """Merge adjacent bins, cheapest first, until at most ``max_bins`` remain.

        Each round takes the ``min(k − max_bins, k / 4)`` pairs of least cost
        (:func:`~prcurve._core._bin_bounds.merge_costs`) and merges every other one of each
        run of consecutive pairs (so merged pairs are disjoint): at least an eighth of the bins
        go per round while many must, so O(k) work overall.
        """
        while self.n_bins > self.max_bins:
            k = self.n_bins
            cost = merge_costs(self.pos, self.neg, self.low == self.high)
            # at most a quarter of the pairs per round, so that costs are recomputed as bins
            # grow (closer to merging the single cheapest pair at a time)
            m = min(k - self.max_bins, max(k // 4, 1))
            pick = np.sort(np.argpartition(cost, m - 1)[:m]) if m < k - 1 else np.arange(m)
            run = np.empty(m, dtype=bool)
            run[0] = True
            np.not_equal(pick[1:], pick[:-1] + 1, out=run[1:])
            run_first = np.flatnonzero(run)
            offset = np.arange(m) - np.repeat(run_first, np.diff(run_first, append=m))
            pick = pick[offset % 2 == 0]
            keep = np.ones(k, dtype=bool)
            keep[pick + 1] = False
            first = np.flatnonzero(keep)
            self.low = self.low[first]
            self.high = np.maximum.reduceat(self.high, first)
            self.pos = np.add.reduceat(self.pos, first)
            self.neg = np.add.reduceat(self.neg, first)
