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


def _previous(values: np.ndarray) -> np.ndarray:
    return np.concatenate([[0.0], values[:-1]])


def prroc_dg_area(counts: BinaryCounts) -> float:
    """PRROC's ``auc.davis.goadrich``."""
    tp = counts.tp.astype(np.float64)
    fp = counts.fp.astype(np.float64)
    tp_prev, fp_prev = _previous(tp), _previous(fp)
    p = tp / (tp + fp)
    p_prev = np.divide(
        tp_prev, tp_prev + fp_prev, out=np.zeros_like(tp), where=tp_prev + fp_prev > 0
    )
    terms = (tp - tp_prev) * (p_prev + p) / 2
    terms[0] = tp[0] * p[0]  # from TP = FP = 0: the rectangle at the first point's precision
    expand = (tp - tp_prev > 1) & (p != p_prev)
    expand[0] = False
    if expand.any():
        terms[expand] = _dg_step_trapezoids(
            tp_prev[expand], fp_prev[expand], tp[expand], fp[expand]
        )
    return float(np.sum(terms) / counts.n_pos)


def auc_jar_area(counts: BinaryCounts) -> float:
    """auc.jar's ``calculateAUCPR(0)``."""
    keep = counts.tp > 0
    tp = counts.tp[keep].astype(np.float64)
    fp = counts.fp[keep].astype(np.float64)
    start = tp[0] * tp[0] / (tp[0] + fp[0])
    steps = _dg_step_trapezoids(tp[:-1], fp[:-1], tp[1:], fp[1:])
    return float((start + np.sum(steps)) / counts.n_pos)


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
    """precrec's AUC of the precision-recall curve: the trapezoid rule over its points."""
    rec, prec, _, _ = precrec_points(counts, x_bins=x_bins)
    return float(np.sum(np.diff(rec) * (prec[1:] + prec[:-1])) / 2)
