"""Precision@K and recall@K of the report (``--top-k``), with bootstrap intervals.

The point values are :func:`prcurve.precision_at_k` and :func:`prcurve.recall_at_k` read off
the scorer's count table (ties in random order: the interpolation of the cumulative counts
against the rows, :mod:`prcurve._decision._depth`).

The intervals resample every row when the depth K is at most :data:`EXACT_ROWS` rows, and do
it without drawing every row's multiplicity: the top K rows of a replicate lie, with
overwhelming probability, among the original rows of the top ``T ≈ K + 8√K + 100`` (a count
of draws landing there ~ Binomial(n, T/n) falls below K with probability ~10⁻¹⁵; the rare
replicate that does is completed from the rows below).  The multinomial law of the
multiplicities factorises exactly (the draws landing in a region are binomial, and given their
number they are multinomial over the region's cells), and rows are exchangeable within a (tie
group, label) cell, so a replicate needs one binomial and one multinomial over the top groups'
cells: O(K) per replicate instead of O(n), the ordinary bootstrap's law exactly (sampling
``"instances"``, as :func:`prcurve._inference._resample.bootstrap_blocks`).  Deeper budgets
are resampled with the report's other choices on a stratified subsample
(:mod:`._choice`), at the proportional depth K·m/n, and rescaled by √(m/n).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["EXACT_ROWS", "depth_counts", "top_k_replicates"]

#: Depths (rows) up to which precision@K and recall@K resample every row (exactly, O(K) per
#: replicate); the multinomial over the top cells costs about 0.12 µs per cell and replicate.
EXACT_ROWS = 20_000
#: The region drawn holds ``K + MARGIN·√K + 100`` rows (a replicate short of K rows there is
#: completed from the rows below: exact whatever the margin, only slower when it is small).
MARGIN = 8.0


def depth_counts(tp: np.ndarray, flags: np.ndarray, depth: float) -> np.ndarray:
    """Expected TP in the top ``depth`` rows of each replicate (row), ties in random order.

    ``tp`` and ``flags`` (rows flagged) are cumulative per tie group, shape (b, G), the last
    column reaching the depth; linear interpolation inside the group holding the depth, as
    :meth:`prcurve._decision._depth.Ranking.expected`.
    """
    g = np.count_nonzero(flags < depth, axis=1)  # the first group reaching the depth
    rows = np.arange(g.shape[0])
    prev = np.maximum(g - 1, 0)
    r_lo = np.where(g > 0, flags[rows, prev], 0)
    t_lo = np.where(g > 0, tp[rows, prev], 0)
    frac = (depth - r_lo) / (flags[rows, g] - r_lo)
    result: np.ndarray = t_lo + frac * (tp[rows, g] - t_lo)
    return result


def top_k_replicates(
    tp: np.ndarray, fp: np.ndarray, depth: float, n_resamples: int, gen: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap replicates of precision and recall at ``depth`` rows (module docstring).

    ``tp``/``fp``: the unweighted cumulative counts of every tie group (thresholds decreasing).
    """
    tp = np.asarray(tp, dtype=np.int64)
    fp = np.asarray(fp, dtype=np.int64)
    rows = tp + fp
    n, n_pos, k = int(rows[-1]), int(tp[-1]), rows.shape[0]
    want = min(n, depth + MARGIN * math.sqrt(depth) + 100.0)
    top = min(int(np.searchsorted(rows, want, side="left")) + 1, k)
    cells = np.concatenate([np.diff(tp[:top], prepend=0), np.diff(fp[:top], prepend=0)])
    size = int(rows[top - 1])
    drawn = gen.binomial(n, size / n, size=n_resamples)
    mult = gen.multinomial(drawn, cells / size)
    tp_b = np.cumsum(mult[:, :top], axis=1)
    flags = tp_b + np.cumsum(mult[:, top:], axis=1)
    # the positives of each replicate: the region's, and those drawn below it
    below_pos = n_pos - int(tp[top - 1])
    rest = n - drawn
    npos = tp_b[:, -1] + (gen.binomial(rest, below_pos / (n - size)) if n > size else 0)
    short = np.flatnonzero(flags[:, -1] < depth)
    if short.shape[0]:  # the rows below complete them (multinomial of the remaining draws)
        tp_b, flags = _complete(tp_b, flags, short, tp, fp, top, rest, gen)
        npos[short] = tp_b[short, -1]
    tp_k = depth_counts(tp_b, flags, depth)
    return tp_k / depth, tp_k / npos


def _complete(
    tp_b: np.ndarray,
    flags: np.ndarray,
    short: np.ndarray,
    tp: np.ndarray,
    fp: np.ndarray,
    top: int,
    rest: np.ndarray,
    gen: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Every group's counts for the replicates ``short`` (rows below the region drawn too)."""
    cells = np.concatenate([np.diff(tp[top - 1 :]), np.diff(fp[top - 1 :])])
    below = cells.shape[0] // 2
    full_tp = np.empty((tp_b.shape[0], tp.shape[0]), dtype=np.int64)
    full_flags = np.empty_like(full_tp)
    full_tp[:, :top], full_flags[:, :top] = tp_b, flags
    full_tp[:, top:] = tp_b[:, -1:]  # the others never read past their depth
    full_flags[:, top:] = flags[:, -1:] + 1 + np.arange(tp.shape[0] - top)
    for i in short:
        m = gen.multinomial(int(rest[i]), cells / cells.sum())
        add_tp, add_fp = np.cumsum(m[:below]), np.cumsum(m[below:])
        full_tp[i, top:] = tp_b[i, -1] + add_tp
        full_flags[i, top:] = flags[i, -1] + add_tp + add_fp
    return full_tp, full_flags
