"""The shared resampling engine: bootstrap replicates as counts on the engine's thresholds.

The data are sorted once, by the counting engine (``prcurve._core._counts.count_sorted``).  Each
instance is then tagged with the index of its threshold group (a binary search into the sorted
thresholds, not a second sort).  A bootstrap replicate is fully described by the multiplicity of
every instance, drawn under one of two sampling models (:data:`SAMPLING`):

* ``"instances"`` (the default of every interval): the n instances were drawn at random, so the
  prevalence varies — a replicate resamples n rows with replacement, i.e. n₊* ~ Bin(n, p̂)
  (conditioned on at least one instance of each class, as the smoothed band does) and then n₊*
  positives and n − n₊* negatives uniformly within their class;
* ``"stratified"``: the class counts are fixed by design (case–control sampling) — n₊ positives
  and n₋ negatives are resampled with replacement.

Either way the multiplicities
summing (weighted) multiplicities per group and accumulating over the groups gives the
replicate's TP and FP at every original threshold: O(n) per replicate, no re-sort, and the
replicates are the rows of (block, n) matrices whose size is bounded (see :func:`block_rows`).
Multiplicities are laid along each class's instances in input order, so a paired bootstrap can
share them between two scorers of the same instances.

Thresholds that received no instance in a replicate repeat the previous operating point; the
batched estimators in ``_batch_area`` and ``prcurve._core._batch.functional_precision`` treat such
repeats exactly as if the threshold did not exist, so every replicate equals "resample the
instances, then recompute with ``prcurve.auc_pr`` / ``PRCurve.precision_at``" (this is tested).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core._binomial import conditional_binomial
from .._core._counts import BinaryCounts, count_sorted
from .._core._results import compact_repr
from .._core._validation import check_choice

__all__ = [
    "SAMPLING",
    "ProgressHook",
    "SortedSample",
    "block_rows",
    "bootstrap_blocks",
    "bootstrap_curve_blocks",
    "check_sampling",
    "masked_multiplicities",
    "positional_cumulative",
    "positive_columns",
    "prepare",
    "prepare_counted",
    "replicate_counts",
    "require_class_sizes",
    "resample_multiplicities",
    "stratified_multiplicities",
    "weighted_quantile",
]

#: Bootstrap sampling models: instances drawn at random (prevalence varies) or fixed class counts.
SAMPLING = ("instances", "stratified")

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


@compact_repr
@dataclass(frozen=True)
class SortedSample:
    """A validated problem prepared for resampling (internal).

    Attributes
    ----------
    counts : BinaryCounts
        The original counts (thresholds decreasing, k of them).
    pos_group, neg_group : ndarray of intp
        Threshold-group index of every positive / negative, in the class's input order
        (computed on first use: only paired and weighted resampling need them).
    pos_ge, neg_ge : ndarray of intp, shape (k,)
        Number of positive / negative *instances* with ``score >= thresholds[g]``.
    pos_weight, neg_weight : ndarray of float64 or None
        Sample weights of each class, in input order.
    """

    counts: BinaryCounts
    pos_ge: np.ndarray
    neg_ge: np.ndarray
    pos_weight: np.ndarray | None
    neg_weight: np.ndarray | None
    n_pos_instances: int  # number of positive instances (not their weight)
    n_neg_instances: int
    y: np.ndarray = field(repr=False)  # the validated labels and scores, for the groups
    s: np.ndarray = field(repr=False)

    @functools.cached_property
    def pos_group(self) -> np.ndarray:
        return _group_index(self.counts.thresholds, self.s[self.y])

    @functools.cached_property
    def neg_group(self) -> np.ndarray:
        return _group_index(self.counts.thresholds, self.s[~self.y])

    @property
    def n_groups(self) -> int:
        """Number of distinct thresholds."""
        return int(self.counts.thresholds.shape[0])


def _group_index(thresholds: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Index of each value among the decreasing ``thresholds`` (a binary search, no sort)."""
    return (thresholds.shape[0] - 1) - np.searchsorted(thresholds[::-1], values)


