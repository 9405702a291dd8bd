"""Tools that approximate the Davis–Goadrich curve by trapezoids: PRROC (DG), auc.jar, precrec.

All three draw straight lines between points placed on the Davis–Goadrich interpolation (TP and
FP growing together at the segment's local skew), so they approach prcurve's exact
``davis_goadrich`` area from below wherever precision is convex between points; they differ in
where the points are and where the curve starts.

Sources (read, not copied):

* PRROC 1.4, ``R/PRROC.R`` ``compute.pr``: ``auc.davis.goadrich`` is the trapezoid sum over
  the points at integer TP steps of every segment whose TP grows by more than one with a change
  of precision (plain trapezoids elsewhere); the segment from TP = FP = 0 has no defined start
  precision and becomes the rectangle ``ΔTP/n₊ · precision``.  Hard labels, no weights.
* auc.jar (AUCCalculator 0.2 by Davis & Goadrich), ``Confusion.java``: ``sort()`` removes the
  points with TP = 0 (so negatives ranked above every positive cost nothing) and, when the first
  point has TP > 1, puts a point at TP = 1 with the same precision; ``interpolate()`` inserts
  the integer TP steps; ``calculateAUCPR(0)`` is the rectangle from recall 0 to the first point
  at its precision, then trapezoids.
* precrec 0.14, ``src/precrec_plx.cpp``: ``calc_tp_fp``/``solve_ties`` give one point per
  instance, spreading the counts of tied scores evenly over the tied instances;
  ``calc_basic_measures`` gives the first point (recall 0) the precision of the second;
  ``create_prc_curve``/``interpolate_prc`` add Davis–Goadrich points on the recall grid
  ``k/x_bins`` strictly inside each rising segment; ``calc_auc`` is the trapezoid rule.
"""

from __future__ import annotations

import numpy as np

from .._core._blocks import BLOCK, count_blocks
from .._core._counts import BinaryCounts

__all__ = ["auc_jar_area", "precrec_area", "precrec_points", "prroc_dg_area"]


def _dg_step_trapezoids(tp_a, fp_a, tp_b, fp_b) -> np.ndarray:
    """Per segment, the trapezoid sum (in TP units) over its Davis–Goadrich points at
    ``TP_A + x``, ``x = 0, 1, …, ΔTP`` (integer counts; ``TP_A + FP_A > 0``)."""
    delta = np.rint(tp_b - tp_a).astype(np.intp)
    m = delta.shape[0]
    if m == 0:
        return np.zeros(0)
    seg = np.repeat(np.arange(m), delta)
    starts = np.cumsum(delta) - delta
    x = (np.arange(seg.shape[0]) - starts[seg]).astype(np.float64)
    a, f = tp_a[seg].astype(np.float64), fp_a[seg].astype(np.float64)
    skew = (fp_b - fp_a)[seg] / delta[seg]
    p0 = (a + x) / (a + x + f + skew * x)
    p1 = (a + x + 1) / (a + x + 1 + f + skew * (x + 1))
    return np.bincount(seg, weights=(p0 + p1) / 2, minlength=m)


def _blocks(counts: BinaryCounts, keep_tp0: bool = True):
    """:func:`~prcurve._core._blocks.count_blocks` of the counts, in blocks of :data:`_BLOCK`
    points; ``keep_tp0=False`` drops the points with TP = 0 first (auc.jar's ``sort()``)."""
    tp_all, fp_all = counts.tp, counts.fp
    if not keep_tp0:
        start = int(np.searchsorted(tp_all, 0, side="right"))  # TP is non-decreasing
        tp_all, fp_all = tp_all[start:], fp_all[start:]
    return count_blocks(tp_all, fp_all, block=_BLOCK)


