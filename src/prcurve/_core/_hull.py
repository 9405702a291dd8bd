"""ROC convex hull (vectorised) and curve dominance.

The upper convex hull of the ROC points and the origin is found by repeatedly deleting, all at
once, every point that lies on or below the chord joining its two neighbours.  Deleting such a
point never changes the hull, so the loop ends with exactly the strict hull vertices; each pass
is a handful of vectorised operations, and the number of passes is small in practice (every pass
removes every locally non-convex point).  Deleting all at once is sound because no two of the
points left after the first filter coincide (each lies strictly left of every later one, except
the origin below a first point of FP 0): a point on or below the chord of neighbours on either
side of it is no strict vertex, whatever else goes in the same pass.  Two coinciding points
(equal in float64, e.g. after a tiny weight) would each lie "on the chord" of the other, and
both would go.  Cross products of integer counts below 2**31 per axis are
computed in int64 (each product below 2**62: exact); other counts in float64, accurate to
rounding.
"""

from __future__ import annotations

import numpy as np

from ._disk import is_on_disk, release, release_all, remembered, take

__all__ = ["envelope_dominates", "upper_hull_indices"]

#: Points per block of :func:`upper_hull_indices` on a long curve.
BLOCK = 1 << 16


def upper_hull_indices(fp: np.ndarray, tp: np.ndarray, *, block: int = BLOCK) -> np.ndarray:
    """Indices of the operating points that are vertices of the ROC upper convex hull.

    ``fp`` and ``tp`` are cumulative counts at decreasing thresholds (both nondecreasing).  The
    origin (0, 0) is taken as an implicit first vertex and is not among the returned indices.
    The last point (everything predicted positive) is always a vertex.

    A long curve of integer counts below 2**31 is done in blocks of ``block`` points: a strict
    vertex of the hull of all the points (and the origin) is a strict vertex of the hull of any
    subset holding it (the same supporting line leaves the subset's other points below), so
    the hull of each block (with the origin) keeps every vertex, and the hull of those
    candidates is the hull of all.  The temporaries are then a few arrays of one block, not a
    dozen of the curve's length.  Only where the cross products are exact: with rounding
    (weights, larger counts) a point collinear to within it may be judged differently by
    different neighbours, so such curves are done whole, as before -- except a curve on disk
    (:mod:`._disk`), which is longer than memory and done in blocks whatever its counts.
    """
    k = fp.shape[0]
    if k <= 2 * block or not (_exact_counts(fp, tp) or is_on_disk(fp)):
        return _upper_hull(fp, tp)
    # a curve on disk: hulled once (its ROC, PRG and achievable curves and its curve file's
    # thinning all ask for this hull, each a pass over the whole table)
    return remembered((fp, tp), ("upper_hull", block), lambda: _hull_in_blocks(fp, tp, block))


def _hull_in_blocks(fp: np.ndarray, tp: np.ndarray, block: int) -> np.ndarray:
    """:func:`upper_hull_indices` of a long curve: each block's hull, then theirs."""
    k = fp.shape[0]
    parts = []
    for lo in range(0, k, block):
        parts.append(lo + _upper_hull(fp[lo : lo + block], tp[lo : lo + block]))
        release(fp[lo : lo + block])
        release(tp[lo : lo + block])
    candidates = np.concatenate(parts)
    # (gathered a chunk at a time from a curve on disk, its pages handed back as it goes)
    hull = candidates[_upper_hull(take(fp, candidates), take(tp, candidates))]
    release_all()  # a curve on disk: the pages the scattered reads mapped go back
    return hull


#: Integer counts below this are hulled with int64 cross products (each product below 2**62),
#: which are exact; the hull in blocks is then the hull of all the points, bit for bit.
EXACT_LIMIT = 2**31


def _exact_counts(fp: np.ndarray, tp: np.ndarray) -> bool:
    """Integer counts below :data:`EXACT_LIMIT` (the last, largest, point tells)."""
    return (
        fp.dtype.kind in "iu"
        and tp.dtype.kind in "iu"
        and max(int(fp[-1]), int(tp[-1])) < EXACT_LIMIT
    )


def _upper_hull(fp: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """:func:`upper_hull_indices` of all the points at once (see the module docstring)."""
    exact = fp.shape[0] > 0 and _exact_counts(fp, tp)
    dtype = np.int64 if exact else np.float64
    x = np.concatenate([np.zeros(1, dtype), np.asarray(fp, dtype=dtype)])
    y = np.concatenate([np.zeros(1, dtype), np.asarray(tp, dtype=dtype)])
    idx = np.arange(x.shape[0])
    # within a vertical run only the top point, within a horizontal run only the leftmost, can be
    # vertices: drop the others first (cheap, and it removes most points on step-shaped curves).
    # Points that coincide (equal counts in float64, e.g. a weight below the rounding of the
    # cumulative sum) are one point: the vertical rule keeps the last copy, so the horizontal
    # rule only drops a point whose predecessor lies strictly to its left.
    keep = np.ones(x.shape[0], dtype=bool)
    keep[:-1] &= x[1:] != x[:-1]  # a later point has the same fp and at least this tp
    keep[1:] &= (y[1:] != y[:-1]) | (x[1:] == x[:-1])  # an earlier one has this tp, less fp
    keep[0] = keep[-1] = True
    idx = idx[keep]
    while idx.shape[0] > 2:
        px, py = x[idx], y[idx]
        ax, ay = px[:-2], py[:-2]
        bx, by = px[1:-1], py[1:-1]
        cx, cy = px[2:], py[2:]
        cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        concave = cross >= 0  # b on or below the chord a-c: not a strict vertex
        if not concave.any():
            break
        keep = np.ones(idx.shape[0], dtype=bool)
        keep[1:-1] = ~concave
        idx = idx[keep]
    return idx[1:] - 1


def envelope_dominates(
    fpr_a: np.ndarray, tpr_a: np.ndarray, fpr_b: np.ndarray, tpr_b: np.ndarray
) -> bool:
    """Whether piecewise-linear ROC curve A (through the origin) lies nowhere below curve B.

    Both curves are checked at every breakpoint of either, from both sides of vertical jumps.
    """
    xa = np.concatenate([[0.0], fpr_a])
    ya = np.concatenate([[0.0], tpr_a])
    xb = np.concatenate([[0.0], fpr_b])
    yb = np.concatenate([[0.0], tpr_b])
    grid = np.union1d(xa, xb)
    eps = 1e-12
    for side in ("low", "high"):
        va = _curve_value(xa, ya, grid, side)
        vb = _curve_value(xb, yb, grid, side)
        if np.any(va < vb - eps):
            return False
    return True


def _curve_value(x: np.ndarray, y: np.ndarray, grid: np.ndarray, side: str) -> np.ndarray:
    """Lowest (``side='low'``) or highest value of a monotone polyline above each grid x."""
    if side == "low":
        first = np.searchsorted(x, grid, side="left")
        first = np.clip(first, 0, x.shape[0] - 1)
        left = np.clip(first - 1, 0, x.shape[0] - 1)
    else:
        last = np.searchsorted(x, grid, side="right") - 1
        last = np.clip(last, 0, x.shape[0] - 1)
        first = last
        left = np.clip(last + 1, 0, x.shape[0] - 1)
    x0, y0, x1, y1 = x[left], y[left], x[first], y[first]
    span = x1 - x0
    t = np.where(span != 0, (grid - x0) / np.where(span != 0, span, 1.0), 1.0)
    return y0 + np.clip(t, 0.0, 1.0) * (y1 - y0)
