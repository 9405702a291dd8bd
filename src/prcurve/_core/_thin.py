"""Thinning a PR curve to a few points with a stated bound on the precision error.

A thinned curve keeps the end points and every vertex of the ROC convex hull (so its achievable
curve is the full curve's), and spends the rest of its point budget evenly along the curve's
path length in (recall, precision).  It is drawn, like the full curve, by Davis–Goadrich
interpolation between its points.

The bound
---------
Read both curves as functions of recall with the convention of :meth:`PRCurve.interpolate`
(the upper value at a vertical drop).  On the recall interval ``(r_i, r_{i+1}]`` of one segment
of the full curve, both curves are Davis–Goadrich segments (the thinned one ``A → B`` spans the
interval): precision ``x / (a x + b)`` in the true-positive count ``x``.  Their difference
peaks at the interval's ends or at the one interior point where its derivative vanishes
(:func:`_peak`), so ``max_precision_error``, the largest of these over all segments, is the
exact supremum of ``|P_full(r) − P_thin(r)|`` (no sampling), up to rounding.  (Comparing
only the two precision ranges, as an earlier version did, gives the whole width of a segment
even where the curves agree — 0.25 for the rise from precision 0 after three negatives.)
Before the first point both curves share the segment from the origin, so they agree.

The functions take row blocks with one row of context (the previous point) so that
:mod:`prcurve.dask` evaluates the same formulas partition by partition.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from ._disk import is_on_disk, release, search_sorted, take
from ._interpolation import dg_precision
from ._results import compact_repr

__all__ = ["Thinning", "path_steps", "segment_bounds", "spread_indices"]


@compact_repr
@dataclass(frozen=True)
class Thinning:
    """How a curve was thinned, and what was computed before thinning.

    Attributes
    ----------
    n_points : int
        Operating points of the full curve.
    max_precision_error : float
        Bound on ``|P_full(r) − P_thin(r)|`` over all recall levels, for the Davis–Goadrich
        interpolated curves (upper values at vertical drops); see ``prcurve._core._thin``.
    areas : mapping of str to float
        Every AUC-PR estimate (:data:`prcurve._core._area.AUC_PR_METHODS`) of the full curve;
        :meth:`PRCurve.auc` of a thinned curve returns these.
    roc_auc : float
        Area under the full ROC curve.
    """

    n_points: int
    max_precision_error: float
    areas: Mapping[str, float]
    roc_auc: float


def path_steps(recall: np.ndarray, precision: np.ndarray, prev: tuple[float, float]) -> np.ndarray:
    """Length of each step ``|Δrecall| + |Δprecision|`` from the previous point (``prev``)."""
    r = np.concatenate([[prev[0]], recall])
    p = np.concatenate([[prev[1]], precision])
    return np.abs(np.diff(r)) + np.abs(np.diff(p))


def spread_indices(
    cum_length: np.ndarray, start: float, total: float, n: int, offset: int = 0
) -> np.ndarray:
    """Global indices of the points where the cumulative path length first reaches ``j·total/n``.

    ``cum_length`` is the cumulative path length at each point of a block (nondecreasing, global
    values), ``start`` the value before the block, ``offset`` the global index of its first point;
    ``j = 1 … n``.  Each target falls in exactly one block, so blocks can be done separately.
    """
    if n <= 0 or total <= 0 or cum_length.shape[0] == 0:
        return np.empty(0, dtype=np.int64)
    targets = total * np.arange(1, n + 1) / n
    targets = targets[(targets > start) & (targets <= cum_length[-1])]
    at = search_sorted(cum_length, targets, side="left")  # (on disk: its pages handed back)
    return np.unique(at).astype(np.int64) + offset


def segment_bounds(
    tp: np.ndarray,
    fp: np.ndarray,
    index: np.ndarray,
    kept_index: np.ndarray,
    kept_tp: np.ndarray,
    kept_fp: np.ndarray,
) -> float:
    """Largest precision gap over the full segments ``index[i] → index[i+1]`` of a block.

    Parameters
    ----------
    tp, fp : ndarray, shape (m,)
        Consecutive operating points of the full curve (the first may be the previous block's
        last point, as context).
    index : ndarray of int, shape (m,)
        Their global indices (consecutive).
    kept_index, kept_tp, kept_fp : ndarray, shape (h,)
        The kept points (global indices increasing, first and last point of the curve kept).
    """
    if tp.shape[0] < 2:
        return 0.0
    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    t0, t1, f0, f1 = tp[:-1], tp[1:], fp[:-1], fp[1:]
    rising = t1 > t0  # vertical segments add nothing under the upper-value convention
    if not rising.any():
        return 0.0
    t0, t1, f0, f1 = t0[rising], t1[rising], f0[rising], f1[rising]
    # the kept segment A -> B holding full segment i -> i+1: A = last kept index <= i
    j = np.searchsorted(kept_index, index[:-1][rising], side="right") - 1
    a_tp, a_fp = kept_tp[j], kept_fp[j]
    b_tp, b_fp = kept_tp[j + 1], kept_fp[j + 1]
    # full and thinned precision at both ends of the full segment (just right of t0: the
    # segment's own value there; at t0 = 0 from the origin, the limit along the segment)
    p0 = dg_precision(t0, f0, t1, f1, t0)
    p1 = t1 / (t1 + f1)
    q0 = dg_precision(a_tp, a_fp, b_tp, b_fp, t0)
    q1 = dg_precision(a_tp, a_fp, b_tp, b_fp, t1)
    gap = np.maximum(np.abs(p0 - q0), np.abs(p1 - q1))
    # ... and at the one interior point where the difference can peak (see _peak)
    x, found, exact = _peak(t0, f0, t1, f1, a_tp, a_fp, b_tp, b_fp)
    inner = np.abs(dg_precision(t0, f0, t1, f1, x) - dg_precision(a_tp, a_fp, b_tp, b_fp, x))
    gap = np.maximum(gap, np.where(found, inner, 0.0))
    # where that point could not be formed (a slope overflowing), the ranges' widest gap
    lo_f, hi_f = np.minimum(p0, p1), np.maximum(p0, p1)
    loose = np.maximum(hi_f - np.minimum(q0, q1), np.maximum(q0, q1) - lo_f)
    gap = np.where(exact, gap, loose)
    same = (a_tp == t0) & (a_fp == f0) & (b_tp == t1) & (b_fp == f1)  # the segment is kept
    gap = np.where(same, 0.0, gap)
    return float(max(gap.max(), 0.0))


def _peak(
    t0: np.ndarray,
    f0: np.ndarray,
    t1: np.ndarray,
    f1: np.ndarray,
    a_tp: np.ndarray,
    a_fp: np.ndarray,
    b_tp: np.ndarray,
    b_fp: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where on ``(t0, t1)`` the gap between the full segment and the kept one A → B can peak.

    Along a Davis–Goadrich segment FP is linear in TP = x, so precision is ``x / (a x + b)``
    (``a = 1 + slope``, ``b`` = FP extrapolated to x = 0), whose derivative is
    ``b / (a x + b)²``.  The difference of two such precisions has derivative
    ``b₁/(a₁x + b₁)² − b₂/(a₂x + b₂)²``; with both denominators positive (x + FP > 0) it
    vanishes only where ``√|b₁| (a₂x + b₂) = √|b₂| (a₁x + b₁)`` with ``b₁ b₂ > 0``: one point,
    linear in x.  So the largest gap on the segment is at its ends or there: the bound is the
    exact supremum, not the gap between the two precision ranges (which is the whole range
    of the full segment even where the curves agree, e.g. from precision 0 at TP = 0).

    Returns that point (``t1`` where there is none), whether it is strictly inside, and
    whether the coefficients were finite (a slope can overflow: a tiny TP step beside a huge
    FP step); where they were not, the caller falls back to the ranges' gap.
    """
    with np.errstate(all="ignore"):
        s1 = (f1 - f0) / (t1 - t0)
        s2 = (b_fp - a_fp) / (b_tp - a_tp)
        a1, b1 = 1.0 + s1, f0 - s1 * t0
        a2, b2 = 1.0 + s2, a_fp - s2 * a_tp
        r1, r2 = np.sqrt(np.abs(b1)), np.sqrt(np.abs(b2))
        x = (r2 * b1 - r1 * b2) / (r1 * a2 - r2 * a1)
    exact = np.isfinite(a1) & np.isfinite(b1) & np.isfinite(a2) & np.isfinite(b2)
    found = exact & (b1 * b2 > 0) & np.isfinite(x) & (x > t0) & (x < t1)
    return np.where(found, x, t1), found, exact