def prroc_dg_area(counts: BinaryCounts) -> float:
    """PRROC's ``auc.davis.goadrich`` (in blocks of points: O(block) temporaries)."""
    total = 0.0
    for i, (tp_prev, fp_prev, tp, fp) in enumerate(_blocks(counts)):
        p = tp / (tp + fp)
        p_prev = np.divide(
            tp_prev, tp_prev + fp_prev, out=np.zeros_like(tp), where=tp_prev + fp_prev > 0
        )
        terms = (tp - tp_prev) * (p_prev + p) / 2
        expand = (tp - tp_prev > 1) & (p != p_prev)
        if i == 0:  # from TP = FP = 0: the rectangle at the first point's precision
            terms[0] = tp[0] * p[0]
            expand[0] = False
        if expand.any():
            terms[expand] = _dg_step_trapezoids(
                tp_prev[expand], fp_prev[expand], tp[expand], fp[expand]
            )
        total += float(np.sum(terms))
    return total / counts.n_pos


def auc_jar_area(counts: BinaryCounts) -> float:
    """auc.jar's ``calculateAUCPR(0)`` (in blocks of points: O(block) temporaries)."""
    total = 0.0
    for i, (tp_prev, fp_prev, tp, fp) in enumerate(_blocks(counts, keep_tp0=False)):
        if i == 0:  # the rectangle from recall 0 to the first point kept, at its precision
            total += tp[0] * tp[0] / (tp[0] + fp[0])
            tp_prev, fp_prev, tp, fp = tp_prev[1:], fp_prev[1:], tp[1:], fp[1:]
        total += float(np.sum(_dg_step_trapezoids(tp_prev, fp_prev, tp, fp)))
    return float(total / counts.n_pos)


def _instance_points(counts: BinaryCounts) -> tuple[np.ndarray, np.ndarray]:
    """precrec's per-instance counts: point 0 is (0, 0); tied instances share their group's
    counts in equal steps."""
    tp = counts.tp.astype(np.float64)
    fp = counts.fp.astype(np.float64)
    dtp, dfp = np.diff(tp, prepend=0.0), np.diff(fp, prepend=0.0)
    size = np.rint(dtp + dfp).astype(np.intp)
    group = np.repeat(np.arange(size.shape[0]), size)
    j = np.arange(1, group.shape[0] + 1) - np.repeat(np.cumsum(size) - size, size)
    share = j / size[group]
    itp = np.concatenate([[0.0], (tp - dtp)[group] + dtp[group] * share])
    ifp = np.concatenate([[0.0], (fp - dfp)[group] + dfp[group] * share])
    return itp, ifp


def precrec_points(counts: BinaryCounts, *, x_bins: int) -> tuple[np.ndarray, ...]:
    """precrec's PRC points, in order: recall, precision, TP and FP of each (grid points carry
    the Davis–Goadrich counts ``TP_A + x``, ``FP_A + skew·x``)."""
    n_pos = float(counts.n_pos)
    tp, fp = _instance_points(counts)
    prec = np.empty_like(tp)
    prec[1:] = tp[1:] / (tp[1:] + fp[1:])
    prec[0] = prec[1]
    rec = tp / n_pos
    if x_bins > 0:
        # grid recalls k / x_bins strictly between the ends of each rising segment i-1 -> i
        lo = np.floor(rec[:-1] * x_bins).astype(np.int64) + 1
        hi = np.ceil(rec[1:] * x_bins).astype(np.int64) - 1
        n_grid = np.where(rec[1:] > rec[:-1], np.maximum(hi - lo + 1, 0), 0)
    else:
        lo = n_grid = np.zeros(rec.shape[0] - 1, dtype=np.int64)
    seg = np.repeat(np.arange(1, rec.shape[0]), n_grid)  # the segment's end point
    k = lo[seg - 1] + np.arange(seg.shape[0]) - np.repeat(np.cumsum(n_grid) - n_grid, n_grid)
    g = k / x_bins if x_bins > 0 else np.zeros(0)
    x = (g - rec[seg - 1]) * n_pos
    a, f = tp[seg - 1], fp[seg - 1]
    skew = np.divide(fp[seg] - f, tp[seg] - a, out=np.zeros_like(g), where=tp[seg] > a)
    g_prec = np.where(prec[seg] == prec[seg - 1], prec[seg], (a + x) / (a + x + f + skew * x))
    # merge: point 0, then for each segment its grid points and its end point
    at = np.arange(rec.shape[0]) + np.concatenate([[0], np.cumsum(n_grid)])
    size = rec.shape[0] + seg.shape[0]
    out = np.empty((4, size))
    is_point = np.zeros(size, dtype=bool)
    is_point[at] = True
    out[:, at] = rec, prec, tp, fp
    out[:, ~is_point] = g, g_prec, a + x, f + skew * x
    return out[0], out[1], out[2], out[3]


