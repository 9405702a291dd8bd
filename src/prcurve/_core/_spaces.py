"""Point conversions between ROC and PR space for a fixed data set (Davis & Goadrich Thm 3.1).

With n₊ positives and n₋ negatives a confusion matrix is one point in either space:
``recall = TPR`` and ``precision = TPR·n₊ / (TPR·n₊ + FPR·n₋)``; conversely
``FPR = recall·n₊·(1/precision − 1) / n₋``.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = ["pr_to_roc", "roc_to_pr"]


def _totals(n_pos: Any, n_neg: Any) -> tuple[float, float]:
    out = []
    for name, v in (("n_pos", n_pos), ("n_neg", n_neg)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not 0 < float(v) < np.inf:
            raise ValueError(f"{name}: expected a positive finite number, got {v!r}")
        out.append(float(v))
    return out[0], out[1]


def _rates(value: Any, name: str) -> np.ndarray:
    arr = np.asarray(value, dtype=np.float64)
    bad = ~np.isfinite(arr) | (arr < 0) | (arr > 1)
    if bad.any():
        raise ValueError(f"{name}: expected values in [0, 1], got {arr[bad].ravel()[0].item()!r}")
    return arr


def roc_to_pr(fpr: Any, tpr: Any, *, n_pos: float, n_neg: float) -> tuple[np.ndarray, np.ndarray]:
    """ROC points (FPR, TPR) → PR points (recall, precision) for the given class totals.

    Returns
    -------
    recall, precision : ndarray, broadcast shape of ``fpr`` and ``tpr``

    Raises
    ------
    ValueError
        For a point with FPR = TPR = 0, where nothing is predicted positive and precision is
        undefined.

    Examples
    --------
    >>> from prcurve import roc_to_pr
    >>> r, p = roc_to_pr([0.01, 0.1], [0.5, 0.9], n_pos=100, n_neg=10_000)
    >>> p.round(4).tolist()
    [0.3333, 0.0826]
    """
    n1, n0 = _totals(n_pos, n_neg)
    x, y = np.broadcast_arrays(_rates(fpr, "fpr"), _rates(tpr, "tpr"))
    predicted = y * n1 + x * n0
    if np.any(predicted == 0):
        raise ValueError(
            "fpr, tpr: a point with FPR = TPR = 0 predicts nothing positive; its precision is "
            "undefined"
        )
    return y.copy(), y * n1 / predicted


def pr_to_roc(
    recall: Any, precision: Any, *, n_pos: float, n_neg: float
) -> tuple[np.ndarray, np.ndarray]:
    """PR points (recall, precision) → ROC points (FPR, TPR) for the given class totals.

    Raises
    ------
    ValueError
        For recall 0 (the false positives are not determined by the PR point), or for a point
        whose implied false-positive count exceeds ``n_neg`` (not a point of this data set).

    Examples
    --------
    >>> from prcurve import pr_to_roc
    >>> fpr, tpr = pr_to_roc([0.5, 0.9], [1 / 3, 90 / 1090], n_pos=100, n_neg=10_000)
    >>> fpr.round(4).tolist()
    [0.01, 0.1]
    """
    n1, n0 = _totals(n_pos, n_neg)
    r, p = np.broadcast_arrays(_rates(recall, "recall"), _rates(precision, "precision"))
    if np.any(r == 0):
        raise ValueError("recall: recall 0 does not determine a ROC point (FP is unknown)")
    if np.any(p == 0):
        raise ValueError("precision: precision 0 with recall > 0 is impossible")
    fpr = r * n1 * (1.0 / p - 1.0) / n0
    if np.any(fpr > 1 + 1e-12):
        raise ValueError(
            f"recall, precision: a point implies FPR {fpr.max():.4g} > 1 for n_pos={n_pos}, "
            f"n_neg={n_neg}: not a point of this data set"
        )
    return np.minimum(fpr, 1.0), r.copy()