def thin_indices(
    tp: np.ndarray, fp: np.ndarray, keep_required: np.ndarray, max_points: int
) -> tuple[np.ndarray, float]:
    """Indices kept by thinning an in-memory curve, and the precision-error bound.

    ``keep_required`` are the hull vertices; the end points are added.  The remaining budget
    (``max_points`` minus the required points) is spread evenly along the path length.
    """
    k = tp.shape[0]
    required = np.union1d(keep_required, [0, k - 1]).astype(np.int64)
    budget = max_points - required.shape[0]
    if is_on_disk(tp):  # the path walked twice rather than written (see _path_in_blocks)
        total = 0.0
        for _, _, cum in _path_in_blocks(tp, fp):
            total = float(cum[-1])
        fill = np.concatenate(
            [np.empty(0, dtype=np.int64)]
            + [spread_indices(cum, start, total, budget, lo)
               for lo, start, cum in _path_in_blocks(tp, fp)]
        )  # fmt: skip
    else:
        blocks = [cum for _, _, cum in _path_in_blocks(tp, fp)]
        cum = np.concatenate(blocks) if blocks else np.empty(0)
        fill = spread_indices(cum, 0.0, float(cum[-1]), budget)
        del cum, blocks
    keep = np.union1d(required, fill)  # at most max(max_points, len(required)) points
    kept_tp, kept_fp = take(tp, keep), take(fp, keep)
    bounds = [0.0]
    for lo in range(0, k - 1, BOUND_BLOCK):  # blocks with the previous point as context
        hi = min(lo + BOUND_BLOCK, k - 1) + 1
        index = np.arange(lo, hi)
        bounds.append(segment_bounds(tp[lo:hi], fp[lo:hi], index, keep, kept_tp, kept_fp))
        release(tp[lo:hi])
        release(fp[lo:hi])
    return keep, float(np.max(bounds))  # (a NaN would show, as in one pass)


