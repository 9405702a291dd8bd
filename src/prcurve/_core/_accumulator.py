"""A mergeable, exact accumulator of labelled scores: PR analysis one batch at a time.

The state is the positive and the negative weight of every distinct score seen so far, kept
sorted by score.  Two states combine by merging their sorted score lists and adding the weights
of equal scores, which is associative and commutative, so batches may be accumulated in any
order, on any number of workers, and merged in any tree.  The curve is then built from the state
by the one engine (a :class:`~prcurve._core._counts.BinaryCounts` handed to
:meth:`PRCurve.from_counts`), exactly as :func:`prcurve.pr_curve` builds it from all the data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._counts import BinaryCounts, _run_starts
from ._empirical import PRCurve
from ._validation import check_binary_problem

__all__ = ["PRAccumulator"]

#: Bytes of state per distinct score: the score (8), its positive and negative weight (8 + 8).
BYTES_PER_DISTINCT_SCORE = 24


class PRAccumulator:
    """Exact, mergeable state for precision-recall analysis of data seen in batches.

    Feed batches with :meth:`update`, combine accumulators built elsewhere (other workers,
    other shards) with :meth:`merge`, and get the curve with :meth:`curve`: it equals
    :func:`prcurve.pr_curve` on all the data at once -- the counts exactly (unweighted), the
    areas to rounding.

    Attributes
    ----------
    scores : ndarray, shape (k,)
        The distinct scores seen, increasing.
    pos, neg : ndarray, shape (k,)
        Positive and negative count (int64) -- or total weight (float64, once any batch had
        ``sample_weight``) -- at each distinct score.

    Notes
    -----
    Memory is 24 bytes per distinct score (the score and two weights), whatever the number of
    rows: ``k`` distinct scores take ``24 k`` bytes, e.g. 24 kB for scores rounded to three
    decimals; an update or a merge briefly needs about three times the state plus the batch.
    Rows of zero weight are dropped as if absent (a score whose total weight is zero is not an
    operating point), as in :func:`prcurve.pr_curve`.  Unweighted counts are exact int64;
    weighted totals are float64 sums, which may differ from ``pr_curve``'s (summed in another
    order) in the last bits.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import PRAccumulator, pr_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.1
    >>> s = np.round(rng.normal(size=1000) + y, 2)
    >>> a, b = PRAccumulator(), PRAccumulator()
    >>> _ = a.update(y[:600], s[:600]); _ = b.update(y[600:], s[600:])
    >>> curve = a.merge(b).curve()
    >>> bool(np.array_equal(curve.tp, pr_curve(y, s).tp))
    True
    """

    def __init__(self) -> None:
        self.scores: np.ndarray = np.empty(0, dtype=np.float64)
        self.pos: np.ndarray = np.empty(0, dtype=np.int64)
        self.neg: np.ndarray = np.empty(0, dtype=np.int64)
        self._empty = True

    def __repr__(self) -> str:
        kind = "weighted" if self.weighted else "counts"
        return (
            f"PRAccumulator(distinct_scores={self.scores.shape[0]}, n_pos={self.n_pos!r}, "
            f"n_neg={self.n_neg!r}, {kind})"
        )

    @property
    def weighted(self) -> bool:
        """Whether the state holds float64 weights (some batch had ``sample_weight``)."""
        return self.pos.dtype.kind == "f"

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
        """Memory held by the state, in bytes."""
        return int(self.scores.nbytes + self.pos.nbytes + self.neg.nbytes)

    def update(
        self, y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None
    ) -> PRAccumulator:
        """Add one batch (in place); returns the accumulator itself.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`prcurve.pr_curve`; a batch may hold a single class.

        Returns
        -------
        PRAccumulator
            ``self``, updated.
        """
        try:
            y, s, w = check_binary_problem(
                y_true, y_score, sample_weight, pos_label, require_both=False
            )
        except ValueError as err:
            if "got all zeros" not in str(err):
                raise
            # a batch of zero weights is a batch of absent rows: check the rest, add nothing
            check_binary_problem(y_true, y_score, None, pos_label, require_both=False)
            return self
        if w is not None:
            # the validator rescales extreme weights batch by batch; keep the weights as given
            # so that batches add up (zero weights dropped as it dropped them)
            raw = np.asarray(sample_weight, dtype=np.float64).reshape(-1)
            w = raw[raw > 0]
        scores, pos, neg = _collapse(y, s, w)
        self._absorb(scores, pos, neg)
        return self

    def merge(self, other: PRAccumulator) -> PRAccumulator:
        """A new accumulator holding the data of both (neither input changes).

        Merging is associative and commutative: any tree of merges over the same batches gives
        the same state (exactly for counts; weights up to the order of float64 additions).
        """
        if not isinstance(other, PRAccumulator):
            raise TypeError(f"other: expected a PRAccumulator, got {type(other).__name__}")
        out = PRAccumulator()
        out.scores, out.pos, out.neg, out._empty = self.scores, self.pos, self.neg, self._empty
        if not other._empty:
            out._absorb(other.scores, other.pos, other.neg)
        return out

    def counts(self) -> BinaryCounts:
        """The engine's cumulative counts of everything seen (thresholds decreasing)."""
        n_pos, n_neg = self.n_pos, self.n_neg
        if self._empty:
            raise ValueError("y_true: expected at least one sample, got an empty accumulator")
        if n_pos == 0 or n_neg == 0:
            missing = "positive" if n_pos == 0 else "negative"
            raise ValueError(
                f"y_true: expected both classes, got only "
                f"{'negatives' if n_pos == 0 else 'positives'} (no {missing} sample) "
                "in the accumulated batches"
            )
        tp = np.cumsum(self.pos[::-1])
        fp = np.cumsum(self.neg[::-1])
        if self.weighted and not (np.isfinite(tp[-1]) and np.isfinite(fp[-1])):
            raise ValueError(
                "sample_weight: expected weights whose total fits in float64, got totals "
                f"{tp[-1]!r} and {fp[-1]!r}; divide the weights by a common factor"
            )
        return BinaryCounts(self.scores[::-1], tp, fp, n_pos, n_neg)

    def curve(self, *, threshold_rule: str = "ge") -> PRCurve:
        """The PR curve of everything seen: the same as :func:`prcurve.pr_curve` on it all."""
        return PRCurve.from_counts(self.counts(), threshold_rule=threshold_rule)

    def _absorb(self, scores: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> None:
        if self._empty:
            self.scores, self.pos, self.neg, self._empty = scores, pos, neg, False
            return
        if self.weighted != (pos.dtype.kind == "f"):
            self.pos, self.neg = self.pos.astype(np.float64), self.neg.astype(np.float64)
            pos, neg = pos.astype(np.float64), neg.astype(np.float64)
        both = np.concatenate([self.scores, scores])
        # two sorted runs: the stable sort is one linear merge
        order = np.argsort(both, kind="stable")
        merged = both[order]
        first = np.flatnonzero(_run_starts(merged))
        self.scores = merged[first]
        self.pos = np.add.reduceat(np.concatenate([self.pos, pos])[order], first)
        self.neg = np.add.reduceat(np.concatenate([self.neg, neg])[order], first)


def _collapse(
    y: np.ndarray, s: np.ndarray, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct scores (increasing) of one validated batch, with their class weights."""
    order = np.argsort(s, kind="stable")
    values = s[order]
    first = np.flatnonzero(_run_starts(values))
    if w is None:
        pos = np.add.reduceat(y[order].astype(np.int64), first)
        neg = np.diff(first, append=values.shape[0]) - pos
    else:
        wy = w[order]
        posw = np.where(y[order], wy, 0.0)
        pos = np.add.reduceat(posw, first)
        neg = np.add.reduceat(wy - posw, first)
    return values[first], pos, neg