def prepare(y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> SortedSample:
    """Count once; each instance's threshold group is found when first needed (no second sort)."""
    counts = count_sorted(y, s, w)
    k = counts.thresholds.shape[0]
    n_pos = int(np.count_nonzero(y))
    groups: dict[str, np.ndarray] = {}
    if w is None:  # the counts are the instance counts
        pos_ge, neg_ge = counts.tp.astype(np.intp), counts.fp.astype(np.intp)
    else:  # the counts are weights: count the instances of each group
        groups = {
            "pos_group": _group_index(counts.thresholds, s[y]),
            "neg_group": _group_index(counts.thresholds, s[~y]),
        }
        pos_ge = np.cumsum(np.bincount(groups["pos_group"], minlength=k))
        neg_ge = np.cumsum(np.bincount(groups["neg_group"], minlength=k))
    sample = SortedSample(
        counts=counts,
        pos_ge=pos_ge,
        neg_ge=neg_ge,
        pos_weight=None if w is None else w[y],
        neg_weight=None if w is None else w[~y],
        n_pos_instances=n_pos,
        n_neg_instances=int(y.shape[0]) - n_pos,
        y=y,
        s=s,
    )
    sample.__dict__.update(groups)  # already computed: the cached properties' values
    return sample


def prepare_counted(counts: Any, y: np.ndarray, s: np.ndarray) -> SortedSample:
    """:func:`prepare` for unweighted data whose counts are already had (no second sort).

    ``counts``: the engine's counts of ``(y, s)`` or a :class:`~prcurve.PRCurve` built from them
    (every distinct score a threshold, ``threshold_rule="ge"``).
    """
    n_pos = int(np.count_nonzero(y))
    tp, fp = np.asarray(counts.tp), np.asarray(counts.fp)
    whole = (
        getattr(counts, "thinning", None) is None
        and getattr(counts, "threshold_rule", "ge") == "ge"
        and tp[-1] == n_pos
        and fp[-1] == y.shape[0] - n_pos
    )
    if not whole:
        raise ValueError(
            "counts: expected the unthinned counts of these rows (threshold_rule='ge'), got a "
            f"curve ending at TP={tp[-1]}, FP={fp[-1]} for {n_pos} positive(s) and "
            f"{y.shape[0] - n_pos} negative(s)"
        )
    return SortedSample(
        counts=counts,
        pos_ge=tp.astype(np.intp),
        neg_ge=fp.astype(np.intp),
        pos_weight=None,
        neg_weight=None,
        n_pos_instances=n_pos,
        n_neg_instances=int(y.shape[0]) - n_pos,
        y=y,
        s=s,
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


def masked_multiplicities(rng: np.random.Generator, sizes: np.ndarray, pool: int) -> np.ndarray:
    """Row ``i``: Multinomial(sizes[i]; 1/pool, ..., 1/pool) counts, shape (rows, pool)."""
    rows = sizes.shape[0]
    width = int(sizes.max())
    draws = rng.integers(0, pool, size=(rows, width), dtype=np.int64)
    if rows > 1:
        draws += (np.arange(rows, dtype=np.int64) * pool)[:, None]
    short = int(sizes.min())  # only the columns from here on can hold unused draws
    if short < width:
        tail = draws[:, short:]
        tail[np.arange(short, width)[None, :] >= sizes[:, None]] = rows * pool  # a spare bin
    return np.bincount(draws.ravel(), minlength=rows * pool + 1)[:-1].reshape(rows, pool)


def check_sampling(sampling: object) -> str:
    """Validate a ``sampling`` option (one of :data:`SAMPLING`)."""
    return check_choice(sampling, "sampling", SAMPLING)


def resample_multiplicities(
    rng: np.random.Generator, rows: int, n_pos: int, n_neg: int, sampling: str
) -> tuple[np.ndarray, np.ndarray]:
    """Multiplicities of positives (rows, n₊) and negatives (rows, n₋) under ``sampling``.

    ``"stratified"`` keeps n₊ and n₋; ``"instances"`` draws n₊* ~ Bin(n, n₊/n) conditioned on
    1 ≤ n₊* ≤ n − 1 (exactly, no rejection loop), then n₊* positives and n − n₊* negatives with
    replacement: the law of n draws with replacement from all rows, given both classes occur.
    """
    if sampling == "stratified":
        return stratified_multiplicities(rng, rows, n_pos, n_neg)
    n = n_pos + n_neg
    k = conditional_binomial(rng, n, n_pos / n, rows, min_each=1)
    return masked_multiplicities(rng, k, n_pos), masked_multiplicities(rng, n - k, n_neg)


def _group_cumulative(mult: np.ndarray, group: np.ndarray, weight: np.ndarray | None, k: int):
    """Cumulative (weighted) multiplicity per threshold group: shape (b, k)."""
    rows = mult.shape[0]
    flat = (group[None, :] + (np.arange(rows, dtype=np.intp) * k)[:, None]).ravel()
    w = mult if weight is None else mult * weight
    per_group = np.bincount(flat, weights=w.ravel(), minlength=rows * k).reshape(rows, k)
    out = np.cumsum(per_group, axis=1)
    return out.astype(np.int64) if weight is None else out


def replicate_counts(
    sample: SortedSample,
    mult_pos: np.ndarray,
    mult_neg: np.ndarray,
    *,
    columns: np.ndarray | None = None,
    by_instance: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """TP and FP of replicates at every original threshold (or at ``columns`` of them).

    Parameters
    ----------
    mult_pos : ndarray, shape (b, n₊)
        Multiplicities of the positives.  With ``by_instance`` (or sample weights), column ``j``
        is the ``j``-th positive in input order.  Otherwise it is the ``j``-th highest-scoring
        positive (any order within ties): instance identity is then irrelevant, cumulative
        sums along the columns give the counts directly, and this is the fast path.
    mult_neg : ndarray, shape (b, n₋)
        The same for the negatives.
    columns : ndarray of intp, optional
        Indices of the thresholds to return (e.g. :func:`positive_columns`, enough for average
        precision); all k by default.
    by_instance : bool
        Multiplicities are per instance (paired bootstraps that share them between scorers).

    Returns
    -------
    tp, fp : ndarray, shape (b, k) or (b, len(columns))
    n_pos, n_neg : ndarray, shape (b,)
        Total count (weight) of positives and negatives of each replicate.
    """
    if by_instance or sample.pos_weight is not None:
        k = sample.n_groups
        cp = _group_cumulative(mult_pos, sample.pos_group, sample.pos_weight, k)
        cn = _group_cumulative(mult_neg, sample.neg_group, sample.neg_weight, k)
        tp, fp = (cp, cn) if columns is None else (cp[:, columns], cn[:, columns])
        return tp, fp, cp[:, -1].copy(), cn[:, -1].copy()
    cp = positional_cumulative(mult_pos)
    cn = positional_cumulative(mult_neg)
    pos_ge, neg_ge = sample.pos_ge, sample.neg_ge
    if columns is not None:
        pos_ge, neg_ge = pos_ge[columns], neg_ge[columns]
    return np.take(cp, pos_ge, axis=1), np.take(cn, neg_ge, axis=1), cp[:, -1], cn[:, -1]


def positional_cumulative(mult: np.ndarray) -> np.ndarray:
    """Counts of the top-j instances of a class, j = 0..m: shape (b, m + 1)."""
    out = np.zeros((mult.shape[0], mult.shape[1] + 1), dtype=np.int64)
    np.cumsum(mult, axis=1, out=out[:, 1:])
    return out


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
    *,
    sampling: str = "instances",
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Bootstrap replicates, block by block: yields ``replicate_counts`` tuples."""
    n_p, n_n = sample.n_pos_instances, sample.n_neg_instances
    rows = block_rows(n_p + n_n, n_resamples)
    done = 0
    while done < n_resamples:
        b = min(rows, n_resamples - done)
        mp, mn = resample_multiplicities(rng, b, n_p, n_n, sampling)
        yield replicate_counts(sample, mp, mn, columns=columns)
        done += b
        if progress is not None:
            progress(done, n_resamples)


def bootstrap_curve_blocks(
    sample: SortedSample,
    n_resamples: int,
    rng: np.random.Generator,
    progress: ProgressHook | None = None,
    *,
    sampling: str = "instances",
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Replicates reduced to what the functional estimator needs.

    Yields ``(tp, fp, tp_prev, fp_prev, n_pos)``: the counts at the thresholds holding an
    original positive (:func:`positive_columns`, the only places a replicate's TP can grow) and
    at the threshold just before each of them, for :func:`functional_precision`.
    """
    n_p, n_n = sample.n_pos_instances, sample.n_neg_instances
    cols = positive_columns(sample)
    prev = np.maximum(cols - 1, 0)
    rows = block_rows(n_p + n_n, n_resamples)
    done = 0
    while done < n_resamples:
        b = min(rows, n_resamples - done)
        mp, mn = resample_multiplicities(rng, b, n_p, n_n, sampling)
        tp, fp, npos, _ = replicate_counts(sample, mp, mn)
        tp_prev = np.where(cols > 0, tp[:, prev], 0)
        fp_prev = np.where(cols > 0, fp[:, prev], 0)
        yield tp[:, cols], fp[:, cols], tp_prev, fp_prev, npos
        done += b
        if progress is not None:
            progress(done, n_resamples)


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