def precrec_area(counts: BinaryCounts, *, x_bins: int) -> float:
    """precrec's AUC of the precision-recall curve: the trapezoid rule over its points.

    Equal to the trapezoid sum over :func:`precrec_points` (to rounding), computed per group of
    tied scores instead of per instance: O(distinct scores + x_bins) time and memory where the
    points are O(rows) (at 10⁷ rows the points took seconds and hundreds of megabytes).

    Inside a group of ``s`` tied instances that starts at counts ``(a, f)`` and adds ``Δtp``
    positives, instance ``j`` sits at TP ``a + c·j`` (``c = Δtp/s``) with ``TP + FP = b + j``
    (``b = a + f``): its precision is ``c + (a − c·b)/(b + j)``, so the group's trapezoids sum to
    ``c/n₊ · [(p₀ + p_s)/2 + (s − 1)·c + (a − c·b)·S]`` with ``S = Σ_{j=1}^{s−1} 1/(b + j) =
    ψ(b + s) − ψ(b + 1)`` (ψ the digamma function; from ``b = 100`` its asymptotic series
    around ``b + ½``, which keeps the difference to relative 1e-16 where two ψ values would
    cancel).  The grid points precrec adds (recall ``k/x_bins`` strictly inside a rising
    instance segment) each split one segment's trapezoid; they are placed and interpolated as
    :func:`precrec_points` places them, and the split trapezoids replace the segment's.
    """
    n_pos = float(counts.n_pos)
    area, p_before = 0.0, None
    for a, f, tp, fp in _blocks(counts):  # each group's start (a, f) and end (tp, fp)
        dtp, dfp = tp - a, fp - f
        size = np.rint(dtp + dfp)
        b = a + f  # the group's start: TP + FP
        c = dtp / size
        p_end = tp / (tp + fp)
        # precrec: point 0 has point 1's precision (the first group's c)
        p_start = np.concatenate([[c[0] if p_before is None else p_before], p_end[:-1]])
        inner = (size - 1) * c + (a - c * b) * _harmonic_gap(b, size - 1)
        area += float(np.sum(c / n_pos * ((p_start + p_end) / 2 + inner)))
        p_before = p_end[-1]
    if x_bins > 0:
        area += _grid_correction(counts, n_pos, x_bins)
    return area


#: Points (groups) per block of the areas summed in blocks (monkeypatched by the tests).
_BLOCK = BLOCK


