"""The shared resampling engine: bootstrap replicates as counts on the one sorted order.

The data are sorted once (by the counting engine, ``prcurve._counts.count_sorted``).  A
stratified bootstrap replicate draws ``n₊`` positives and ``n₋`` negatives with replacement; it is
fully described by the multiplicity of every instance.  Laying the multiplicities of each class
along its instances in decreasing score order, cumulative sums give the replicate's TP and FP at
every original threshold: O(n) per replicate, no re-sort, and replicates are processed as the
rows of (block, n) matrices whose size is bounded (see :func:`block_rows`).

Thresholds that received no instance in a replicate repeat the previous operating point; the
batched estimators in ``_batch_area`` and :func:`functional_precision` treat such repeats exactly
as if the threshold did not exist, so every replicate equals "resample the instances, then
recompute with ``prcurve.auc_pr`` / ``PRCurve.precision_at``" (this is tested).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .._counts import BinaryCounts, count_sorted

__all__ = [
    "ProgressHook",
    "SortedSample",
    "batched_searchsorted",
    "block_rows",
    "bootstrap_blocks",
    "functional_precision",
    "positive_columns",
    "prepare",
    "replicate_counts",
    "require_class_sizes",
    "stratified_multiplicities",
    "weighted_quantile",
]

ProgressHook = Callable[[int, int], object]

#: Elements of one (block, n) matrix.  A block then needs about 8 such float64/int64 arrays, so
#: ~ 16 MB; small blocks stay in cache and re-use freed memory (fresh pages are slow to fault in).
BLOCK_ELEMENTS = 1 << 18


def block_rows(width: int, total: int, elements: int | None = None) -> int:
    """Rows per block so that a (rows, width) matrix holds about ``elements`` values.

    ``elements`` defaults to :data:`BLOCK_ELEMENTS` (read at call time).
    """
    budget = BLOCK_ELEMENTS if elements is None else elements
    return int(max(1, min(total, budget // max(width, 1))))


def require_class_sizes(n_pos: int, n_neg: int, *, min_pos: int, min_neg: int, what: str) -> None:
    """Raise a clear error when a method needs more instances of a class than there are."""
    if n_pos < min_pos or n_neg < min_neg:
        raise ValueError(
            f"y_true: {what} needs at least {min_pos} positive(s) and {min_neg} negative(s), "
            f"got {n_pos} positive(s) and {n_neg} negative(s)"
        )


@dataclass(frozen=True)
class SortedSample:
    """A validated problem prepared for resampling (internal).

    Attributes
    ----------
    counts : BinaryCounts
        The original counts (thresholds decreasing, k of them).
    pos_order, neg_order : ndarray of intp
        Indices into the positives / negatives (in input order) by decreasing score.
    pos_ge, neg_ge : ndarray of intp, shape (k,)
        Number of positive / negative *instances* with ``score >= thresholds[g]``.
    pos_weight, neg_weight : ndarray of float64 or None
        Sample weights of each class in decreasing score order.
    """

    counts: BinaryCounts
    pos_order: np.ndarray
    neg_order: np.ndarray
    pos_ge: np.ndarray
    neg_ge: np.ndarray
    pos_weight: np.ndarray | None
    neg_weight: np.ndarray | None

    @property
    def n_pos_instances(self) -> int:
        """Number of positive instances (not their weight)."""
        return int(self.pos_order.shape[0])

    @property
    def n_neg_instances(self) -> int:
        """Number of negative instances (not their weight)."""
        return int(self.neg_order.shape[0])


def prepare(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> SortedSample:
    """Count once and record, per class, the instances' places in the sorted order."""
    counts = count_sorted(y, s, w)
    ps, ns = s[y], s[~y]
    pos_order = np.argsort(ps, kind="stable")[::-1]
    neg_order = np.argsort(ns, kind="stable")[::-1]
    thr = counts.thresholds
    pos_ge = ps.shape[0] - np.searchsorted(ps[pos_order[::-1]], thr, side="left")
    neg_ge = ns.shape[0] - np.searchsorted(ns[neg_order[::-1]], thr, side="left")
    return SortedSample(
        counts=counts,
        pos_order=pos_order,
        neg_order=neg_order,
        pos_ge=pos_ge,
        neg_ge=neg_ge,
        pos_weight=None if w is None else w[y][pos_order],
        neg_weight=None if w is None else w[~y][neg_order],
    )


def uniform_multiplicities(rng: np.random.Generator, rows: int, size: int) -> np.ndarray:
    """Multinomial(size; 1/size, ..., 1/size) counts, one row per replicate (exact)."""
    draws = rng.integers(0, size, size=(rows, size), dtype=np.int64)
    draws += (np.arange(rows, dtype=np.int64) * size)[:, None]
    return np.bincount(draws.ravel(), minlength=rows * size).reshape(rows, size)


def stratified_multiplicities(
    rng: np.random.Generator, rows: int, n_pos: int, n_neg: int
) -> tuple[np.ndarray, np.ndarray]:
    """Multiplicities of a stratified bootstrap: n₊ draws among positives, n₋ among negatives."""
    return uniform_multiplicities(rng, rows, n_pos), uniform_multiplicities(rng, rows, n_neg)


