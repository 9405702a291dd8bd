"""AUC-PR point estimators, computed from the engine's cumulative counts.

Every estimator is written once, for the rows of (b, k) count matrices: one curve is a single
row, and a bootstrap block or a Monte Carlo study is many.  A row may repeat an operating point
(a threshold that received no instance in a resample); repeats are dropped, so each row's value
equals the estimator on that row's own curve.  Average precision works directly on the
matrices; the other estimators flatten the distinct points of all rows and sum segment-wise
formulas per row with ``np.bincount``.  See :func:`prcurve.auc_pr` for the definitions.
"""

from __future__ import annotations

import numpy as np

from ._interpolation import dg_segment_areas

__all__ = [
    "AUC_PR_METHODS",
    "area_from_counts",
    "average_precision_from",
    "batched_area",
    "precision_of",
]

#: Names of the AUC-PR estimators, in the order reports list them.
AUC_PR_METHODS = (
    "average_precision",
    "davis_goadrich",
    "trapezoid",
    "lower_trapezoid",
    "interpolated_median",
)


def precision_of(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """``tp / (tp + fp)`` in float64 (defined: every operating point predicts something)."""
    out = np.add(tp, fp, dtype=np.float64)
    return np.divide(tp, out, out=out)


def average_precision_from(tp: np.ndarray, precision: np.ndarray, n_pos: float) -> float:
    """``Σ (R_k − R_{k−1}) P_k`` of one curve, on counts: ``Σ ΔTP_k · P_k / n₊`` (TP_0 = 0).

    The fast path for a single computed curve, which already stores its precision.
    """
    dtp = np.subtract(tp[1:], tp[:-1], dtype=np.float64)
    # at most 1, also when rounding makes the recall steps sum to 1 + 1 ulp
    return min(float((tp[0] * precision[0] + np.dot(dtp, precision[1:])) / n_pos), 1.0)


#: Estimators summing one term per pair of consecutive points that is exactly zero when TP does
#: not change between them (no recall gained): only the pairs around a TP step matter.
SEGMENT_SUMS = ("davis_goadrich", "trapezoid", "lower_trapezoid")


def segment_points(tp: np.ndarray) -> np.ndarray:
    """Indices of the first point and of both ends of every step where TP changes.

    On these points alone the :data:`SEGMENT_SUMS` estimators have the same nonzero terms in
    the same order, so the same value to the last bit; on imbalanced data they are a small
    share of the curve (at most twice the number of distinct positive scores, plus one).

    >>> segment_points(np.array([0, 0, 0, 1, 1, 1, 2])).tolist()
    [0, 2, 3, 5, 6]
    """
    change = tp[1:] != tp[:-1]
    keep = np.empty(tp.shape[0], dtype=bool)
    keep[0] = True
    keep[1:] = change
    keep[:-1] |= change
    return np.flatnonzero(keep)


def area_from_counts(tp: np.ndarray, fp: np.ndarray, n_pos: float, method: str) -> float:
    """One curve's estimate (``method`` already validated)."""
    if method == "average_precision":
        return average_precision_from(tp, precision_of(tp, fp), float(n_pos))
    if method == "interpolated_median":
        return _interpolated_median_one(tp, fp, float(n_pos))
    if method in SEGMENT_SUMS and tp.shape[0] > 2:
        keep = segment_points(tp)
        if keep.shape[0] < tp.shape[0]:
            tp, fp = tp[keep], fp[keep]
    return float(batched_area(tp[None, :], fp[None, :], np.array([float(n_pos)]), method)[0])


def _safe_precision(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    d = tp + fp
    return tp / np.where(d > 0, d, 1.0)


def _average_precision(tp: np.ndarray, fp: np.ndarray, n_pos: np.ndarray) -> np.ndarray:
    dtp = np.empty_like(tp)
    dtp[:, 0] = tp[:, 0]
    np.subtract(tp[:, 1:], tp[:, :-1], out=dtp[:, 1:])
    dtp *= _safe_precision(tp, fp)
    return dtp.sum(axis=1) / n_pos


def _distinct_points(tp: np.ndarray, fp: np.ndarray):
    """Flattened distinct operating points of every row, with row ids and row-start flags."""
    d = tp + fp
    valid = np.empty(d.shape, dtype=bool)
    valid[:, 0] = d[:, 0] > 0
    np.greater(d[:, 1:], d[:, :-1], out=valid[:, 1:])
    rows = np.nonzero(valid)[0]
    ftp, ffp = tp[valid], fp[valid]
    first = np.empty(rows.shape[0], dtype=bool)
    first[0] = True
    np.not_equal(rows[1:], rows[:-1], out=first[1:])
    return rows, ftp, ffp, first


def _previous(values: np.ndarray, first: np.ndarray, start_value: float) -> np.ndarray:
    prev = np.empty_like(values)
    prev[1:] = values[:-1]
    prev[first] = start_value
    return prev


#: Elements per chunk of an elementwise computation over millions of points: its dozen
#: temporaries stay a few megabytes (the values are the same as in one piece).
CHUNK = 1 << 17


def _davis_goadrich(tp, fp, n_pos, b):
    rows, ftp, ffp, first = _distinct_points(tp, fp)
    ptp, pfp = _previous(ftp, first, 0.0), _previous(ffp, first, 0.0)
    seg = np.empty(ftp.shape[0])
    for lo in range(0, ftp.shape[0], CHUNK):
        part = slice(lo, lo + CHUNK)
        seg[part] = dg_segment_areas(ptp[part], pfp[part], ftp[part], ffp[part])
    return np.bincount(rows, weights=seg, minlength=b) / n_pos


def _trapezoid(tp, fp, n_pos, b):
    rows, ftp, ffp, first = _distinct_points(tp, fp)
    r = ftp / n_pos[rows]
    p = ftp / (ftp + ffp)
    rp, pp = _previous(r, first, 0.0), np.empty_like(p)
    pp[1:] = p[:-1]
    pp[first] = p[first]  # the curve starts at (0, precision of the first point)
    return np.bincount(rows, weights=(r - rp) * (p + pp) / 2, minlength=b)


def _lower_trapezoid(tp, fp, n_pos, b):
    # Points (0, 1), then one per threshold.  Within a run of equal recall precision decreases,
    # so consecutive points across a recall change are (minimum of the earlier recall, maximum
    # of the later one): Boyd et al.'s sum is the trapezoid sum over consecutive points.
    rows, ftp, ffp, first = _distinct_points(tp, fp)
    r = ftp / n_pos[rows]
    p = ftp / (ftp + ffp)
    term = (r - _previous(r, first, 0.0)) * (p + _previous(p, first, 1.0)) / 2
    return np.bincount(rows, weights=term, minlength=b)


def _interpolated_median(tp, fp, n_pos, b):
    rows, ftp, ffp, first = _distinct_points(tp, fp)
    # insert the point (TP 0, precision 1) at the start of every row
    m = ftp.shape[0] + b
    at = np.flatnonzero(first) + np.arange(b)
    is_start = np.zeros(m, dtype=bool)
    is_start[at] = True
    atp = np.zeros(m)
    afp = np.zeros(m)
    prec = np.ones(m)
    arow = np.empty(m, dtype=np.intp)
    atp[~is_start] = ftp
    afp[~is_start] = ffp
    prec[~is_start] = ftp / (ftp + ffp)
    arow[~is_start] = rows
    arow[at] = np.arange(b)
    # groups of equal recall within a row
    new = np.empty(m, dtype=bool)
    new[0] = True
    new[1:] = (atp[1:] != atp[:-1]) | (arow[1:] != arow[:-1])
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], m) - 1
    size = ends - starts
    lo, hi = starts + size // 2, starts + (size + 1) // 2
    median = (prec[lo] + prec[hi]) / 2
    gtp, grow = atp[starts], arow[starts]
    # the median point's TP + FP, from counts rather than from 1/median (which overflows when
    # the median precision is subnormal): at equal TP, the mean of two precisions corresponds to
    # the harmonic mean of the two totals, 2·d₁·d₂/(d₁ + d₂)
    total = atp + afp
    d_lo, d_hi = total[lo], total[hi]
    both = d_lo + d_hi
    d_med = np.where(lo == hi, d_lo, d_lo * (2.0 * d_hi / np.where(both > 0, both, 1.0)))
    gfp = np.maximum(d_med - gtp, 0.0)
    # the first group of a row is at TP 0; the second opens with a rectangle at its median
    row_first = is_start[starts]
    second = np.zeros(starts.shape[0], dtype=bool)
    second[1:] = row_first[:-1]
    area = np.where(second, gtp * median, 0.0)
    # Davis-Goadrich segments between consecutive groups after the first of each row
    seg_ok = np.zeros(starts.shape[0], dtype=bool)
    seg_ok[1:] = ~row_first[1:] & ~row_first[:-1]
    i = np.flatnonzero(seg_ok)
    area[i] += dg_segment_areas(gtp[i - 1], gfp[i - 1], gtp[i], gfp[i])
    return np.bincount(grow, weights=area, minlength=b) / n_pos


