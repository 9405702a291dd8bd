"""Cross-validation folds: pooled, vertically averaged and threshold-averaged PR curves, and the
per-fold AUC-PR of every estimator with an across-fold interval."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import t as student_t

from .._core._area import AUC_PR_METHODS
from .._core._counts import binary_counts
from .._core._empirical import PRCurve
from .._core._frame import curves_frame
from .._core._results import ConfidenceInterval, compact_repr
from .._core._validation import (
    _as_1d,
    check_binary_problem,
    check_level,
    check_positive_int,
    check_unit_interval_array,
)

__all__ = ["CVPRCurves", "FoldAUC", "cv_pr_curves", "fold_arrays"]


@compact_repr
@dataclass(frozen=True)
class FoldAUC:
    """One AUC-PR estimator over the folds.

    Attributes
    ----------
    method : str
    per_fold : ndarray, shape (F,)
        The estimate on each fold's out-of-fold predictions.
    mean, std : float
        Mean and sample standard deviation (``ddof=1``) over the folds.
    interval : ConfidenceInterval
        Student-t interval over folds, ``mean ± t_{F−1, (1+level)/2} · std / √F``.
    pooled : float
        The estimate on the pooled out-of-fold curve.

    Notes
    -----
    The t-interval treats the F fold estimates as independent draws.  They are not: the
    training sets overlap (each pair shares a fraction (F−2)/(F−1) of the data), so the fold
    estimates are positively correlated and the interval is too narrow for the performance of
    the *learning procedure* (Bengio & Grandvalet 2004 show no unbiased estimator of that
    variance exists; Nadeau & Bengio 2003 propose an inflation for repeated random splits).  It
    reaches its nominal coverage when the folds are independent test sets of one fixed model
    (measured in ``tests/multi/test_folds.py``: 0.955); with 5 folds (4 degrees of freedom) it
    is wide.  Under real 5-fold cross-validation of a logistic regression (n = 200) it covered
    the expected per-fold AP 0.917 of 300 times (``examples/cv_interval_coverage.py``): it
    under-covers, as the overlap of the training sets predicts.
    """

    method: str
    per_fold: np.ndarray
    mean: float
    std: float
    interval: ConfidenceInterval
    pooled: float


@compact_repr
@dataclass(frozen=True)
class CVPRCurves:
    """PR curves of cross-validation folds and their aggregates.

    Attributes
    ----------
    folds : ndarray, shape (F,)
        Fold identifiers, in order.
    curves : tuple of PRCurve, length F
        Each fold's curve from its out-of-fold (test) predictions.
    pooled : PRCurve
        One curve from all out-of-fold predictions together.
    recall : ndarray, shape (m,)
        Recall grid of the vertical average.
    fold_precision : ndarray, shape (F, m)
        Each fold's Davis–Goadrich interpolated precision at :attr:`recall` (upper value at
        vertical drops; see :meth:`PRCurve.interpolate`).
    mean_precision, std_precision : ndarray, shape (m,)
        Vertical average: mean and standard deviation (``ddof=1``) over folds.
    band : ConfidenceInterval
        Pointwise Student-t band of the vertical average, ``mean ± t_{F−1} · std / √F``,
        clipped to [0, 1] (same caveats as :class:`FoldAUC`).
    thresholds : ndarray, shape (T,)
        Thresholds of the threshold average (decreasing): quantiles of the pooled scores, at
        most the lowest fold maximum so that every fold predicts something at each.
    threshold_recall, threshold_precision : ndarray, shape (T,)
        Threshold average: mean over folds of each fold's recall and precision at
        ``score >= thresholds[i]``.
    fold_threshold_recall, fold_threshold_precision : ndarray, shape (F, T)
    auc : dict of str to FoldAUC
        Every AUC-PR estimator, per fold, with mean and interval.
    level : float

    Notes
    -----
    When to use which aggregate:

    * **pooled** — one curve of all out-of-fold predictions.  Right when the fold models'
      scores share one scale (e.g. calibrated probabilities) and one threshold will be chosen
      for the final model; it has the most points.  When the scales differ, ranking instances
      of different folds against each other mixes models and can understate or overstate the
      curve.
    * **vertical average** — mean precision at fixed recall (Davis–Goadrich interpolation of
      each fold, never straight lines, which are not achievable and overstate precision
      wherever it falls between two operating points).  Needs
      no common score scale; answers "what precision does a model trained this way reach at
      recall r", and its band shows the fold-to-fold spread.
    * **threshold average** — mean (recall, precision) at fixed score thresholds (Fawcett 2006
      for ROC).  Meaningful only when the scores share one scale; shows how a fixed threshold
      behaves across models, with variation in both recall and precision.
    * **per-fold AUC-PR** — the usual cross-validated estimate of the procedure's AUC-PR: the
      mean over folds, with the t-interval of :class:`FoldAUC` (too narrow, see there).  The
      area of the vertical average is not the mean of the areas under other interpolations and
      is not reported as such.
    """

    folds: np.ndarray
    curves: tuple[PRCurve, ...]
    pooled: PRCurve
    recall: np.ndarray
    fold_precision: np.ndarray
    mean_precision: np.ndarray
    std_precision: np.ndarray
    band: ConfidenceInterval
    thresholds: np.ndarray
    threshold_recall: np.ndarray
    threshold_precision: np.ndarray
    fold_threshold_recall: np.ndarray
    fold_threshold_precision: np.ndarray
    auc: Mapping[str, FoldAUC]
    level: float

    def to_frame(self) -> Any:
        """Tidy pandas DataFrame of every fold's operating points and the pooled curve's
        (``fold`` column; ``"pooled"`` for the pooled curve).

        Examples
        --------
        >>> from prcurve import cv_pr_curves
        >>> res = cv_pr_curves([[0, 1, 1], [1, 0, 0]], [[0.2, 0.9, 0.5], [0.8, 0.1, 0.4]])
        >>> res.to_frame().groupby("fold").size().to_dict()
        {0: 3, 1: 3, 'pooled': 6}
        """
        names = [*self.folds.tolist(), "pooled"]
        return curves_frame("fold", names, [*self.curves, self.pooled])


def fold_arrays(
    y_true: Any, y_score: Any, folds: Any, sample_weight: Any
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]]:
    """Split the input into validated per-fold (labels, scores, weights).

    The weights are returned as given (rows of zero weight dropped), not rescaled: extreme
    weights must be rescaled by one factor for the pooled curve, and by each fold's own for
    its curve (which :func:`~prcurve._core._counts.binary_counts` does).
    """
    if folds is None:
        if not isinstance(y_true, list | tuple) or not isinstance(y_score, list | tuple):
            raise TypeError(
                "folds: expected fold ids (an array like y_true), or y_true and y_score as "
                f"lists of per-fold arrays; got folds=None and {type(y_true).__name__}"
            )
        if len(y_true) != len(y_score):
            raise ValueError(
                f"y_true and y_score: expected one array per fold in each, got {len(y_true)} "
                f"and {len(y_score)}"
            )
        ws = sample_weight if sample_weight is not None else [None] * len(y_true)
        if len(ws) != len(y_true):
            raise ValueError(
                f"sample_weight: expected one array per fold ({len(y_true)}), got {len(ws)}"
            )
        ids = np.arange(len(y_true))
        parts = [(y_true[i], y_score[i], ws[i]) for i in range(len(y_true))]
    else:
        f = np.asarray(folds)
        y = _as_1d("y_true", y_true)
        if f.ndim != 1 or f.shape[0] != y.shape[0]:
            raise ValueError(f"folds: expected shape ({y.shape[0]},) like y_true, got {f.shape}")
        s = _as_1d("y_score", y_score)
        if s.shape[:1] != y.shape[:1]:
            raise ValueError(
                f"y_true and y_score: expected the same length, got {y.shape[0]} and {s.shape[0]}"
            )
        w = None if sample_weight is None else _as_1d("sample_weight", sample_weight)
        ids, inverse = np.unique(f, return_inverse=True)
        parts = [
            (y[inverse == i], s[inverse == i], None if w is None else w[inverse == i])
            for i in range(ids.shape[0])
        ]
    if ids.shape[0] < 2:
        raise ValueError(f"folds: expected at least 2 folds, got {ids.shape[0]}")
    out = []
    for fid, (yy, ss, ww) in zip(ids.tolist(), parts, strict=True):
        try:
            y_, s_, w_ = check_binary_problem(yy, ss, ww)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"fold {fid!r}: {exc}") from None
        if w_ is not None:
            raw = np.asarray(ww, dtype=np.float64).reshape(-1)
            w_ = raw[raw > 0]
        out.append((y_, s_, w_))
    return ids, out


def _threshold_average(curves: list[PRCurve], pooled: PRCurve, num: int):
    """Per-fold recall and precision at common thresholds (every fold predicts something).

    Thresholds keep the pooled scores' dtype and are compared in it: int64 scores above 2**53
    would merge in float64 (the pooled curve has one point per distinct score, so must this).
    """
    top = min(c.thresholds[0] for c in curves)
    cand = pooled.thresholds[pooled.thresholds <= top]
    pick = np.unique(np.linspace(0, cand.shape[0] - 1, min(num, cand.shape[0])).round())
    t = cand[pick.astype(np.intp)]
    rec = np.empty((len(curves), t.shape[0]))
    prec = np.empty_like(rec)
    for f, c in enumerate(curves):
        # the last operating point with threshold >= t: thresholds decrease, so that is one
        # less than the number of thresholds >= t, counted in the increasing order
        rising = c.thresholds[::-1]
        i = rising.shape[0] - np.searchsorted(rising, t, side="left") - 1
        rec[f], prec[f] = c.recall[i], c.precision[i]
    return t, rec, prec


def _t_interval(values: np.ndarray, level: float) -> tuple[Any, Any, Any, Any]:
    n = values.shape[0]
    mean = values.mean(axis=0)
    std = values.std(axis=0, ddof=1)
    half = float(student_t.ppf((1 + level) / 2, n - 1)) * std / np.sqrt(n)
    return mean, std, mean - half, mean + half


def cv_pr_curves(
    y_true: Any,
    y_score: Any,
    folds: Any = None,
    *,
    sample_weight: Any = None,
    recall: Any = None,
    n_thresholds: int = 101,
    level: float = 0.95,
) -> CVPRCurves:
    """Combine the PR curves of cross-validation folds.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,), or lists of per-fold arrays
        Binary labels and out-of-fold scores (each instance scored by the model that did not
        see it).  With ``folds=None`` pass one array per fold in a list.
    folds : array-like of shape (n,), optional
        The fold of each instance (any labels; folds are taken in sorted order).
    sample_weight : array-like of shape (n,) or list of arrays, optional
    recall : array-like, optional
        Recall grid of the vertical average (default ``numpy.linspace(0, 1, 101)``).
    n_thresholds : int
        At most this many thresholds for the threshold average.
    level : float
        Level of the across-fold intervals.

    Returns
    -------
    CVPRCurves
        See its Notes for when each aggregate is appropriate.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import cv_pr_curves
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.2
    >>> s = rng.normal(size=1000) + 1.5 * y
    >>> res = cv_pr_curves(y, s, folds=np.arange(1000) % 5)
    >>> res.fold_precision.shape, res.auc["average_precision"].per_fold.shape
    ((5, 101), (5,))
    """
    level = check_level(level)
    n_thresholds = check_positive_int(n_thresholds, "n_thresholds", minimum=2)
    grid = (
        np.linspace(0.0, 1.0, 101)
        if recall is None
        else np.atleast_1d(check_unit_interval_array(recall, "recall", low_open=False))
    )
    ids, parts = fold_arrays(y_true, y_score, folds, sample_weight)
    curves = [PRCurve.from_counts(binary_counts(y, s, sample_weight=w)) for y, s, w in parts]
    weighted = any(w is not None for _, _, w in parts)
    ys = np.concatenate([y for y, _, _ in parts])
    # the scores' own dtype, promoted as numpy promotes (int64 stays exact above 2**53)
    ss = np.concatenate([s for _, s, _ in parts])
    ws = (
        np.concatenate([np.ones(y.shape[0]) if w is None else w for y, _, w in parts])
        if weighted
        else None
    )
    # validated again so that the weights of all folds share one scale (each fold's were
    # rescaled on their own when extreme)
    pooled = PRCurve.from_counts(binary_counts(ys, ss, sample_weight=ws))
    fold_precision = np.stack([c.interpolate(grid)[1] for c in curves])
    mean, std, lo, hi = _t_interval(fold_precision, level)
    t, rec, prec = _threshold_average(curves, pooled, n_thresholds)
    auc = {}
    for method in AUC_PR_METHODS:
        per_fold = np.array([c.auc(method) for c in curves])
        m, sd, a, b = _t_interval(per_fold, level)
        auc[method] = FoldAUC(
            method=method,
            per_fold=per_fold,
            mean=float(m),
            std=float(sd),
            interval=ConfidenceInterval(float(max(a, 0.0)), float(min(b, 1.0)), level),
            pooled=pooled.auc(method),
        )
    return CVPRCurves(
        folds=ids,
        curves=tuple(curves),
        pooled=pooled,
        recall=grid,
        fold_precision=fold_precision,
        mean_precision=mean,
        std_precision=std,
        band=ConfidenceInterval(np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0), level),
        thresholds=t,
        threshold_recall=rec.mean(axis=0),
        threshold_precision=prec.mean(axis=0),
        fold_threshold_recall=rec,
        fold_threshold_precision=prec,
        auc=auc,
        level=level,
    )
