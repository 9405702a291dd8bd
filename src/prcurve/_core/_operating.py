"""Operating points: the threshold that meets a target, chosen by one exact rule.

The rule is written once, for the rows of (b, k) count matrices (one curve is one row, bootstrap
replicates are many), so a replicate chooses its point exactly as the data did.  A row may repeat
an operating point (a threshold that received no instance in a resample): every rule breaks ties
toward the first column, i.e. the replicate's own distinct threshold.  Columns predicting no
instance positive (``TP + FP = 0``) are never chosen.

The rules (counts ``TP_k``, ``FP_k`` at decreasing thresholds ``t_k``; predict positive when
``score >= t_k``):

``min_precision=p``
    among the points with precision ``>= p``, the highest recall; among equal recall (a vertical
    drop) the highest precision, i.e. the fewest false positives: the highest threshold.
``min_recall=r``
    among the points with recall ``>= r``, the highest precision; among equal precision the
    highest recall; then the highest threshold.
``max_fpr=f``
    among the points with false-positive rate ``<= f``, the highest recall; among equal recall
    the highest threshold (the Neyman–Pearson point).
``top_k=k``
    the point with the most predicted positives (``TP + FP``, a total weight with sample
    weights) that does not exceed ``k``: the lowest threshold flagging at most ``k``.  When a
    tie of scores straddles ``k`` the point flags fewer than ``k`` (ties are never split).

Every comparison is decided on the data's counts, each rate rounded once from its exact value
(:mod:`prcurve._core._exact`): a precision of exactly 9/10 meets ``min_precision=0.9``, and at a
deployment prevalence π only precision changes -- ``max_fpr``, ``min_recall`` and ``top_k``
choose the same point at every π, and one tie group (precision exactly π at π) meets
``min_precision=π``.

A target that no point meets gives ``feasible=False`` (``min_precision`` above every point's
precision, ``max_fpr`` below the first point's rate, ``top_k`` below the first tie group);
``min_recall`` is always feasible (the last point has recall 1).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._disk import release
from ._exact import precision_at_least
from ._results import ConfidenceInterval, PRCurveWarning, compact_repr
from ._validation import (
    _as_1d,
    _check_finite_numbers,
    check_fraction,
    check_unit_interval_array,
)

__all__ = [
    "CRITERIA",
    "OperatingPoint",
    "TargetNotMetWarning",
    "check_criterion",
    "choose_on_counts",
    "choose_rows",
    "precision_at_recall",
    "recall_at_precision",
]

#: The criteria of :func:`prcurve.operating_point`, in the order they are documented.
CRITERIA = ("min_precision", "min_recall", "max_fpr", "top_k")


class TargetNotMetWarning(PRCurveWarning):
    """Some bootstrap replicates have no operating point meeting the target."""


@compact_repr
@dataclass(frozen=True)
class OperatingPoint:
    """The operating point chosen for a target, with optional bootstrap intervals.

    Attributes
    ----------
    criterion : {"min_precision", "min_recall", "max_fpr", "top_k"}
    target : float
        The value passed for the criterion.
    feasible : bool
        Whether some operating point meets the target.  When False every field describing the
        point (threshold, rates, counts) is None and :attr:`reason` says why.
    threshold : scalar or None
        Predict positive when ``score >= threshold`` (one of the observed scores; its dtype
        kept).
    precision, recall, fpr : float or None
        At the threshold; precision at :attr:`prevalence`.
    tp, fp, fn, tn : int, float or None
        Confusion-matrix counts (total weights with sample weights — extreme weights rescaled
        by a power of two, as everywhere in prcurve: only their ratios matter; ``fp`` and ``tn``
        rescaled to the deployment prevalence when one was given).
    n_pos, n_neg : float
        Positive and negative totals the counts refer to.
    prevalence : float
        The prevalence the precision refers to (the data's, or the deployment prevalence).
    threshold_interval : ConfidenceInterval or None
        Percentile interval of the threshold chosen again in every bootstrap replicate: it
        targets the population threshold meeting the criterion.
    precision_interval, recall_interval : ConfidenceInterval or None
        Percentile intervals of the precision and recall of the chosen threshold held fixed
        across replicates: they target what that threshold delivers on the population.
    level : float or None
    n_resamples : int or None
    feasible_fraction : float or None
        Share of bootstrap replicates in which some point met the target (the threshold interval
        is computed from those).
    reason : str
        Why the target cannot be met ("" when feasible).
    """

    criterion: str
    target: float
    feasible: bool
    threshold: Any
    precision: float | None
    recall: float | None
    fpr: float | None
    tp: float | None
    fp: float | None
    fn: float | None
    tn: float | None
    n_pos: float
    n_neg: float
    prevalence: float
    threshold_interval: ConfidenceInterval | None = None
    precision_interval: ConfidenceInterval | None = None
    recall_interval: ConfidenceInterval | None = None
    level: float | None = None
    n_resamples: int | None = None
    feasible_fraction: float | None = None
    reason: str = ""

    def predict(self, y_score: Any) -> np.ndarray:
        """Predicted labels at this operating point: ``y_score >= threshold``.

        Parameters
        ----------
        y_score : array-like of shape (n,)
            Scores of new instances, on the scale the point was chosen on.

        Returns
        -------
        ndarray of bool, shape (n,)

        Raises
        ------
        ValueError
            When the target was not met (there is no threshold), or the scores are not finite.

        Examples
        --------
        >>> from prcurve import operating_point
        >>> op = operating_point([0, 1, 1, 0, 1], [0.1, 0.9, 0.8, 0.7, 0.3], min_precision=1.0)
        >>> op.threshold, op.predict([0.95, 0.85, 0.5]).tolist()
        (0.8, [True, True, False])
        """
        if not self.feasible:
            raise ValueError(
                f"{self.criterion}: expected a feasible operating point to predict with, got "
                f"none ({self.reason})"
            )
        scores = _check_finite_numbers("y_score", _as_1d("y_score", y_score))
        return np.asarray(scores >= self.threshold)


def check_criterion(
    min_precision: Any, min_recall: Any, top_k: Any, max_fpr: Any
) -> tuple[str, float]:
    """Exactly one criterion, validated: ``(name, target)``."""
    given = {
        name: value
        for name, value in zip(CRITERIA, (min_precision, min_recall, max_fpr, top_k), strict=True)
        if value is not None
    }
    if len(given) != 1:
        names = ", ".join(CRITERIA)
        got = ", ".join(sorted(given)) if given else "none"
        raise ValueError(f"criterion: expected exactly one of {names}, got {got}")
    ((name, value),) = given.items()
    if name == "top_k":
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"top_k: expected a positive number, got {type(value).__name__}")
        k = float(value)
        if not (np.isfinite(k) and k > 0):
            raise ValueError(f"top_k: expected a positive finite number, got {value!r}")
        return name, k
    if name == "max_fpr":
        return name, check_fraction(value, name, low_open=False, high_open=True)
    return name, check_fraction(value, name, low_open=True, high_open=False)


def _first_best(ok: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the first column maximising ``key`` among ``ok`` columns, and whether any is ok."""
    masked = np.where(ok, key, -np.inf)
    best = masked.max(axis=1, keepdims=True)
    index = np.argmax(ok & (masked == best), axis=1)
    return index, np.asarray(ok.any(axis=1))


def choose_rows(
    tp: np.ndarray,
    fp: np.ndarray,
    n_pos: np.ndarray,
    n_neg: np.ndarray,
    criterion: str,
    target: float,
    *,
    prevalence: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The chosen column of every row (see the module docstring for the rules).

    Every comparison is decided on the data's own counts, each rate rounded once: recall
    ``TP/n₊`` and false-positive rate ``FP/n₋`` are single divisions (correctly rounded), and
    precision goes through :func:`~prcurve._core._exact.precision_at_least`.  At a deployment
    prevalence only the precision changes, and the order of the precisions of one row does not
    (``TP/(TP + c·FP)`` with one factor ``c > 0`` per row orders points as ``TP/(TP + FP)``): so
    ``max_fpr``, ``min_recall`` and ``top_k`` choose the same column at every π, and
    ``min_precision`` compares ``P_π`` with the target without reweighted, rounded counts.

    Parameters
    ----------
    tp, fp : ndarray, shape (b, k)
        Cumulative counts at decreasing thresholds (repeats allowed), not reweighted.
    n_pos, n_neg : ndarray, shape (b,)
        Totals of each row, not reweighted.
    criterion, target
        As returned by :func:`check_criterion`.
    prevalence : float or ndarray of shape (b,), optional
        Deployment prevalence π of each row (None: the data's own).

    Returns
    -------
    index : ndarray of intp, shape (b,)
        Chosen column (0 where infeasible).
    feasible : ndarray of bool, shape (b,)
    """
    tpf = np.asarray(tp, dtype=np.float64)
    fpf = np.asarray(fp, dtype=np.float64)
    d = tpf + fpf
    valid = d > 0
    if criterion == "min_precision":
        totals: dict[str, Any] = {}
        if prevalence is not None:
            column = (slice(None), None)
            totals = dict(
                n_pos=np.asarray(n_pos)[column],
                n_neg=np.asarray(n_neg)[column],
                prevalence=np.broadcast_to(prevalence, np.shape(n_pos))[column],
            )
        return _first_best(precision_at_least(tp, fp, target, **totals), tpf)
    if criterion == "min_recall":
        precision = tpf / np.where(valid, d, 1.0)  # the order of P_π at every π
        ok = valid & (tpf / np.asarray(n_pos, dtype=np.float64)[:, None] >= target)
        masked = np.where(ok, precision, -np.inf)
        ok &= masked == masked.max(axis=1, keepdims=True)
        return _first_best(ok, tpf)
    if criterion == "max_fpr":
        rate = fpf / np.asarray(n_neg, dtype=np.float64)[:, None]
        return _first_best(valid & (rate <= target), tpf)
    return _first_best(valid & (d <= target), d)


def choose_on_counts(
    tp: np.ndarray,
    fp: np.ndarray,
    n_pos: Any,
    n_neg: Any,
    criterion: str,
    target: float,
    *,
    prevalence: Any = None,
    block: int | None = None,
) -> tuple[int, bool]:
    """:func:`choose_rows` for one row of ``k`` counts, in blocks of columns (O(block) memory).

    Every criterion keeps the first column that maximises a key among the feasible ones, and
    feasibility and key are per column, so the choice over all columns is the choice among
    each block's own choice (the blocks in order, so the first of equal keys is kept): the
    temporaries are a few arrays of one block, not of the whole curve (about 500 MB at
    6.6·10⁶ points).  Returns the chosen column and whether it is feasible.
    """
    k = tp.shape[0]
    step = block or CHOICE_BLOCK
    totals = np.array([n_pos]), np.array([n_neg])
    if k <= step:
        idx, ok = choose_rows(tp[None, :], fp[None, :], *totals, criterion, target,
                              prevalence=prevalence)  # fmt: skip
        return int(idx[0]), bool(ok[0])
    winners = []
    for lo in range(0, k, step):
        idx, ok = choose_rows(tp[None, lo : lo + step], fp[None, lo : lo + step], *totals,
                              criterion, target, prevalence=prevalence)  # fmt: skip
        release(tp[lo : lo + step])  # a curve on disk: the block's pages go back
        release(fp[lo : lo + step])
        if ok[0]:
            winners.append(lo + int(idx[0]))
    if not winners:
        return 0, False
    at = np.array(winners)
    idx, ok = choose_rows(tp[None, at], fp[None, at], *totals, criterion, target,
                          prevalence=prevalence)  # fmt: skip
    return int(at[idx[0]]), bool(ok[0])


#: Columns per block of :func:`choose_on_counts`.
CHOICE_BLOCK = 1 << 16


def recall_at_precision(
    tp: np.ndarray, fp: np.ndarray, n_pos: float, precision: Any
) -> np.ndarray | float:
    """Highest recall among operating points with precision ``>= p`` (0 where there is none)."""
    p = check_unit_interval_array(precision, "precision", low_open=True, high_open=False)
    prec = tp / np.add(tp, fp, dtype=np.float64)
    order = np.argsort(-prec, kind="stable")
    best_recall = np.maximum.accumulate(np.asarray(tp, dtype=np.float64)[order] / n_pos)
    # points with precision >= p are the first `m` of the order (precision decreasing)
    m = np.searchsorted(-prec[order], -np.atleast_1d(p).ravel(), side="right")
    out = np.where(m > 0, best_recall[np.maximum(m - 1, 0)], 0.0)
    return float(out[0]) if np.ndim(p) == 0 else out.reshape(np.shape(p))


def precision_at_recall(
    tp: np.ndarray, fp: np.ndarray, n_pos: float, recall: Any
) -> np.ndarray | float:
    """Highest precision among operating points with recall ``>= r`` (always one: recall 1)."""
    r = check_unit_interval_array(recall, "recall", low_open=False, high_open=False)
    prec = tp / np.add(tp, fp, dtype=np.float64)
    rec = np.asarray(tp, dtype=np.float64) / n_pos
    suffix_best = np.maximum.accumulate(prec[::-1])[::-1]
    first = np.searchsorted(rec, np.atleast_1d(r).ravel(), side="left")
    out = suffix_best[np.minimum(first, rec.shape[0] - 1)]
    return float(out[0]) if np.ndim(r) == 0 else out.reshape(np.shape(r))
