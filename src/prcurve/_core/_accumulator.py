"""A mergeable, exact accumulator of labelled scores: PR analysis one batch at a time.

The state is the positive and the negative weight of every distinct score seen so far, kept
sorted by score.  Two states combine by merging their sorted score lists and adding the weights
of equal scores, which is associative and commutative, so batches may be accumulated in any
order, on any number of workers, and merged in any tree.  The state is held as a few sorted runs
merged by size (a log-structured merge, ``._runs``), so that a stream costs O(n log n) overall
-- the speed of one sort -- rather than the size of the whole state per batch; the runs are
collapsed into one when the whole state is read.  Unweighted batches are first buffered as they
come (a copy of their labels and scores, 9 bytes a row) until they amount to a fifth of the rows
of the state, and then sorted as one run: one sort of a large buffer replaces the merges of many
small runs, while the buffer and its sort stay within half the state.  Every read of the state
(the arrays, the curve, a merge, a pickle) sorts the buffer in first.  The curve is then built
from the state by the one engine (a :class:`~prcurve._core._counts.BinaryCounts` handed to
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

from ._counts import BinaryCounts, _run_starts, count_sorted
from ._empirical import PRCurve
from ._runs import Run, collapse, freeze, push
from ._validation import check_binary_problem, moderate_shift, weight_spread_message

__all__ = ["PRAccumulator"]

#: Bytes of state per distinct score: the score (8), its positive and negative weight (8 + 8).
BYTES_PER_DISTINCT_SCORE = 24

#: Unweighted batches are buffered until their rows reach this fraction of the state's rows (or
#: the state is empty): the buffer (9 bytes a row) and its sort into a run (about 36 bytes a row
#: at the peak) then stay below half the state (24 bytes a row), and the first runs are large.
BUFFER_FRACTION = 0.2

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
        The distinct scores seen, increasing (a read-only array).

    Notes
    -----
    Memory is 24 bytes per distinct score (the score and two weights), whatever the number of
    rows: ``k`` distinct scores take ``24 k`` bytes, e.g. 24 kB for scores rounded to three
    decimals.  Batches are kept as sorted runs merged by size, so streaming ``n`` rows costs
    O(n log n) in all, and a merge of runs needs at most about 1.42 times the state plus the
    batch (a score repeated in several runs is held once per run until they merge).
    Reading :attr:`scores`, :attr:`pos`, :attr:`neg` or the curve merges the runs into one.
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
        # sorted runs [scores, pos, neg] (see ._runs): pos/neg int64 counts, or float64 weights
        # times 2**_shift; collapsed into one when the whole state is read
        self._runs: list[Run] = []
        # unweighted batches not yet sorted into a run: (labels, scores) copies, and their rows
        self._buffer: list[tuple[np.ndarray, np.ndarray]] = []
        self._buffered = 0
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

    def __getstate__(self) -> dict[str, Any]:
        # one run, in the layout of earlier versions (whose pickles load here, and vice versa)
        run = self._whole()
        return {
            "scores": run[0], "_pos": run[1], "_neg": run[2],
            "_shift": self._shift, "_top": self._top, "_low": self._low,
        }  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._shift, self._top, self._low = state["_shift"], state["_top"], state["_low"]
        scores, pos, neg = (np.array(state[k]) for k in ("scores", "_pos", "_neg"))
        self._runs = [freeze([scores, pos, neg])] if scores.shape[0] else []
        self._buffer, self._buffered = [], 0

    @property
    def scores(self) -> np.ndarray:
        """The distinct scores seen, increasing (read-only)."""
        return self._whole()[0]

    @property
    def weighted(self) -> bool:
        """Whether the state holds float64 weights (some batch had ``sample_weight``)."""
        return bool(self._runs) and self._runs[0][1].dtype.kind == "f"  # buffer: unweighted

    @property
    def pos(self) -> np.ndarray:
        """Positive count (int64) or weight (float64) at each distinct score.

        Weights are in the units of :meth:`curve` -- those of :func:`prcurve.pr_curve` on all
        the data: the caller's, unless the weights are extreme (then scaled by a power of two).
        """
        return self._in_curve_units(self._whole()[1])

    @property
    def neg(self) -> np.ndarray:
        """Negative count or weight at each distinct score (units as :attr:`pos`)."""
        return self._in_curve_units(self._whole()[2])

    @property
    def n_pos(self) -> float:
        """Total positive count (weight) so far, in the units of :attr:`pos`."""
        return self.pos.sum().item() if self._runs or self._buffer else 0

    @property
    def n_neg(self) -> float:
        """Total negative count (weight) so far, in the units of :attr:`pos`."""
        return self.neg.sum().item() if self._runs or self._buffer else 0

    @property
    def nbytes(self) -> int:
        """Memory held by the state (its runs and its buffer of unsorted rows), in bytes."""
        runs = sum(a.nbytes for run in self._runs for a in run)
        return int(runs + sum(y.nbytes + s.nbytes for y, s in self._buffer))

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
            self._top, self._low = max(self._top, 1.0), min(self._low, 1.0)
            if y.dtype != np.bool_:  # soft labels: their masses are float64 weights
                self._flush()
                self._absorb([_collapse(y, s, None)], shift=0, top=self._top, low=self._low)
                return self
            # a copy: the caller may reuse its arrays for the next batch
            self._buffer.append((np.array(y, dtype=bool), np.array(s)))
            self._buffered += s.shape[0]
            if self._buffered >= BUFFER_FRACTION * sum(run[0].shape[0] for run in self._runs):
                self._flush()
            return self
        self._flush()
        w = np.ones(s.shape[0]) if w is None else w
        top, low = max(self._top, float(w.max())), min(self._low, float(w.min()))
        shift = TOP_EXPONENT - int(np.frexp(top)[1])
        scaled = _exact_ldexp(w, shift, top, low)
        self._absorb([_collapse(y, s, scaled)], shift=shift, top=top, low=low)
        return self

    def merge(self, other: PRAccumulator) -> PRAccumulator:
        """Add the data of ``other``, in place; returns the accumulator itself.

        ``other`` does not change.  Merging is associative and commutative: any tree of merges
        over the same batches gives the same state (exactly for counts; weights up to the order
        of float64 additions).  :meth:`combine` merges many into a new accumulator.
        """
        if not isinstance(other, PRAccumulator):
            raise TypeError(f"other: expected a PRAccumulator, got {type(other).__name__}")
        self._flush()
        other._flush()  # the same data, sorted: ``other`` does not change
        if not other._runs:
            return self
        top, low = max(self._top, other._top), min(self._low, other._low)
        if not (self.weighted or other.weighted):  # runs are never changed: share them
            self._absorb([list(run) for run in other._runs], shift=0, top=top, low=low)
            return self
        shift = TOP_EXPONENT - int(np.frexp(top)[1])
        runs = _rescaled(other._runs, shift - other._shift, top, low)
        self._absorb(runs, shift=shift, top=top, low=low)
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
        if not (self._runs or self._buffer):
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

    def _whole(self) -> Run:
        """The state as one run (collapsing the runs, once, when there are several)."""
        self._flush()
        if not self._runs:
            return [np.empty(0, dtype=np.float64), np.empty(0, np.int64), np.empty(0, np.int64)]
        collapse(self._runs)
        return self._runs[0]

    def _flush(self) -> None:
        """Sort the buffered (unweighted) rows into one run and push it."""
        if not self._buffer:
            return
        parts, self._buffer, self._buffered = self._buffer, [], 0
        y = np.concatenate([p[0] for p in parts])
        s = np.concatenate([p[1] for p in parts])
        del parts[:]  # the copies go before the sort's work
        push(self._runs, _collapse(y, s, None))

    def _absorb(self, runs: list[Run], *, shift: int, top: float, low: float) -> None:
        """Push sorted distinct-score ``runs`` (weights times ``2**shift``) onto the state."""
        if runs[0][1].dtype.kind == "f" and self._runs:
            # float weights: bring the state to the new scale first (it may raise, and then the
            # state is unchanged; it changes only when the largest weight's exponent does)
            self._runs = _rescaled(self._runs, shift - self._shift, top, low)
        for run in runs:
            push(self._runs, run)
        self._shift, self._top, self._low = shift, top, low


def _rescaled(runs: list[Run], shift: int, top: float, low: float) -> list[Run]:
    """The runs with their weights times ``2**shift`` (new arrays; the same runs when 0)."""
    if shift == 0 and all(run[1].dtype.kind == "f" for run in runs):
        return [list(run) for run in runs]
    return [[r[0], *(_exact_ldexp(a, shift, top, low) for a in r[1:])] for r in runs]


def _exact_ldexp(values: np.ndarray, shift: int, top: float, low: float) -> np.ndarray:
    """``values * 2**shift`` as float64, or the spread error if that loses bits."""
    scaled = np.ldexp(values.astype(np.float64), shift)
    if shift < 0 and not np.array_equal(np.ldexp(scaled, -shift), values):
        raise ValueError(weight_spread_message(top, low, " across the batches"))
    return scaled


def _collapse(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> Run:
    """Distinct scores (increasing) of one validated batch, with their class weights.

    Counts come from the one engine (its sort-per-class path, several times faster than an
    ``argsort``); weights are summed per score with ``reduceat`` (a difference of cumulative
    sums would not give back the exact per-score sums).
    """
    if w is None:
        c = count_sorted(y, s)
        return [c.thresholds[::-1].copy(), _steps(c.tp), _steps(c.fp)]
    order = np.argsort(s, kind="stable")
    values = s[order]
    first = np.flatnonzero(_run_starts(values))
    wy = w[order]
    posw = np.where(y[order], wy, 0.0)
    return [values[first], np.add.reduceat(posw, first), np.add.reduceat(wy - posw, first)]


def _steps(cumulative: np.ndarray) -> np.ndarray:
    """Per-threshold counts from cumulative ones (thresholds decreasing), scores increasing."""
    out = cumulative[::-1].copy()
    out[:-1] -= out[1:]  # NumPy buffers the overlapping operands
    return out
