"""A mergeable, exact accumulator of labelled scores: PR analysis one batch at a time.

The state is the positive and the negative weight of every distinct score seen so far, kept
sorted by score.  Two states combine by merging their sorted score lists and adding the weights
of equal scores, which is associative and commutative, so batches may be accumulated in any
order, on any number of workers, and merged in any tree.  The curve is then built from the state
by the one engine (a :class:`~prcurve._core._counts.BinaryCounts` handed to
:meth:`PRCurve.from_counts`), exactly as :func:`prcurve.pr_curve` builds it from all the data.

One convention, as in streaming-metric libraries: :meth:`PRAccumulator.update` and
:meth:`PRAccumulator.merge` change the accumulator in place and return it;
:meth:`PRAccumulator.combine` builds a new one from many without changing them.

Weights are held scaled by a power of two (the largest seen near 2**500), so that sums of huge
weights do not overflow and subnormal weights keep their precision; the curve is then given in
the units :func:`prcurve.pr_curve` would use on all the data (see
``prcurve._core._validation.moderate_shift``).  Scaling by 2**k is exact, so it changes no bit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ._counts import BinaryCounts, _run_starts
from ._empirical import PRCurve
from ._validation import check_binary_problem, moderate_shift, weight_spread_message

__all__ = ["PRAccumulator"]

#: Bytes of state per distinct score: the score (8), its positive and negative weight (8 + 8).
BYTES_PER_DISTINCT_SCORE = 24

#: Weights are held with the largest seen in [2**(TOP_EXPONENT-1), 2**TOP_EXPONENT): sums of up
#: to 2**63 of them stay finite, and weights down to 2**-1520 times the largest stay normal.
TOP_EXPONENT = 500


class PRAccumulator:
    """Exact, mergeable state for precision-recall analysis of data seen in batches.

    Feed batches with :meth:`update`, fold in accumulators built elsewhere (other workers,
    other shards) with :meth:`merge` -- both change the accumulator in place and return it --
    or build a new one from many with :meth:`combine`, and get the curve with :meth:`curve`:
    it equals :func:`prcurve.pr_curve` on all the data at once.

    Attributes
    ----------
    scores : ndarray, shape (k,)
        The distinct scores seen, increasing.

    Notes
    -----
    Memory is 24 bytes per distinct score (the score and two weights), whatever the number of
    rows: ``k`` distinct scores take ``24 k`` bytes, e.g. 24 kB for scores rounded to three
    decimals; an update or a merge briefly needs about three times the state plus the batch.
    A batch may be empty or hold a single class (``pos_label`` need not occur in it).  Rows of
    zero weight are dropped as if absent (a score whose total weight is zero is not an
    operating point), as in :func:`prcurve.pr_curve`.

    Unweighted counts are exact int64, so the curve equals ``pr_curve``'s bit for bit.
    Weights are float64 sums, taken in another order than ``pr_curve``'s: every cumulative
    weight is a sum of at most ``n`` positive terms, so each computation is within a relative
    ``(n - 1) u`` of the exact value (``u = 2**-53``, the bound for any order of summing
    positive terms), the two within ``2 (n - 1) u`` of each other, and precision and recall
    within ``4 n u`` -- whatever the scale of the weights, subnormal or near the float64
    maximum.  When the sums are exact (e.g. weights that are small integers times a common
    power of two) the curves are identical.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import PRAccumulator, pr_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.1
    >>> s = np.round(rng.normal(size=1000) + y, 2)
    >>> a, b = PRAccumulator(), PRAccumulator()
    >>> _ = a.update(y[:600], s[:600]); _ = b.update(y[600:], s[600:])
    >>> curve = a.merge(b).curve()  # a now holds both; b is unchanged
    >>> bool(np.array_equal(curve.tp, pr_curve(y, s).tp))
    True
    """

    def __init__(self) -> None:
        self.scores: np.ndarray = np.empty(0, dtype=np.float64)
        # int64 counts, or float64 weights times 2**_shift
        self._pos: np.ndarray = np.empty(0, dtype=np.int64)
        self._neg: np.ndarray = np.empty(0, dtype=np.int64)
        self._shift = 0
        # largest and smallest positive weight seen, in the caller's units (1 per unweighted row)
        self._top = 0.0
        self._low = np.inf

    def __repr__(self) -> str:
        kind = "weighted" if self.weighted else "counts"
        return (
            f"PRAccumulator(distinct_scores={self.scores.shape[0]}, n_pos={self.n_pos!r}, "
            f"n_neg={self.n_neg!r}, {kind})"
        )

    @property
    def weighted(self) -> bool:
        """Whether the state holds float64 weights (some batch had ``sample_weight``)."""
        return self._pos.dtype.kind == "f"

    @property
    def pos(self) -> np.ndarray:
        """Positive count (int64) or weight (float64) at each distinct score.

        Weights are in the units of :meth:`curve` -- those of :func:`prcurve.pr_curve` on all
        the data: the caller's, unless the weights are extreme (then scaled by a power of two).
        """
        return self._in_curve_units(self._pos)

    @property
    def neg(self) -> np.ndarray:
        """Negative count or weight at each distinct score (units as :attr:`pos`)."""
        return self._in_curve_units(self._neg)

    @property
    def n_pos(self) -> float:
        """Total positive count (weight) so far, in the units of :attr:`pos`."""
        return self.pos.sum().item() if self._pos.size else 0

    @property
    def n_neg(self) -> float:
        """Total negative count (weight) so far, in the units of :attr:`pos`."""
        return self.neg.sum().item() if self._neg.size else 0

    @property
    def nbytes(self) -> int:
        """Memory held by the state, in bytes."""
        return int(self.scores.nbytes + self._pos.nbytes + self._neg.nbytes)

    def update(
        self, y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None
    ) -> PRAccumulator:
        """Add one batch, in place; returns the accumulator itself.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`prcurve.pr_curve`.  A batch may be empty, hold a single class (with
            ``pos_label`` absent from it: a batch of negatives), or have only zero weights.

        Returns
        -------
        PRAccumulator
            ``self``, updated.
        """
        y, s, w = check_binary_problem(y_true, y_score, sample_weight, pos_label, batch=True)
        if s.shape[0] == 0:
            return self
        if w is None and not self.weighted:
            top, low = max(self._top, 1.0), min(self._low, 1.0)
            self._absorb(*_collapse(y, s, None), shift=0, top=top, low=low)
            return self
        w = np.ones(s.shape[0]) if w is None else w
        top, low = max(self._top, float(w.max())), min(self._low, float(w.min()))
        shift = TOP_EXPONENT - int(np.frexp(top)[1])
        scaled = _exact_ldexp(w, shift, top, low)
        self._absorb(*_collapse(y, s, scaled), shift=shift, top=top, low=low)
        return self

    def merge(self, other: PRAccumulator) -> PRAccumulator:
        """Add the data of ``other``, in place; returns the accumulator itself.

        ``other`` does not change.  Merging is associative and commutative: any tree of merges
        over the same batches gives the same state (exactly for counts; weights up to the order
        of float64 additions).  :meth:`combine` merges many into a new accumulator.
        """
        if not isinstance(other, PRAccumulator):
            raise TypeError(f"other: expected a PRAccumulator, got {type(other).__name__}")
        if other.scores.shape[0] == 0:
            return self
        if not (self.weighted or other.weighted):
            top, low = max(self._top, other._top), min(self._low, other._low)
            self._absorb(other.scores, other._pos, other._neg, shift=0, top=top, low=low)
            return self
        top, low = max(self._top, other._top), min(self._low, other._low)
        shift = TOP_EXPONENT - int(np.frexp(top)[1])
        pos = _exact_ldexp(other._pos, shift - other._shift, top, low)
        neg = _exact_ldexp(other._neg, shift - other._shift, top, low)
        self._absorb(other.scores, pos, neg, shift=shift, top=top, low=low)
        return self

    @classmethod
    def combine(cls, accumulators: Iterable[PRAccumulator]) -> PRAccumulator:
        """A new accumulator holding the data of all ``accumulators`` (none of them changes).

        Examples
        --------
        >>> from prcurve import PRAccumulator
        >>> parts = [PRAccumulator().update([1, 0], [0.9, 0.1]) for _ in range(3)]
        >>> total = PRAccumulator.combine(parts)
        >>> total.n_pos, parts[0].n_pos
        (3, 1)
        """
        if not isinstance(accumulators, Iterable):
            raise TypeError(
                "accumulators: expected an iterable of PRAccumulator objects, got "
                f"{type(accumulators).__name__}"
            )
        out = cls()
        for i, acc in enumerate(accumulators):
            if not isinstance(acc, PRAccumulator):
                raise TypeError(
                    "accumulators: expected PRAccumulator objects, got "
                    f"{type(acc).__name__} at index {i}"
                )
            out.merge(acc)
        return out

    def counts(self) -> BinaryCounts:
        """The engine's cumulative counts of everything seen (thresholds decreasing)."""
        if self.scores.shape[0] == 0:
            raise ValueError("y_true: expected at least one sample, got an empty accumulator")
        tp = np.cumsum(self.pos[::-1])
        fp = np.cumsum(self.neg[::-1])
        n_pos, n_neg = tp[-1].item(), fp[-1].item()
        if n_pos == 0 or n_neg == 0:
            missing = "positive" if n_pos == 0 else "negative"
            raise ValueError(
                f"y_true: expected both classes, got only "
                f"{'negatives' if n_pos == 0 else 'positives'} (no {missing} sample) "
                "in the accumulated batches"
            )
        return BinaryCounts(self.scores[::-1], tp, fp, n_pos, n_neg)

    def curve(self, *, threshold_rule: str = "ge") -> PRCurve:
        """The PR curve of everything seen: the same as :func:`prcurve.pr_curve` on it all."""
        return PRCurve.from_counts(self.counts(), threshold_rule=threshold_rule)

    def _in_curve_units(self, values: np.ndarray) -> np.ndarray:
        if not self.weighted:
            return values.copy()
        # exact: every stored sum is at least the smallest weight, which stays a normal number
        return np.ldexp(values, moderate_shift(self._top, self._low) - self._shift)

    def _absorb(
        self,
        scores: np.ndarray,
        pos: np.ndarray,
        neg: np.ndarray,
        *,
        shift: int,
        top: float,
        low: float,
    ) -> None:
        """Merge sorted distinct ``scores`` with their weights (times ``2**shift``) in."""
        if self.scores.shape[0] == 0:  # keep the batch's score dtype (int64 stays exact)
            self.scores, self._pos, self._neg = scores.copy(), pos.copy(), neg.copy()
            self._shift, self._top, self._low = shift, top, low
            return
        mine_pos, mine_neg = self._pos, self._neg
        if pos.dtype.kind == "f":
            mine_pos = _exact_ldexp(mine_pos, shift - self._shift, top, low)
            mine_neg = _exact_ldexp(mine_neg, shift - self._shift, top, low)
        both = np.concatenate([self.scores, scores])
        # two sorted runs: the stable sort is one linear merge
        order = np.argsort(both, kind="stable")
        merged = both[order]
        first = np.flatnonzero(_run_starts(merged))
        self.scores = merged[first]
        self._pos = np.add.reduceat(np.concatenate([mine_pos, pos])[order], first)
        self._neg = np.add.reduceat(np.concatenate([mine_neg, neg])[order], first)
        self._shift, self._top, self._low = shift, top, low


def _exact_ldexp(values: np.ndarray, shift: int, top: float, low: float) -> np.ndarray:
    """``values * 2**shift`` as float64, or the spread error if that loses bits."""
    scaled = np.ldexp(values.astype(np.float64), shift)
    if shift < 0 and not np.array_equal(np.ldexp(scaled, -shift), values):
        raise ValueError(weight_spread_message(top, low, " across the batches"))
    return scaled


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