def _harmonic_gap(b: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``Σ_{j=1}^{m} 1/(b + j) = ψ(b + m + 1) − ψ(b + 1)`` (0 where ``m = 0``): from ``b = 100``
    (where the two ψ values would cancel) ψ's asymptotic series at ``z − ½``, terms to ``z⁻⁶``,
    about 2e-16 relative against 40-digit values; below, the two ψ values, about 1e-14."""
    from scipy.special import digamma

    out = np.zeros_like(b)
    big = (m > 0) & (b >= 100)
    x, y = b[big] + m[big] + 0.5, b[big] + 0.5

    def tail(z: np.ndarray) -> np.ndarray:
        z2 = 1.0 / (z * z)
        return z2 * (1 / 24 - z2 * (7 / 960 - z2 * (31 / 8064)))

    out[big] = np.log1p(m[big] / y) + (tail(x) - tail(y))
    small = (m > 0) & (b < 100)
    out[small] = digamma(b[small] + m[small] + 1) - digamma(b[small] + 1)
    return out


def _grid_correction(counts: BinaryCounts, n_pos: float, x_bins: int) -> float:
    """What precrec's recall-grid points add to the trapezoid sum over the instance points.

    Grid value ``k`` lies strictly inside the instance segment ``j − 1 → j`` when
    ``rec[j−1]·x_bins < k < rec[j]·x_bins`` (the floor/ceil rule of :func:`precrec_points`, with
    the instance recalls computed by the same floating-point steps); it is found by a binary
    search over the groups and a step inside its group, and each segment's trapezoid is
    replaced by the trapezoids through its grid points.
    """
    k = np.arange(1, x_bins, dtype=np.float64)
    group = _first_above(counts.tp, n_pos, x_bins, k)
    tp_all = counts.tp
    end = tp_all[group].astype(np.float64)
    before = np.where(group > 0, tp_all[np.maximum(group - 1, 0)], 0).astype(np.float64)
    d_tp = end - before
    fp_end = counts.fp[group].astype(np.float64)
    fp_before = np.where(group > 0, counts.fp[np.maximum(group - 1, 0)], 0).astype(np.float64)
    d_fp = fp_end - fp_before
    s = np.rint(d_tp + d_fp)
    a, f = end - d_tp, fp_end - d_fp

    def instance(j: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        share = j / s
        return a + d_tp * share, f + d_fp * share

    # first instance j of the group with rec[j]·x_bins > k (the group's end, j = s, if none
    # before): a binary search on the instance recalls as precrec_points computes them
    j = _first_true(
        lambda j: instance(j.astype(np.float64))[0] / n_pos * x_bins > k,
        np.ones(k.shape[0], dtype=np.intp),
        s.astype(np.intp),
    ).astype(np.float64)
    tp1, fp1 = instance(j)
    tp0, fp0 = instance(j - 1)
    r0, r1 = tp0 / n_pos, tp1 / n_pos
    inside = (r0 * x_bins < k) & (k < r1 * x_bins)
    if not inside.any():
        return 0.0
    k, group, j = k[inside], group[inside], j[inside]
    tp0, fp0, tp1, fp1, r0, r1 = (v[inside] for v in (tp0, fp0, tp1, fp1, r0, r1))
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = tp1 / (tp1 + fp1)
        p0 = tp0 / (tp0 + fp0)
    first = (group == 0) & (j == 1)  # the segment from point 0, whose precision is point 1's
    p0 = np.where(first, p1, p0)
    g = k / x_bins
    x = (g - r0) * n_pos
    skew = np.divide(fp1 - fp0, tp1 - tp0, out=np.zeros_like(g), where=tp1 > tp0)
    q = np.where(p1 == p0, p1, (tp0 + x) / (tp0 + x + fp0 + skew * x))
    # per segment (consecutive equal (group, j)): r0, g₁…g_q, r1 against r0, r1
    new_seg = np.ones(k.shape[0], dtype=bool)
    new_seg[1:] = (group[1:] != group[:-1]) | (j[1:] != j[:-1])
    last = np.ones(k.shape[0], dtype=bool)
    last[:-1] = new_seg[1:]
    prev_r = np.where(new_seg, r0, np.concatenate([[0.0], g[:-1]]))
    prev_p = np.where(new_seg, p0, np.concatenate([[0.0], q[:-1]]))
    split = np.sum((g - prev_r) * (q + prev_p)) + np.sum(((r1 - g) * (p1 + q))[last])
    whole = np.sum(((r1 - r0) * (p1 + p0))[last])
    return float((split - whole) / 2)


def _first_above(tp: np.ndarray, n_pos: float, x_bins: int, k: np.ndarray) -> np.ndarray:
    """For each grid value ``k``: the first group whose end recall ``tp/n_pos`` (as computed
    in :func:`precrec_points`) times ``x_bins`` is above ``k`` (the last group if none is).

    The predicate is that float expression itself, monotone in the group (TP never decreases),
    so a binary search on it finds the first group exactly, however many groups share a TP.
    """
    last = tp.shape[0] - 1
    return _first_true(
        lambda j: np.asarray(tp[j], dtype=np.float64) / n_pos * x_bins > k,
        np.zeros(k.shape[0], dtype=np.intp),
        np.full(k.shape[0], last, dtype=np.intp),
    )


def _first_true(pred, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per element, the first index in ``[lo, hi]`` where the monotone ``pred`` holds (``hi``
    if it holds nowhere before): a vectorised binary search, ``pred`` taking index arrays."""
    lo, hi = lo.copy(), hi.copy()
    while True:
        open_ = lo < hi
        if not open_.any():
            return lo
        mid = (lo + hi) // 2
        ok = pred(mid)
        hi = np.where(open_ & ok, mid, hi)
        lo = np.where(open_ & ~ok, mid + 1, lo)
