"""Partial AUC-PR over a recall range, and the curve at a deployment prevalence.

Partial areas are written for the rows of (b, k) count matrices, like ``_area``: each estimator's
curve is cut at the recall limits and integrated exactly.

* ``davis_goadrich``: each Davis–Goadrich segment is a straight line in (TP, FP) space, so the
  part of it inside the range is again such a segment, whose area is the closed form of
  :func:`prcurve._core._interpolation.dg_segment_areas`.
* ``average_precision``: the step function worth ``P_k`` on ``(R_{k−1}, R_k]``; each step counts
  with the length of its overlap with the range.
* ``trapezoid`` and ``lower_trapezoid``: straight lines in PR space, integrated exactly on the
  overlap.
* ``interpolated_median`` is not offered: its curve is defined through medians of groups of
  points, and a range cutting a group has no agreed meaning.

A deployment prevalence π is obtained by weighting every negative by
``w = n₊ (1 − π) / (π n₋)``: TPR and FPR are unchanged, FP becomes ``w·FP`` and precision
``TP / (TP + w·FP)``; every area then follows from the reweighted counts exactly.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._area import _distinct_points, _previous, area_from_counts
from ._interpolation import dg_segment_areas
from ._validation import check_fraction

__all__ = [
    "PARTIAL_METHODS",
    "batched_partial_area",
    "check_prevalence",
    "check_recall_limits",
    "negative_factor",
]

#: Estimators that have a partial area (see the module docstring).
PARTIAL_METHODS = ("average_precision", "davis_goadrich", "trapezoid", "lower_trapezoid")


def check_recall_limits(recall_range: Any, *, open_ends: bool = False) -> tuple[float, float]:
    """A pair ``(a, b)`` with ``0 <= a < b <= 1`` (``0 < a < b < 1`` with ``open_ends``)."""
    try:
        low, high = recall_range
    except (TypeError, ValueError):
        low = high = None
    if any(isinstance(v, bool) or not isinstance(v, numbers.Real) for v in (low, high)):
        raise TypeError(
            f"recall_range: expected a pair (low, high) of numbers, got {recall_range!r}"
        )
    low, high = float(low), float(high)
    if open_ends and not (0 < low < 1 and 0 < high < 1):
        raise ValueError(f"recall_range: expected both ends inside (0, 1), got ({low!r}, {high!r})")
    if not (0 <= low <= 1 and 0 <= high <= 1):
        raise ValueError(f"recall_range: expected both ends in [0, 1], got ({low!r}, {high!r})")
    if not low < high:
        raise ValueError(f"recall_range: expected low < high, got ({low!r}, {high!r})")
    return low, high


def check_prevalence(prevalence: Any, name: str = "prevalence") -> float:
    """A deployment prevalence strictly between 0 and 1."""
    return check_fraction(prevalence, name, low_open=True, high_open=True)


def negative_factor(n_pos: Any, n_neg: Any, prevalence: Any) -> Any:
    """Weight ``n₊(1 − π)/(π n₋)`` that gives the negatives the share ``1 − π``.

    For one curve (scalar totals) a weight or a reweighted negative total ``n₊(1 − π)/π`` that
    overflows (π subnormal, say) is an error naming ``prevalence``, not a silent ``inf``.
    """
    n_pos = np.asarray(n_pos, dtype=np.float64)
    with np.errstate(over="ignore", divide="ignore"):
        total = n_pos * (1 - prevalence) / prevalence
        factor = total / np.asarray(n_neg, dtype=np.float64)
    if np.ndim(factor) == 0 and not (np.isfinite(factor) and np.isfinite(total)):
        raise ValueError(
            "prevalence: expected a prevalence whose negative weight n₊(1 − π)/(π n₋) is "
            f"finite, got {prevalence!r} (n₊ = {float(n_pos):g}, n₋ = {float(n_neg):g})"
        )
    return factor


def _linear_overlap(r0, p0, r1, p1, lo, hi):
    """``∫ p`` over ``[r0, r1] ∩ [lo, hi]`` for the line from (r0, p0) to (r1, p1)."""
    a = np.clip(lo, r0, r1)
    b = np.clip(hi, r0, r1)
    width = r1 - r0
    slope = (p1 - p0) / np.where(width > 0, width, 1.0)
    pa, pb = p0 + (a - r0) * slope, p0 + (b - r0) * slope
    return np.where((width > 0) & (b > a), (b - a) * (pa + pb) / 2, 0.0)


def batched_partial_area(
    tp: np.ndarray,
    fp: np.ndarray,
    n_pos: np.ndarray,
    method: str,
    low: float,
    high: float,
) -> np.ndarray:
    """Area under each row's curve between recalls ``low`` and ``high`` (not normalised).

    Parameters
    ----------
    tp, fp : ndarray, shape (b, k)
        Cumulative counts at decreasing thresholds; repeated points allowed.
    n_pos : ndarray, shape (b,)
    method : str
        One of :data:`PARTIAL_METHODS` (already validated).
    low, high : float
        Recall limits, ``0 <= low < high <= 1``.

    Returns
    -------
    ndarray, shape (b,)
    """
    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    n_pos = np.asarray(n_pos, dtype=np.float64)
    b = tp.shape[0]
    rows, ftp, ffp, first = _distinct_points(tp, fp)
    npos = n_pos[rows]
    if method == "davis_goadrich":
        tpa, fpa = _previous(ftp, first, 0.0), _previous(ffp, first, 0.0)
        lo = np.clip(low * npos, tpa, ftp)
        hi = np.clip(high * npos, tpa, ftp)
        dtp = ftp - tpa
        slope = (ffp - fpa) / np.where(dtp > 0, dtp, 1.0)
        seg = dg_segment_areas(lo, fpa + (lo - tpa) * slope, hi, fpa + (hi - tpa) * slope)
        seg = np.where(hi > lo, seg, 0.0)
        return np.bincount(rows, weights=seg, minlength=b) / n_pos
    r = ftp / npos
    p = ftp / (ftp + ffp)
    rp = _previous(r, first, 0.0)
    if method == "average_precision":
        width = np.clip(np.minimum(r, high) - np.maximum(rp, low), 0.0, None)
        return np.bincount(rows, weights=width * p, minlength=b)
    if method == "trapezoid":
        pp = np.empty_like(p)
        pp[1:] = p[:-1]
        pp[first] = p[first]  # the curve starts at (0, precision of the first point)
    else:  # lower_trapezoid: the point list starts at (0, 1)
        pp = _previous(p, first, 1.0)
    return np.bincount(rows, weights=_linear_overlap(rp, pp, r, p, low, high), minlength=b)


def area_with_options(
    tp: np.ndarray,
    fp: np.ndarray,
    n_pos: float,
    n_neg: float,
    method: str,
    *,
    recall_range: Any = None,
    normalize: bool = False,
    prevalence: Any = None,
) -> float:
    """One curve's (partial, reweighted) area: the shared body of ``auc`` and ``auc_pr``.

    ``method`` is already validated against all estimators; this checks the options.
    """
    if not isinstance(normalize, bool | np.bool_):
        raise TypeError(f"normalize: expected True or False, got {normalize!r}")
    if prevalence is not None:
        pi = check_prevalence(prevalence)
        fp = np.multiply(fp, negative_factor(n_pos, n_neg, pi), dtype=np.float64)
    if recall_range is None:
        if normalize:
            raise ValueError("normalize: expected False without recall_range, got True")
        return area_from_counts(tp, fp, n_pos, method)
    low, high = check_recall_limits(recall_range)
    if method not in PARTIAL_METHODS:
        options = ", ".join(repr(m) for m in PARTIAL_METHODS)
        raise ValueError(
            f"method: expected one of {options} with recall_range (a partial area), got {method!r}"
        )
    rows = batched_partial_area(tp[None, :], fp[None, :], np.array([n_pos]), method, low, high)
    area = float(rows[0])
    return area / (high - low) if normalize else area
