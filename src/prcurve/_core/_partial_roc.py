"""Partial area under the ROC curve over a false-positive-rate range, with McClish's standard form.

The empirical ROC curve joins the origin and the operating points ``(FPR_k, TPR_k)`` by straight
lines (ties are one point, so a tie of positives and negatives is one diagonal segment).  Its
area over ``min_fpr <= FPR <= max_fpr`` is computed exactly, segment by segment, on the overlap of
each segment with the range: no grid, and a vertical segment (positives only) adds nothing.

McClish (1989) maps the partial area ``A`` over ``[a, b]`` onto the scale of a whole AUC:

    standardized = (1 + (A − A_min) / (A_max − A_min)) / 2,

with ``A_min = (b² − a²)/2`` the area under the chance diagonal and ``A_max = b − a`` that of a
perfect scorer on the range.  A chance curve gets 0.5 and a perfect one 1; a curve below the
diagonal gets less than 0.5 (McClish's map is linear, so it is not clipped, as in
scikit-learn; pROC returns NA there unless ``allow.invalid.partial.auc.correct=TRUE``).
For ``[0, b]`` this is exactly scikit-learn's ``roc_auc_score(max_fpr=b)``, and for any range pROC's
``auc(partial.auc=c(1 − a, 1 − b), partial.auc.focus="specificity", partial.auc.correct=TRUE)``;
over the whole range ``[0, 1]`` it is the plain AUC.

Weights are fine here: the partial area is a function of the weighted counts, like every curve.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._counts import BinaryCounts, binary_counts

__all__ = ["partial_roc_area", "partial_roc_auc"]


def _check_fpr_limits(min_fpr: Any, max_fpr: Any) -> tuple[float, float]:
    """``0 <= min_fpr < max_fpr <= 1``, each a real number."""
    for name, value in (("min_fpr", min_fpr), ("max_fpr", max_fpr)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r}")
        if not 0 <= float(value) <= 1:
            raise ValueError(f"{name}: expected a number in [0, 1], got {value!r}")
    low, high = float(min_fpr), float(max_fpr)
    if not low < high:
        raise ValueError(f"max_fpr: expected a number above min_fpr = {min_fpr!r}, got {max_fpr!r}")
    return low, high


def partial_roc_area(counts: BinaryCounts, low: float, high: float) -> float:
    """Area under the empirical ROC curve between FPR ``low`` and ``high`` (not standardised).

    Each segment from ``(x0, y0)`` to ``(x1, y1)`` contributes the trapezoid over
    ``[x0, x1] ∩ [low, high]``, its ends read off the straight line.
    """
    fpr = np.concatenate([[0.0], np.asarray(counts.fp, dtype=np.float64) / counts.n_neg])
    tpr = np.concatenate([[0.0], np.asarray(counts.tp, dtype=np.float64) / counts.n_pos])
    x0, x1, y0, y1 = fpr[:-1], fpr[1:], tpr[:-1], tpr[1:]
    a = np.clip(low, x0, x1)
    b = np.clip(high, x0, x1)
    width = x1 - x0
    slope = (y1 - y0) / np.where(width > 0, width, 1.0)
    ya, yb = y0 + (a - x0) * slope, y0 + (b - x0) * slope
    return float(np.sum(np.where(b > a, (b - a) * (ya + yb) / 2, 0.0)))


def partial_roc_auc(
    y_true: Any,
    y_score: Any,
    *,
    max_fpr: float,
    min_fpr: float = 0.0,
    standardized: bool = True,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> float:
    """Partial area under the ROC curve for false positive rates in ``[min_fpr, max_fpr]``.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As for :func:`prcurve.roc_curve`.
    max_fpr, min_fpr : float
        The FPR range, ``0 <= min_fpr < max_fpr <= 1`` (specificity from ``1 − max_fpr`` to
        ``1 − min_fpr``).
    standardized : bool, default True
        McClish's standardisation (0.5 for chance, 1 for a perfect scorer; see the module
        docstring); ``False`` gives the raw area, at most ``max_fpr − min_fpr``.

    Returns
    -------
    float

    Examples
    --------
    >>> from prcurve import partial_roc_auc
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> partial_roc_auc(y, s, max_fpr=0.5, standardized=False)
    0.25
    >>> partial_roc_auc(y, s, max_fpr=1.0)  # the whole range: the plain AUC
    0.75
    """
    low, high = _check_fpr_limits(min_fpr, max_fpr)
    if not isinstance(standardized, bool | np.bool_):
        raise TypeError(f"standardized: expected True or False, got {standardized!r}")
    counts = binary_counts(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    area = partial_roc_area(counts, low, high)
    if not standardized:
        return area
    chance, perfect = (high * high - low * low) / 2, high - low
    return 0.5 * (1 + (area - chance) / (perfect - chance))