def _cumulative(mult: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    rows, size = mult.shape
    if weight is None:
        out = np.zeros((rows, size + 1), dtype=np.int64)
        np.cumsum(mult, axis=1, out=out[:, 1:])
    else:
        out = np.zeros((rows, size + 1), dtype=np.float64)
        np.cumsum(mult * weight, axis=1, out=out[:, 1:])
    return out


def replicate_counts(
    sample: SortedSample,
    mult_pos: np.ndarray,
    mult_neg: np.ndarray,
    *,
    input_order: bool = False,
    columns: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """TP and FP of replicates at every original threshold (or at ``columns`` of them).

    Parameters
    ----------
    mult_pos : ndarray, shape (b, n₊)
        Multiplicity of every positive, in decreasing score order, or in input order when
        ``input_order`` (then gathered into score order: used by the paired bootstrap).
    mult_neg : ndarray, shape (b, n₋)
        The same for the negatives.
    columns : ndarray of intp, optional
        Indices of the thresholds to return (e.g. :func:`positive_columns`, enough for average
        precision); all k by default.

    Returns
    -------
    tp, fp : ndarray, shape (b, k) or (b, len(columns))
    n_pos, n_neg : ndarray, shape (b,)
        Total count (weight) of positives and negatives of each replicate.
    """
    if input_order:
        mult_pos = mult_pos[:, sample.pos_order]
        mult_neg = mult_neg[:, sample.neg_order]
    cp = _cumulative(mult_pos, sample.pos_weight)
    cn = _cumulative(mult_neg, sample.neg_weight)
    pos_ge, neg_ge = sample.pos_ge, sample.neg_ge
    if columns is not None:
        pos_ge, neg_ge = pos_ge[columns], neg_ge[columns]
    return (
        np.take(cp, pos_ge, axis=1),
        np.take(cn, neg_ge, axis=1),
        cp[:, -1].copy(),
        cn[:, -1].copy(),
    )


def positive_columns(sample: SortedSample) -> np.ndarray:
    """Thresholds whose group holds an original positive.

    Only there can a replicate's TP increase, so average precision computed on these columns
    alone is exact (often far fewer than k columns on imbalanced data).
    """
    prev = np.concatenate([[0], sample.pos_ge[:-1]])
    return np.flatnonzero(sample.pos_ge > prev)


def bootstrap_blocks(
    sample: SortedSample,
    n_resamples: int,
    rng: np.random.Generator,
    progress: ProgressHook | None = None,
    columns: np.ndarray | None = None,
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Stratified bootstrap replicates, block by block: yields ``replicate_counts`` tuples."""
    n_p, n_n = sample.n_pos_instances, sample.n_neg_instances
    rows = block_rows(n_p + n_n, n_resamples)
    done = 0
    while done < n_resamples:
        b = min(rows, n_resamples - done)
        mp, mn = stratified_multiplicities(rng, b, n_p, n_n)
        yield replicate_counts(sample, mp, mn, columns=columns)
        done += b
        if progress is not None:
            progress(done, n_resamples)


def batched_searchsorted(a: np.ndarray, v: np.ndarray, *, side: str = "left") -> np.ndarray:
    """Row-wise ``np.searchsorted``: ``a`` (b, k) ascending rows, ``v`` (b, m) -> (b, m).

    A vectorised bisection: ``ceil(log2(k + 1))`` passes over (b, m) arrays.
    """
    k = a.shape[1]
    lo = np.zeros(v.shape, dtype=np.intp)
    hi = np.full(v.shape, k, dtype=np.intp)
    if k == 0:
        return lo
    for _ in range(int(k).bit_length() + 1):
        mid = (lo + hi) >> 1
        val = np.take_along_axis(a, np.minimum(mid, k - 1), axis=1)
        right = (val <= v) if side == "right" else (val < v)
        right &= mid < hi
        lo = np.where(right, mid + 1, lo)
        hi = np.where(right, hi, mid)
    return lo


def functional_precision(
    tp: np.ndarray, fp: np.ndarray, n_pos: np.ndarray, recall: np.ndarray
) -> np.ndarray:
    """The functional estimator PR̂(β) of every replicate (rows) at recall levels β (columns).

    Same definition as :meth:`prcurve.PRCurve.precision_at` (Clémençon & Vayatis eq. 3):
    ``PR̂(β) = n₊β / (n₊β + N)``, ``N`` the count of negatives strictly above the lowest positive
    score with at most ``n₊β`` positives strictly above it.

    Parameters
    ----------
    tp, fp : ndarray, shape (b, k)
        Cumulative counts at decreasing thresholds (repeated points allowed).
    n_pos : ndarray, shape (b,)
    recall : ndarray, shape (m,), values in (0, 1]

    Returns
    -------
    ndarray, shape (b, m)
    """
    tp = np.asarray(tp)
    k = tp.shape[1]
    tp_prev = np.zeros_like(tp)
    tp_prev[:, 1:] = tp[:, :-1]
    fp_prev = np.zeros_like(fp)
    fp_prev[:, 1:] = fp[:, :-1]
    has_pos = tp > tp_prev
    target = np.asarray(n_pos, dtype=np.float64)[:, None] * np.asarray(recall)[None, :]
    j = batched_searchsorted(tp_prev, target * (1 + 8 * np.finfo(float).eps), side="right")
    last_pos = np.maximum.accumulate(np.where(has_pos, np.arange(k), -1), axis=1)
    g = np.take_along_axis(last_pos, j - 1, axis=1)
    above_neg = np.take_along_axis(fp_prev, g, axis=1)
    return target / (target + above_neg)


def weighted_quantile(values: np.ndarray, level: float, weights: np.ndarray | None = None) -> float:
    """Smallest ``r`` with (weighted) empirical CDF of ``values`` at ``r`` >= ``level``."""
    order = np.argsort(values, kind="stable")
    v = values[order]
    if weights is None:
        cdf = np.arange(1, v.shape[0] + 1) / v.shape[0]
    else:
        cw = np.cumsum(weights[order])
        cdf = cw / cw[-1]
    i = int(np.searchsorted(cdf, level * (1 - 1e-12), side="left"))
    return float(v[min(i, v.shape[0] - 1)])
