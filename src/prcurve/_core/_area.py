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

from ._blocks import BLOCK, count_blocks
from ._disk import is_on_disk, release, release_all, take
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

    Summed in the blocks of :func:`~._blocks.count_blocks` (a dot product per block), so a
    curve in memory and the same curve on disk (:mod:`._disk`) give the same value to the last
    bit, and the temporaries are a block's.
    """
    total = 0.0
    blocks = count_blocks(tp, tp)
    for lo, (tp_prev, _, t, _) in zip(range(0, tp.shape[0], BLOCK), blocks, strict=True):
        p = precision[lo : lo + t.shape[0]]
        total += float(np.dot(t - tp_prev, p))
        release(p)
    # at most 1, also when rounding makes the recall steps sum to 1 + 1 ulp
    return min(total / float(n_pos), 1.0)


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
    change = tp_changes(tp)  # i where TP changes from point i to point i + 1
    # two sorted runs (and 0): merged by a stable sort, then the repeats dropped -- linear,
    # where np.unique's general sort took 1.6 s on the 2·10⁶ indices of a 10⁸-point curve
    idx = np.concatenate([[0], change, change + 1])
    idx.sort(kind="stable")
    return idx[np.concatenate([[True], idx[1:] != idx[:-1]])]


def tp_changes(tp: np.ndarray) -> np.ndarray:
    """Indices ``i`` with ``tp[i + 1] != tp[i]``, found in blocks (few temporaries, and a
    curve on disk is read once; see :mod:`._disk`)."""
    k = tp.shape[0]
    found = []
    for lo in range(0, k - 1, CHUNK):
        t = tp[lo : min(lo + CHUNK, k - 1) + 1]
        found.append(lo + np.flatnonzero(t[1:] != t[:-1]))
        release(t)
    return np.concatenate(found) if found else np.empty(0, dtype=np.intp)


def area_from_counts(tp: np.ndarray, fp: np.ndarray, n_pos: float, method: str) -> float:
    """One curve's estimate (``method`` already validated)."""
    if is_on_disk(tp):  # a curve on disk (:mod:`._disk`): the pages its reads mapped go back
        area = _area_from_counts(tp, fp, n_pos, method)
        release_all()
        return area
    return _area_from_counts(tp, fp, n_pos, method)


def _area_from_counts(tp: np.ndarray, fp: np.ndarray, n_pos: float, method: str) -> float:
    if method == "average_precision":  # the precision made a block at a time
        total = 0.0
        for tp_prev, _, t, f in count_blocks(tp, fp):
            total += float(np.dot(t - tp_prev, t / (t + f)))
        return min(total / float(n_pos), 1.0)
    if method == "interpolated_median":
        return _interpolated_median_one(tp, fp, float(n_pos))
    if method in SEGMENT_SUMS and tp.shape[0] > 2:
        keep = segment_points(tp)
        if keep.shape[0] > CHUNK:  # in chunks (in memory as on disk: the same value)
            return _segment_sum_in_chunks(tp, fp, keep, float(n_pos), method)
        if keep.shape[0] < tp.shape[0]:
            tp, fp = tp[keep], fp[keep]
    return float(batched_area(tp[None, :], fp[None, :], np.array([float(n_pos)]), method)[0])


def _segment_sum_in_chunks(
    tp: np.ndarray, fp: np.ndarray, keep: np.ndarray, n_pos: float, method: str
) -> float:
    """A :data:`SEGMENT_SUMS` area over the points ``keep``, a chunk of them at a time: each
    chunk with the point before it, less that point's own term (its segment from the origin),
    so every segment is counted once; equal to the one-pass sum to rounding."""
    fn = {"davis_goadrich": _davis_goadrich, "trapezoid": _trapezoid,
          "lower_trapezoid": _lower_trapezoid}[method]  # fmt: skip
    n = np.array([n_pos])
    total = 0.0
    for a in range(0, keep.shape[0], CHUNK):
        idx = keep[max(a - 1, 0) : a + CHUNK]
        t = take(tp, idx).astype(np.float64)[None, :]
        f = take(fp, idx).astype(np.float64)[None, :]
        total += float(fn(t, f, n, t.shape[1])[0])
        if a:
            total -= float(fn(t[:, :1], f[:, :1], n, 1)[0])
    return min(total, 1.0)


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
    bit, with arrays of one chunk of recall levels instead of a dozen the size of the curve
    (100 MB fewer at 10⁶ points; a curve on disk is read at the levels' points only).

    Index ``i`` of the augmented curve is the start point (TP 0, precision 1) for ``i = 0`` and
    the curve's point ``i − 1`` otherwise; groups are its runs of equal TP.  The groups' area
    terms are added in order, chunk after chunk, exactly as one sequential sum of all of them.
    """
    k = tp.shape[0]
    new = tp_changes(tp) + 2  # augmented index of each later group start
    head = [0, 1] if tp[0] != 0 else [0]
    starts = np.concatenate([np.array(head, dtype=np.intp), new])
    ends = np.append(starts[1:], k + 1) - 1

    def at(i: np.ndarray, value: str, start_value: float) -> np.ndarray:
        """TP, TP + FP or precision at augmented indices ``i`` (read at those points only)."""
        j = np.maximum(i - 1, 0)
        t = take(tp, j).astype(np.float64)
        values = {"tp": t, "total": t + take(fp, j)}
        values["precision"] = t / values["total"]
        return np.where(i == 0, start_value, values[value])

    total = 0.0
    before: tuple[np.ndarray, np.ndarray] | None = None  # the last group of the previous chunk
    for a in range(0, starts.shape[0], CHUNK):
        first, last = starts[a : a + CHUNK], ends[a : a + CHUNK]
        size = last - first
        lo, hi = first + size // 2, first + (size + 1) // 2
        median = (at(lo, "precision", 1.0) + at(hi, "precision", 1.0)) / 2
        gtp = at(first, "tp", 0.0)
        d_lo, d_hi = at(lo, "total", 0.0), at(hi, "total", 0.0)
        both = d_lo + d_hi
        d_med = np.where(lo == hi, d_lo, d_lo * (2.0 * d_hi / np.where(both > 0, both, 1.0)))
        gfp = np.maximum(d_med - gtp, 0.0)
        area = np.zeros(first.shape[0])
        if a <= 1 < a + first.shape[0]:
            area[1 - a] = gtp[1 - a] * median[1 - a]
        # Davis-Goadrich segments into groups 2, 3, ... from the group before each
        prev_tp = np.concatenate([before[0], gtp[:-1]]) if before is not None else gtp[:-1]
        prev_fp = np.concatenate([before[1], gfp[:-1]]) if before is not None else gfp[:-1]
        into = np.arange(a, a + first.shape[0])[first.shape[0] - prev_tp.shape[0] :]
        seg = into >= 2
        if seg.any():
            local = into[seg] - a
            area[local] += dg_segment_areas(prev_tp[seg], prev_fp[seg], gtp[local], gfp[local])
        before = (gtp[-1:], gfp[-1:])
        # one sequential sum, as np.bincount adds its weights in order
        weights = np.concatenate([[total], area])
        total = float(np.bincount(np.zeros(weights.shape[0], dtype=np.intp), weights=weights)[0])
    return float(min(total / n_pos, 1.0))  # as batched_area: at most 1 despite rounding


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