def _interpolated_median_one(tp: np.ndarray, fp: np.ndarray, n_pos: float) -> float:
    """:func:`_interpolated_median` of one curve of distinct points, the same value to the last
    bit, with arrays the size of the number of recall levels instead of a dozen the size of
    the curve (100 MB fewer at 10⁶ points).

    Index ``i`` of the augmented curve is the start point (TP 0, precision 1) for ``i = 0`` and
    the curve's point ``i − 1`` otherwise; groups are its runs of equal TP.
    """
    k = tp.shape[0]
    new = np.flatnonzero(tp[1:] != tp[:-1]) + 2  # augmented index of each later group start
    head = [0, 1] if tp[0] != 0 else [0]
    starts = np.concatenate([np.array(head, dtype=np.intp), new])
    ends = np.append(starts[1:], k + 1) - 1
    size = ends - starts
    lo, hi = starts + size // 2, starts + (size + 1) // 2

    def at(values: np.ndarray, i: np.ndarray, start_value: float) -> np.ndarray:
        return np.where(i == 0, start_value, values[np.maximum(i - 1, 0)].astype(np.float64))

    tp_f = tp.astype(np.float64) if tp.dtype != np.float64 else tp
    total = tp_f + fp
    median = (at(tp_f / total, lo, 1.0) + at(tp_f / total, hi, 1.0)) / 2
    gtp = at(tp_f, starts, 0.0)
    d_lo, d_hi = at(total, lo, 0.0), at(total, hi, 0.0)
    both = d_lo + d_hi
    d_med = np.where(lo == hi, d_lo, d_lo * (2.0 * d_hi / np.where(both > 0, both, 1.0)))
    gfp = np.maximum(d_med - gtp, 0.0)
    area = np.zeros(starts.shape[0])
    if area.shape[0] > 1:
        area[1] = gtp[1] * median[1]
    if area.shape[0] > 2:
        area[2:] += dg_segment_areas(gtp[1:-1], gfp[1:-1], gtp[2:], gfp[2:])
    total_area = np.bincount(np.zeros(area.shape[0], dtype=np.intp), weights=area)[0] / n_pos
    return float(min(total_area, 1.0))  # as batched_area: at most 1 despite rounding


def batched_area(tp: np.ndarray, fp: np.ndarray, n_pos: np.ndarray, method: str) -> np.ndarray:
    """One AUC-PR estimate per row.

    Parameters
    ----------
    tp, fp : ndarray, shape (b, k)
        Cumulative counts (or weights) at decreasing thresholds; repeated points allowed.
    n_pos : ndarray, shape (b,)
        Positive total of each row (> 0).
    method : str
        A name of ``prcurve._core._area.AUC_PR_METHODS`` (already validated).

    Returns
    -------
    ndarray, shape (b,)
    """
    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    n_pos = np.asarray(n_pos, dtype=np.float64)
    if method == "average_precision":
        area = _average_precision(tp, fp, n_pos)
    else:
        fn = {
            "davis_goadrich": _davis_goadrich,
            "trapezoid": _trapezoid,
            "lower_trapezoid": _lower_trapezoid,
            "interpolated_median": _interpolated_median,
        }[method]
        area = fn(tp, fp, n_pos, tp.shape[0])
    # recall steps that sum to 1 within rounding can give 1 + 1 ulp: an area is at most 1
    return np.minimum(area, 1.0)