def _path_in_blocks(tp: np.ndarray, fp: np.ndarray) -> Iterator[tuple[int, float, np.ndarray]]:
    """The cumulative Davis–Goadrich path length, block by block: ``(offset, length before
    the block, cumulative length at each point of the block)``.

    Each block's sums go on from the previous block's total, the same additions as one
    ``cumsum`` of every step, so two walks give the same values bit for bit: a curve on disk
    is walked once for the total and once to place the points (:func:`spread_indices` per
    block), instead of writing the lengths out (a file of the curve's length, which the
    kernel throttles at a few GB of writes) and reading them back.
    """
    k = tp.shape[0]
    n_pos = np.float64(tp[-1])
    prev, total = None, 0.0
    for lo in range(0, k, BOUND_BLOCK):
        t, f = tp[lo : lo + BOUND_BLOCK], fp[lo : lo + BOUND_BLOCK]
        precision = t / np.add(t, f, dtype=np.float64)
        recall = t / n_pos
        steps = path_steps(recall, precision, (recall[0], precision[0]) if prev is None else prev)
        cum = np.cumsum(np.concatenate([[total], steps]))[1:]
        release(tp[lo : lo + BOUND_BLOCK])
        release(fp[lo : lo + BOUND_BLOCK])
        yield lo, total, cum
        prev, total = (recall[-1], precision[-1]), float(cum[-1])


#: Segments per block of :func:`thin_indices`'s bound (its temporaries: a few dozen arrays of
#: this length, instead of the whole curve's: 470 MB at 6.6·10⁶ points).
BOUND_BLOCK = 1 << 16
