"""AUC-PR point estimators, all computed from the engine's cumulative counts.

Each takes the operating points of one curve (``tp``, ``fp`` at decreasing thresholds) and the
number (weight) of positives, and returns a float.  See :func:`prcurve.auc_pr` for definitions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._interpolation import dg_segment_areas

__all__ = ["AUC_PR_METHODS", "area_from_counts", "average_precision_from", "precision_of"]


def _precision(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    out = np.add(tp, fp, dtype=np.float64)
    return np.divide(tp, out, out=out)


def precision_of(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """``tp / (tp + fp)`` in float64 (defined: every operating point predicts something)."""
    return _precision(tp, fp)


def _average_precision(tp: np.ndarray, fp: np.ndarray, n_pos: float) -> float:
    return average_precision_from(tp, _precision(tp, fp), n_pos)


def average_precision_from(tp: np.ndarray, precision: np.ndarray, n_pos: float) -> float:
    """``Σ (R_k − R_{k−1}) P_k`` written on counts: ``Σ ΔTP_k · P_k / n₊`` (with TP_0 = 0)."""
    dtp = np.subtract(tp[1:], tp[:-1], dtype=np.float64)
    return float((tp[0] * precision[0] + np.dot(dtp, precision[1:])) / n_pos)


def _davis_goadrich(tp: np.ndarray, fp: np.ndarray, n_pos: float) -> float:
    ctp = np.concatenate([[0.0], tp])
    cfp = np.concatenate([[0.0], fp])
    return float(np.sum(dg_segment_areas(ctp[:-1], cfp[:-1], ctp[1:], cfp[1:])) / n_pos)


def _trapezoid(tp: np.ndarray, fp: np.ndarray, n_pos: float) -> float:
    recall = tp / n_pos
    precision = _precision(tp, fp)
    first = recall[0] * precision[0]
    return float(first + np.sum(np.diff(recall) * (precision[1:] + precision[:-1]) / 2))


def _recall_groups(tp: np.ndarray, fp: np.ndarray, n_pos: float):
    """Boyd et al.'s point list (0, 1), (r_k, p_k) grouped by distinct recall.

    Within a group TP is fixed and FP grows, so precision decreases: the first point of a group
    has its maximum precision and the last its minimum.
    """
    rtp = np.concatenate([[0.0], tp])
    prec = np.concatenate([[1.0], _precision(tp, fp)])
    new = np.empty(rtp.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(rtp[1:], rtp[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], rtp.shape[0]) - 1
    return rtp[starts] / n_pos, prec, starts, ends


def _lower_trapezoid(tp: np.ndarray, fp: np.ndarray, n_pos: float) -> float:
    recall, prec, starts, ends = _recall_groups(tp, fp, n_pos)
    p_max, p_min = prec[starts], prec[ends]
    return float(np.sum(np.diff(recall) * (p_min[:-1] + p_max[1:]) / 2))


def _interpolated_median(tp: np.ndarray, fp: np.ndarray, n_pos: float) -> float:
    recall, prec, starts, ends = _recall_groups(tp, fp, n_pos)
    size = ends - starts
    median = (prec[starts + size // 2] + prec[starts + (size + 1) // 2]) / 2
    # back to counts for the Davis–Goadrich segments between consecutive medians
    mtp = recall * n_pos
    mfp = np.where(median > 0, mtp * (1.0 / np.where(median > 0, median, 1.0) - 1.0), 0.0)
    area = recall[1] * median[1] if recall[0] == 0 else 0.0
    first = 1 if recall[0] == 0 else 0
    if median.shape[0] > first + 1:
        seg = dg_segment_areas(mtp[first:-1], mfp[first:-1], mtp[first + 1 :], mfp[first + 1 :])
        area += float(np.sum(seg)) / n_pos
    return float(area)


AUC_PR_METHODS: dict[str, Callable[[np.ndarray, np.ndarray, float], float]] = {
    "average_precision": _average_precision,
    "davis_goadrich": _davis_goadrich,
    "trapezoid": _trapezoid,
    "lower_trapezoid": _lower_trapezoid,
    "interpolated_median": _interpolated_median,
}


def area_from_counts(tp: np.ndarray, fp: np.ndarray, n_pos: float, method: str) -> float:
    """Dispatch to one estimator (``method`` already validated)."""
    if method == "average_precision":  # integer counts need no float copies here
        return _average_precision(tp, fp, float(n_pos))
    return AUC_PR_METHODS[method](
        np.asarray(tp, dtype=np.float64), np.asarray(fp, dtype=np.float64), float(n_pos)
    )
