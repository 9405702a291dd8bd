"""Davis–Goadrich interpolation between PR operating points, and its exact area.

Between operating points A and B the counts move along a straight line in (TP, FP) space:
``TP = TP_A + x``, ``FP = FP_A + x * (FP_B - FP_A) / (TP_B - TP_A)``, ``0 <= x <= TP_B - TP_A``
(Davis & Goadrich 2006, section 4).  Precision along it is ``(a + x) / (d + c x)`` with
``a = TP_A``, ``d = TP_A + FP_A`` and ``c = 1 + local skew``; it is *not* linear in recall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._results import compact_repr

__all__ = [
    "InterpolatedPoints",
    "dg_interpolate",
    "dg_precision",
    "dg_segment_areas",
    "interpolate_counts",
]


@compact_repr
@dataclass(frozen=True)
class InterpolatedPoints:
    """Points on a Davis–Goadrich interpolated PR curve, all arrays of one length.

    Attributes
    ----------
    tp, fp : ndarray of float
        Interpolated (possibly fractional) counts.
    recall, precision : ndarray of float
    """

    tp: np.ndarray
    fp: np.ndarray
    recall: np.ndarray
    precision: np.ndarray


def dg_precision(tp_a, fp_a, tp_b, fp_b, tp) -> np.ndarray:
    """Precision at true-positive count ``tp`` on the segment from A to B (broadcasting).

    Where A is the origin (no instance predicted positive) the precision along the segment is
    constant, ``1 / (1 + skew)``, and that value is returned at ``tp = 0`` too.
    """
    tp_a, fp_a, tp_b, fp_b, tp = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.float64) for v in (tp_a, fp_a, tp_b, fp_b, tp))
    )
    dtp = tp_b - tp_a
    rising = dtp > 0
    safe = np.where(rising, dtp, 1.0)
    # FP = FP_A + x * (FP_B - FP_A) / (TP_B - TP_A), with x / (TP_B - TP_A) in [0, 1] formed
    # first: the local skew itself may overflow (a tiny TP step beside a huge FP step)
    frac = np.where(rising, (tp - tp_a) / safe, 0.0)
    num = tp
    # TP + FP with FP formed on its own, so that rounding never makes the precision exceed 1
    den = tp + (fp_a + frac * (fp_b - fp_a))
    step = dtp + (fp_b - fp_a)
    limit = np.where(rising & (step > 0), dtp / np.where(step > 0, step, 1.0), 1.0)
    # FP = 0 on the segment: den = TP_A + frac·ΔTP may round just below tp (precision 1 + ulp)
    return np.where(den > 0, np.minimum(num / np.where(den > 0, den, 1.0), 1.0), limit)


def dg_segment_areas(tp_a, fp_a, tp_b, fp_b) -> np.ndarray:
    """Exact ``∫ precision dTP`` over each Davis–Goadrich segment (in TP units).

    Divide by ``n_pos`` for an area in recall units.  Works for fractional (weighted) counts.

    Notes
    -----
    With ``a = TP_A``, ``d = TP_A + FP_A``, ``c = 1 + (FP_B - FP_A)/(TP_B - TP_A)`` and
    ``Δ = TP_B - TP_A`` the integral is ``Δ/c + (a - d/c)/c · ln(1 + cΔ/d)``.  It is evaluated
    as ``Δ · [p_A · L + (1 - L)/c]`` with ``L = ln(1+u)/u``, ``u = cΔ/d``: a weighted mean of
    the start precision ``p_A = a/d`` and the asymptotic precision ``1/c``, free of cancellation.
    When ``d = 0`` (segment from the origin) precision is constant and the area is ``Δ/c``.
    A vertical segment (``Δ = 0``) has no area.
    """
    tp_a, fp_a, tp_b, fp_b = (np.asarray(v, dtype=np.float64) for v in (tp_a, fp_a, tp_b, fp_b))
    delta = tp_b - tp_a
    rising = delta > 0
    # c·Δ = Δ + (FP_B − FP_A) is the growth of TP + FP along the segment; 1/c = Δ / (c·Δ).
    # Neither overflows, unlike c itself when Δ is tiny beside FP_B − FP_A.
    growth = np.where(rising, delta + (fp_b - fp_a), 1.0)
    inv_c = np.where(rising, delta, 1.0) / growth
    d = tp_a + fp_a
    has_d = d > 0
    safe_d = np.where(has_d, d, 1.0)
    with np.errstate(over="ignore"):
        u = growth / safe_d
    # u = inf only for subnormal counts: the segment then behaves as one from the origin
    u = np.minimum(u, np.finfo(np.float64).max)
    small = u < 1e-4
    safe_u = np.where(small, 1.0, u)
    su = np.where(small, u, 0.0)  # series variable, zero where unused (no overflow)
    log_ratio = np.where(small, 1.0 - su / 2 + su * su / 3, np.log1p(safe_u) / safe_u)
    one_minus = np.where(small, su / 2 - su * su / 3 + su**3 / 4, 1.0 - log_ratio)
    p_a = tp_a / safe_d
    area = np.where(has_d, delta * (p_a * log_ratio + one_minus * inv_c), delta * inv_c)
    return np.where(rising, area, 0.0)


def dg_interpolate(tp_a: Any, fp_a: Any, tp_b: Any, fp_b: Any, n_pos: Any) -> InterpolatedPoints:
    """Intermediate PR points between two confusion matrices at unit TP steps.

    Parameters
    ----------
    tp_a, fp_a : float
        Counts at the first point A (``tp_a <= tp_b``, ``fp_a <= fp_b``).
    tp_b, fp_b : float
        Counts at the second point B.
    n_pos : float
        Number of positives, to turn TP into recall.

    Returns
    -------
    InterpolatedPoints
        Points A, A+1, A+2, ... and B (``TP_B - TP_A + 1`` rows for integer counts).

    Notes
    -----
    Davis & Goadrich (2006), section 4 and Table 1: the false positives grow by the local skew
    ``(FP_B - FP_A)/(TP_B - TP_A)`` for every additional true positive.

    Examples
    --------
    >>> from prcurve import dg_interpolate
    >>> pts = dg_interpolate(5, 5, 10, 30, n_pos=20)
    >>> pts.precision.round(3).tolist()
    [0.5, 0.375, 0.318, 0.286, 0.265, 0.25]
    """
    vals = [float(v) for v in (tp_a, fp_a, tp_b, fp_b, n_pos)]
    if not all(np.isfinite(vals)):
        raise ValueError(f"dg_interpolate: expected finite counts, got {vals}")
    ta, fa, tb, fb, npos = vals
    if min(ta, fa) < 0:
        raise ValueError(f"tp_a, fp_a: expected non-negative counts, got {ta} and {fa}")
    if tb < ta or fb < fa:
        raise ValueError(
            f"tp_b, fp_b: expected counts at least those of A ({ta}, {fa}), got ({tb}, {fb})"
        )
    if not npos >= tb or npos <= 0:
        raise ValueError(f"n_pos: expected a positive total at least tp_b={tb}, got {npos}")
    top = max(tb, fb, npos)
    if top < 2.0**-500:
        # subnormal counts have lost their precision: rescale exactly by a power of two (the
        # ratios do not change) and report the counts in the caller's units
        k = -int(np.frexp(top)[1])
        pts = dg_interpolate(*(math.ldexp(v, k) for v in (ta, fa, tb, fb, npos)))
        return InterpolatedPoints(
            tp=np.ldexp(pts.tp, -k),
            fp=np.ldexp(pts.fp, -k),
            recall=pts.recall,
            precision=pts.precision,
        )
    steps = np.arange(ta, tb, 1.0)
    tp = np.append(steps, tb) if tb > ta else np.array([ta])
    if tb == ta and fb > fa:  # vertical segment: the two end points
        tp = np.array([ta, tb])
        fp = np.array([fa, fb])
    else:
        # (tp - ta) / (tb - ta) in [0, 1] first: the local skew itself may overflow
        fp = fa + ((tp - ta) / (tb - ta)) * (fb - fa) if tb > ta else np.full_like(tp, fa)
    prec = dg_precision(ta, fa, tb, fb, tp)
    if tb == ta and fb > fa:
        prec = np.where(tp + fp > 0, tp / np.maximum(tp + fp, 1e-300), 0.0)
    return InterpolatedPoints(tp=tp, fp=fp, recall=tp / npos, precision=prec)


def interpolate_counts(
    tp: np.ndarray, fp: np.ndarray, n_pos: float, recall: np.ndarray
) -> np.ndarray:
    """Precision of the interpolated curve through (0, 0) and the points (tp, fp) at ``recall``.

    Where several points share a recall (a vertical drop) the highest precision is returned (the
    curve read from its upper envelope).  At recall 0 the value is the limit from the right.
    """
    ctp = np.concatenate([[0.0], np.asarray(tp, dtype=np.float64)])
    cfp = np.concatenate([[0.0], np.asarray(fp, dtype=np.float64)])
    target = np.asarray(recall, dtype=np.float64) * n_pos
    last = ctp.shape[0] - 1
    # recall·n₊ may round just past a point's TP (fractional weights): match points within a few
    # ulp, so the upper value at a vertical drop is read as documented
    tol = 8 * np.finfo(np.float64).eps
    end = np.where(
        target > 0,
        np.searchsorted(ctp, target * (1 - tol), side="left"),
        np.searchsorted(ctp, 0.0, side="right"),
    )
    end = np.clip(end, 1, last)
    target = np.minimum(target, ctp[last])
    exact = (target > 0) & (np.abs(ctp[end] - target) <= tol * target)
    on_segment = dg_precision(ctp[end - 1], cfp[end - 1], ctp[end], cfp[end], target)
    at_point = ctp[end] / np.maximum(ctp[end] + cfp[end], np.finfo(float).tiny)
    return np.where(exact, at_point, on_segment)
