"""Thresholds of the two decision rules, compared exactly with scores of any numeric dtype.

NumPy compares an int64 array with a float64 array by rounding the integers to float64, so
``2**53 + 1 >= 2.0**53`` and distinct scores above 2**53 can look equal.  A curve's thresholds
must select exactly the instances of their operating point, so here a threshold is first turned
into a bound of the scores' own dtype (the ceiling of a float threshold for integer scores, the
nearest double on the right side of an integer threshold for float scores), and only then
compared.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

__all__ = ["count_index", "rule_thresholds"]


def _exact_float_dtype() -> np.dtype | None:
    """A float dtype holding every int64 and uint64 exactly, if the platform has one."""
    info = np.finfo(np.longdouble)
    return np.dtype(np.longdouble) if info.nmant >= 63 else None


def rule_thresholds(thresholds: np.ndarray, rule: str) -> np.ndarray:
    """Label decreasing distinct scores for the rule ``score >= t`` (as is) or ``score > t``.

    For ``"gt"`` point ``i`` is labelled by the next lower score and the last point by a value
    below every score: ``-inf`` for float scores, ``min - 1`` for integer scores (their dtype is
    kept, or widened to int64).  When the lowest integer score is the minimum of int64 (or 0 for
    large uint64 scores), no integer lies below it: the thresholds become floats, float64 when
    that is exact and otherwise the platform's extended precision (exact for 64-bit integers on
    x86-64 and most Linux platforms; elsewhere they are rounded to float64).
    """
    if rule == "ge":
        return thresholds
    if thresholds.dtype.kind in "iu":
        low = int(thresholds[-1])
        for dt in (thresholds.dtype, np.dtype(np.int64)):
            info = np.iinfo(dt)
            if low - 1 >= info.min and int(thresholds[0]) <= info.max:
                shifted = thresholds.astype(dt)
                return np.concatenate([shifted[1:], np.array([low - 1], dtype=dt)])
        limit = 2**53
        if int(thresholds[0]) <= limit and low >= -limit:
            thresholds = thresholds.astype(np.float64)
        else:
            thresholds = thresholds.astype(_exact_float_dtype() or np.float64)
    else:
        thresholds = thresholds.astype(np.result_type(thresholds.dtype, np.float32))
    return np.concatenate([thresholds[1:], np.array([-np.inf], dtype=thresholds.dtype)])


def count_index(ascending: np.ndarray, t: np.ndarray, rule: str) -> np.ndarray:
    """For each threshold, the number of distinct scores it does *not* select.

    ``ascending`` holds the distinct scores in increasing order; threshold ``t`` selects the
    scores ``>= t`` (rule ``"ge"``) or ``> t`` (``"gt"``), exactly, whatever the two dtypes.
    The result is ``np.searchsorted(ascending, t, side)`` computed without rounding.
    """
    side: Literal["left", "right"] = "left" if rule == "ge" else "right"
    if t.dtype.kind == "b":
        t = t.astype(np.int64)
    if ascending.dtype.kind in "iu":
        return _against_integers(ascending, t, rule, side)
    if t.dtype.kind in "iu":
        t = _integers_as_floats(t, np.result_type(ascending.dtype, np.float64), rule)
    common = np.result_type(ascending.dtype, t.dtype)
    return np.searchsorted(ascending.astype(common, copy=False), t.astype(common), side=side)


def _against_integers(
    ascending: np.ndarray, t: np.ndarray, rule: str, side: Literal["left", "right"]
) -> np.ndarray:
    dt = ascending.dtype
    info = np.iinfo(dt)
    if t.dtype.kind == "f":
        # score >= t  <=>  score >= ceil(t);   score > t  <=>  score > floor(t)
        t = np.ceil(t) if rule == "ge" else np.floor(t)
        below = t < float(info.min)
        above = t >= float(info.max + 1)  # a power of two: exact in every float dtype
    else:
        below = t < info.min  # NumPy compares with Python ints exactly
        above = t > info.max
    inside = ~(below | above)
    bound = np.full(t.shape, info.min, dtype=dt)
    bound[inside] = t[inside].astype(dt)
    out = np.searchsorted(ascending, bound, side=side)
    out[below] = 0
    out[above] = ascending.shape[0]
    return out


def _integers_as_floats(t: np.ndarray, ftype: np.dtype, rule: str) -> np.ndarray:
    """Floats ``f`` with ``score >= f <=> score >= t`` ("ge") or ``score > f <=> score > t``.

    That is the smallest float >= t, or the largest float <= t, in ``ftype``.
    """
    wide = t.astype(np.uint64 if t.dtype.kind == "u" else np.int64)
    f = wide.astype(ftype)
    if np.finfo(ftype).nmant >= 63:
        return f
    top = ftype.type(2.0**64 if wide.dtype.kind == "u" else 2.0**63)
    fits = f < top
    back = np.where(fits, f, 0).astype(wide.dtype)
    if rule == "ge":
        return np.where(fits & (back < wide), np.nextafter(f, ftype.type(np.inf)), f)
    return np.where(~fits | (back > wide), np.nextafter(f, ftype.type(-np.inf)), f)
