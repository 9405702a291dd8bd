"""Empirical PR and ROC curves, the functional estimator, and the achievable PR curve."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ._area import AUC_PR_METHODS, area_from_counts, average_precision_from, precision_of
from ._batch import TIES, functional_precision
from ._columns import counts_column
from ._counts import BinaryCounts, binary_counts, count_sorted
from ._disk import block_sum, is_on_disk, release_all, remembered, take
from ._frame import data_frame
from ._hull import envelope_dominates, upper_hull_indices
from ._interpolation import interpolate_counts
from ._operating import precision_at_recall as _precision_at_recall
from ._operating import recall_at_precision as _recall_at_precision
from ._partial import area_with_options, check_prevalence, negative_factor
from ._results import PRCurveWarning, compact_repr
from ._thin import Thinning, thin_indices
from ._thresholds import count_index, rule_thresholds
from ._validation import (
    check_binary_problem,
    check_choice,
    check_positive_int,
    check_unit_interval_array,
)

__all__ = [
    "PRCurve",
    "ROCCurve",
    "ThresholdsDroppedWarning",
    "achievable_pr_curve",
    "auc_pr",
    "dominates",
    "evaluate_thresholds",
    "pr_curve",
    "roc_curve",
]

THRESHOLD_RULES = ("ge", "gt")


class ThresholdsDroppedWarning(PRCurveWarning):
    """Some requested thresholds predict no instance positive, so they give no PR point."""


def _disk_area(tp: np.ndarray, fp: np.ndarray, n_pos: Any, method: str) -> float:
    """``area_from_counts`` of counts on disk, once per table (:func:`._disk.remembered`):
    the report asks a curve of 10⁸ points for its areas several times (analysis, thinning of
    the curve file, other tools), and each is a pass over the whole table."""
    return remembered(
        (tp, fp), ("area", n_pos, method), lambda: area_from_counts(tp, fp, n_pos, method)
    )


def _disk_roc_auc(tp: np.ndarray, fp: np.ndarray, n_pos: Any, n_neg: Any) -> float:
    """The ROC AUC of counts on disk, a block at a time and once per table (as
    :func:`_disk_area`)."""

    def compute() -> float:
        k = tp.shape[0]
        return _roc_auc_in_blocks(k, lambda b: fp[b] / n_neg, lambda b: tp[b] / n_pos, tp, fp)

    return remembered((tp, fp), ("roc_auc", n_pos, n_neg), compute)


#: The arrays of a :class:`PRCurve`, one value per operating point.
_ARRAYS = ("thresholds", "tp", "fp", "precision", "recall")


@compact_repr
@dataclass(frozen=True)
class PRCurve:
    """An empirical precision-recall curve: one row per operating point.

    All arrays have one length ``k`` (the number of distinct scores) and are ordered by
    decreasing threshold, i.e. increasing recall.

    Attributes
    ----------
    thresholds : ndarray, shape (k,)
        With ``threshold_rule="ge"`` (default) point ``i`` predicts positive every instance with
        ``score >= thresholds[i]``.  With ``"gt"`` (Hughes-Oliver's PR*) the same points are
        labelled by the thresholds of the rule ``score > t``: the next lower distinct score, and
        ``-inf`` for the last point (the lowest score minus 1 for integer scores, whose dtype is
        kept; see ``prcurve._core._thresholds.rule_thresholds`` for the int64 minimum).
    tp, fp : ndarray, shape (k,)
        Cumulative true / false positives (int64, or float64 total weights).
    precision, recall : ndarray, shape (k,)
        ``tp / (tp + fp)`` and ``tp / n_pos``; always defined (every point predicts at least one
        instance positive).
    n_pos, n_neg : int or float
        Number (weight) of positives and negatives.
    threshold_rule : {"ge", "gt"}
    thinning : Thinning or None
        ``None`` for a full curve; for a curve returned by :meth:`thin`, how it was thinned and
        the areas of the full curve (see :meth:`thin`).
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    n_pos: float
    n_neg: float
    threshold_rule: str = "ge"
    thinning: Thinning | None = None

    @classmethod
    def from_counts(cls, counts: BinaryCounts, *, threshold_rule: str = "ge") -> PRCurve:
        """Build the curve from the engine's counts."""
        check_choice(threshold_rule, "threshold_rule", THRESHOLD_RULES)
        tp, fp = counts.tp, counts.fp
        precision: Any
        recall: Any
        if is_on_disk(tp):  # a curve longer than memory: its ratios computed where read
            n_pos = counts.n_pos
            precision = counts_column(precision_of, tp, fp)
            recall = counts_column(lambda t: np.divide(t, n_pos, dtype=np.float64), tp)
        else:
            precision = precision_of(tp, fp)
            recall = np.divide(tp, counts.n_pos, dtype=np.float64)
        return cls(
            thresholds=rule_thresholds(counts.thresholds, threshold_rule),
            tp=tp,
            fp=fp,
            precision=precision,
            recall=recall,
            n_pos=counts.n_pos,
            n_neg=counts.n_neg,
            threshold_rule=threshold_rule,
        )

    @property
    def prevalence(self) -> float:
        """Fraction (weight share) of positives, π = n₊ / (n₊ + n₋)."""
        return float(self.n_pos / (self.n_pos + self.n_neg))

    @property
    def skew(self) -> float:
        """n₋ / n₊."""
        return float(self.n_neg / self.n_pos)

    def auc(
        self,
        method: str = "average_precision",
        *,
        recall_range: tuple[float, float] | None = None,
        normalize: bool = False,
    ) -> float:
        """Area under the curve by one of :data:`AUC_PR_METHODS` (see :func:`auc_pr`).

        ``recall_range=(a, b)`` gives the partial area between recalls a and b (divided by
        ``b − a`` with ``normalize=True``); see :func:`auc_pr`.  A thinned curve (see
        :meth:`thin`) returns the whole area of the full curve, computed before thinning; its
        partial areas come from the thinned points.
        """
        check_choice(method, "method", tuple(AUC_PR_METHODS))
        if recall_range is not None or normalize:
            return area_with_options(
                self.tp, self.fp, self.n_pos, self.n_neg, method,
                recall_range=recall_range, normalize=normalize,
            )  # fmt: skip
        if self.thinning is not None:
            return float(self.thinning.areas[method])
        if is_on_disk(self.tp):  # a pass over a curve on disk: once per curve and method
            return _disk_area(self.tp, self.fp, self.n_pos, method)
        if method == "average_precision":  # the stored precision
            return average_precision_from(self.tp, self.precision, self.n_pos)
        return area_from_counts(self.tp, self.fp, self.n_pos, method)

    def recall_at_precision(self, precision: Any) -> np.ndarray | float:
        """Highest recall among the operating points whose precision is at least ``precision``.

        Achievable points only (no interpolation); 0 where no point reaches the precision (then
        only flagging nothing meets it).  Distinct from the functional estimator
        :meth:`precision_at`.  See :func:`prcurve.operating_point` for the threshold, counts and
        intervals.

        Examples
        --------
        >>> from prcurve import pr_curve
        >>> c = pr_curve([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
        >>> c.recall_at_precision([0.75, 0.7, 1.0])
        array([1.        , 1.        , 0.33333333])
        """
        return _recall_at_precision(self.tp, self.fp, self.n_pos, precision)

    def precision_at_recall(self, recall: Any) -> np.ndarray | float:
        """Highest precision among the operating points whose recall is at least ``recall``.

        Achievable points only; always defined (the last point has recall 1).  Distinct from the
        functional estimator :meth:`precision_at`, which reads the curve at a recall level.

        Examples
        --------
        >>> from prcurve import pr_curve
        >>> c = pr_curve([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
        >>> c.precision_at_recall(0.5)
        0.75
        """
        return _precision_at_recall(self.tp, self.fp, self.n_pos, recall)

    def at_prevalence(self, prevalence: float) -> PRCurve:
        """The curve at a deployment prevalence π: TPR and FPR kept, precision recomputed.

        Every negative is weighted by ``w = n₊(1 − π)/(π n₋)``, so ``fp`` becomes ``w·fp``,
        ``n_neg`` becomes ``n₊(1 − π)/π`` and precision ``tp/(tp + w·fp)``; ``auc`` of the result
        gives every estimator at π, and its chance line is ``precision = π``.  The same as
        :func:`pr_curve` with the negatives' ``sample_weight`` multiplied by ``w``.

        Examples
        --------
        >>> from prcurve import pr_curve
        >>> c = pr_curve([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
        >>> d = c.at_prevalence(0.1)
        >>> round(d.prevalence, 12), d.precision.round(3).tolist()
        (0.1, [1.0, 0.1, 0.182, 0.25, 0.143, 0.1])
        """
        pi = check_prevalence(prevalence)
        w = float(negative_factor(self.n_pos, self.n_neg, pi))
        fp = np.multiply(self.fp, w, dtype=np.float64)
        return PRCurve(
            thresholds=self.thresholds,
            tp=self.tp,
            fp=fp,
            precision=precision_of(self.tp, fp),
            recall=self.recall,
            n_pos=self.n_pos,
            n_neg=float(self.n_neg * w),
            threshold_rule=self.threshold_rule,
        )

    def precision_at(self, recall: Any, *, ties: str = "interpolate") -> np.ndarray | float:
        """The functional estimator PR̂(β) at recall levels β in (0, 1].

        Parameters
        ----------
        recall : float or array-like
            Recall levels in (0, 1].
        ties : {"interpolate", "strict"}
            How a tie group of scores is read.  ``"interpolate"`` (default): the precision of
            the expected operating point when the instances tied at the quantile are taken in
            random order and cut where the expected recall is β, i.e. the Davis–Goadrich
            interpolated curve at recall β — the curve that is drawn, and the
            one the confidence band, pointwise intervals and comparison are centred on.
            ``"strict"``: the papers' estimator, counting only the negatives strictly above the
            quantile (the estimator of the generalized-inverse population curve of discrete
            laws, Hughes-Oliver eq. 5, e.g. Case F).  Without ties the two are equal except
            at recall k/n₊, where ``"strict"`` reads the bottom of a vertical drop and
            ``"interpolate"`` its top.

        Returns
        -------
        float or ndarray
            Shaped like ``recall``.

        Notes
        -----
        Clémençon & Vayatis (2009) eq. (3), Hughes-Oliver section 3.1:
        ``PR̂(β) = n₊β / (n₊β + n₋ α̂(β))`` with ``α̂(β) = 1 − Ĥ(Ĝ⁻¹(1 − β))``, ``Ĝ`` and
        ``Ĥ`` the empirical CDFs of positive and negative scores and
        ``F⁻¹(p) = inf{z : F(z) >= p}``.  ``Ĝ⁻¹(1−β)`` is the lowest positive score ``z`` with
        at most ``n₊β`` positives strictly above it; ``n₋α̂`` is the number of negatives
        strictly above ``z`` (``"strict"``), or that number plus the share
        ``(n₊β − P₍>z₎)/P₍=z₎`` of the negatives tied at ``z`` (``"interpolate"``).  With weights,
        counts are total weights.  The definition lives in ``prcurve._core._batch`` and is
        shared with the batched (bootstrap, simulation) estimators.

        Examples
        --------
        >>> from prcurve import pr_curve
        >>> curve = pr_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
        >>> curve.precision_at(0.75), curve.precision_at(0.75, ties="strict")
        (0.75, 1.0)
        """
        ties = check_choice(ties, "ties", TIES)
        beta = check_unit_interval_array(recall, "recall", low_open=True, high_open=False)
        value = functional_precision(
            self.tp, self.fp, self.n_pos, np.atleast_1d(beta).ravel(), ties=ties
        )
        return float(value[0]) if np.ndim(beta) == 0 else value.reshape(np.shape(beta))

    def interpolate(self, recall: Any = None, *, num: int = 200) -> tuple[np.ndarray, np.ndarray]:
        """The Davis–Goadrich interpolated curve, for drawing or reading off.

        Parameters
        ----------
        recall : array-like, optional
            Recall levels in [0, 1]; the precision of the interpolated curve there (upper value
            at vertical drops) is returned.  When omitted, a path through every operating point
            (vertical drops included) with ``num`` extra recall levels spread over [0, 1].
        num : int
            Extra recall levels on the default path.

        Returns
        -------
        recall, precision : ndarray
        """
        if recall is not None:
            r = check_unit_interval_array(recall, "recall", low_open=False, high_open=False)
            return r, interpolate_counts(self.tp, self.fp, self.n_pos, r)
        num = check_positive_int(num, "num", minimum=2)
        grid = np.linspace(0.0, 1.0, num)
        r = np.concatenate([grid, self.recall])
        p = np.concatenate([interpolate_counts(self.tp, self.fp, self.n_pos, grid), self.precision])
        # order by recall; at equal recall the operating points keep their order (drops) and a
        # grid value (the upper envelope) comes first
        key = np.concatenate([np.zeros(num), np.arange(1, self.recall.shape[0] + 1)])
        order = np.lexsort((key, r))
        return r[order], p[order]

    def thin(self, max_points: int = 1000) -> PRCurve:
        """A copy with at most ``max_points`` operating points, for drawing, logging, shipping.

        Parameters
        ----------
        max_points : int
            Point budget (at least 2).  Every vertex of the ROC convex hull and both end points
            are always kept, so a curve with more hull vertices than ``max_points`` keeps them
            all; the rest of the budget is spread evenly along the curve's path length.

        Returns
        -------
        PRCurve
            The curve itself when it has at most ``max_points`` points; otherwise a thinned
            curve whose ``thinning`` records the full number of points, the bound on the
            precision error and the areas of the full curve.

        Notes
        -----
        The bound ``thinning.max_precision_error`` holds for the Davis–Goadrich interpolated
        curves at every recall level (upper values at vertical drops): it is computed exactly
        from the segments of both curves (see ``prcurve._core._thin``).  Every area
        (``auc(method)`` and ``thinning.roc_auc``) is computed on the full curve before
        thinning; ``achievable()`` is unchanged by thinning (the hull vertices are kept).  The
        functional estimator ``precision_at`` and ``to_roc()`` of a thinned curve use only its
        points (but ``to_roc().auc()`` is the full curve's area).  Thinning a thinned curve adds
        the two bounds.

        Examples
        --------
        >>> import numpy as np
        >>> from prcurve import pr_curve
        >>> rng = np.random.default_rng(0)
        >>> y = rng.random(100_000) < 0.05
        >>> curve = pr_curve(y, rng.normal(size=y.size) + 2 * y)
        >>> small = curve.thin(200)
        >>> small.tp.shape[0] <= 200, small.auc() == curve.auc()
        (True, True)
        >>> bool(small.thinning.max_precision_error < 0.05)
        True
        """
        max_points = check_positive_int(max_points, "max_points", minimum=2)
        k = self.tp.shape[0]
        if k <= max_points:
            return self
        hull = upper_hull_indices(self.fp, self.tp)
        keep, bound = thin_indices(self.tp, self.fp, hull, max_points)
        if self.thinning is None:
            areas = {m: self.auc(m) for m in AUC_PR_METHODS}
            info = Thinning(k, bound, areas, self._roc_auc())
        else:
            previous = self.thinning
            info = Thinning(
                previous.n_points,
                previous.max_precision_error + bound,
                previous.areas,
                previous.roc_auc,
            )
        return replace(self._points(keep), thinning=info)

    def _roc_auc(self) -> float:
        """``self.to_roc().auc()`` (of a curve on disk without writing its rates anywhere)."""
        if not is_on_disk(self.tp):
            return self.to_roc().auc()
        return _disk_roc_auc(self.tp, self.fp, self.n_pos, self.n_neg)

    def to_roc(self) -> ROCCurve:
        """The same operating points in ROC space (Davis & Goadrich Theorem 3.1)."""
        tp, fp, n_pos, n_neg = self.tp, self.fp, self.n_pos, self.n_neg
        if is_on_disk(tp):  # computed from the counts where read (never written)
            fpr: Any = counts_column(lambda f: f / n_neg, fp)
            tpr: Any = counts_column(lambda t: t / n_pos, tp)
        else:
            fpr, tpr = fp / n_neg, tp / n_pos
        return ROCCurve(
            thresholds=self.thresholds,
            tp=tp,
            fp=fp,
            fpr=fpr,
            tpr=tpr,
            n_pos=self.n_pos,
            n_neg=self.n_neg,
            full_auc=None if self.thinning is None else self.thinning.roc_auc,
        )

    def to_frame(self) -> Any:
        """The operating points as a tidy pandas DataFrame (one row each; pandas needed).

        Columns ``threshold``, ``tp``, ``fp``, ``precision``, ``recall``.

        Examples
        --------
        >>> from prcurve import pr_curve
        >>> pr_curve([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.6]).to_frame().columns.tolist()
        ['threshold', 'tp', 'fp', 'precision', 'recall']
        """
        return data_frame(
            {
                "threshold": self.thresholds,
                "tp": self.tp,
                "fp": self.fp,
                "precision": self.precision,
                "recall": self.recall,
            }
        )

    def achievable(self) -> PRCurve:
        """The achievable PR curve: the ROC convex hull's vertices as PR points.

        Notes
        -----
        Davis & Goadrich (2006) Corollary 3.1 and section 4: the vertices of the ROC convex
        hull, mapped to PR space, joined by Davis–Goadrich interpolation (use
        ``auc(method="davis_goadrich")`` for its area).  Vertices predicting no positive are left
        out: the hull then starts at the origin and the first segment has constant precision.
        """
        return self._points(upper_hull_indices(self.fp, self.tp))

    def _points(self, keep: np.ndarray) -> PRCurve:
        """The curve of the operating points ``keep`` (indices or mask), nothing else kept."""
        if is_on_disk(self.tp):
            points = self._gathered(keep)
            release_all()  # the pages the scattered reads mapped go back
            return points
        return self._gathered(keep)

    def _gathered(self, keep: np.ndarray) -> PRCurve:
        if is_on_disk(self.tp) and np.asarray(keep).dtype != bool:
            keep = np.asarray(keep)
            return PRCurve(
                thresholds=take(self.thresholds, keep), tp=take(self.tp, keep),
                fp=take(self.fp, keep), precision=take(self.precision, keep),
                recall=take(self.recall, keep), n_pos=self.n_pos, n_neg=self.n_neg,
                threshold_rule=self.threshold_rule,
            )  # fmt: skip
        return PRCurve(
            thresholds=self.thresholds[keep],
            tp=self.tp[keep],
            fp=self.fp[keep],
            precision=self.precision[keep],
            recall=self.recall[keep],
            n_pos=self.n_pos,
            n_neg=self.n_neg,
            threshold_rule=self.threshold_rule,
        )


def _roc_auc_in_blocks(
    k: int, fpr: Callable[[slice], np.ndarray], tpr: Callable[[slice], np.ndarray],
    *arrays: np.ndarray,
) -> float:  # fmt: skip
    """:meth:`ROCCurve.auc` of ``k`` points whose rates ``fpr(rows)``/``tpr(rows)`` are read
    a block at a time (a curve on disk): the same trapezoids, summed block by block; the
    pages of ``arrays`` handed back as it goes."""

    def term(b: slice) -> np.ndarray:
        rows = slice(max(b.start - 1, 0), b.stop)
        x, y = fpr(rows), tpr(rows)
        if b.start == 0:
            x, y = np.concatenate([[0.0], x]), np.concatenate([[0.0], y])
        return np.diff(x) * (y[1:] + y[:-1]) / 2

    return block_sum(k, term, *arrays)


@compact_repr
@dataclass(frozen=True)
class ROCCurve:
    """An empirical ROC curve: one row per operating point, thresholds decreasing.

    The origin (0, 0) is implied before the first point and is not stored.  ``full_auc`` is
    ``None`` except for the ROC curve of a thinned PR curve (:meth:`PRCurve.thin`), where it
    holds the area of the full curve, which :meth:`auc` then returns.
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    n_pos: float
    n_neg: float
    full_auc: float | None = None

    @classmethod
    def from_counts(cls, counts: BinaryCounts) -> ROCCurve:
        """Build the curve from the engine's counts."""
        return PRCurve.from_counts(counts).to_roc()

    def auc(self) -> float:
        """Area under the ROC curve (trapezoids from the origin; the Mann–Whitney statistic).

        For the ROC curve of a thinned PR curve, the area of the full curve (before thinning).
        """
        if self.full_auc is not None:
            return float(self.full_auc)
        # Σ Δfpr·(tpr + tpr_prev)/2 block by block: a block's temporaries, and the same value
        # for a curve in memory and on disk (prcurve._core._disk)
        fpr, tpr = self.fpr, self.tpr
        return _roc_auc_in_blocks(fpr.shape[0], fpr.__getitem__, tpr.__getitem__, fpr, tpr)

    def convex_hull(self) -> ROCCurve:
        """The ROC convex hull: the operating points that are its vertices (origin implied)."""
        keep = upper_hull_indices(self.fp, self.tp)
        hull = ROCCurve(
            thresholds=self.thresholds[keep],
            tp=self.tp[keep],
            fp=self.fp[keep],
            fpr=self.fpr[keep],
            tpr=self.tpr[keep],
            n_pos=self.n_pos,
            n_neg=self.n_neg,
        )
        if is_on_disk(self.tp):
            release_all()  # the pages the scattered reads mapped go back
        return hull

    def to_frame(self) -> Any:
        """The operating points as a tidy pandas DataFrame (one row each; pandas needed).

        Columns ``threshold``, ``tp``, ``fp``, ``fpr``, ``tpr`` (the implied origin is not a row).
        """
        return data_frame(
            {
                "threshold": self.thresholds,
                "tp": self.tp,
                "fp": self.fp,
                "fpr": self.fpr,
                "tpr": self.tpr,
            }
        )

    def to_pr(self) -> PRCurve:
        """The same operating points in PR space (Davis & Goadrich Theorem 3.1).

        Points that predict no instance positive (TP = FP = 0) have no precision and are left out.
        """
        keep = (self.tp + self.fp) > 0
        tp, fp = self.tp[keep], self.fp[keep]
        return PRCurve(
            thresholds=self.thresholds[keep],
            tp=tp,
            fp=fp,
            precision=tp / (tp + fp),
            recall=tp / self.n_pos,
            n_pos=self.n_pos,
            n_neg=self.n_neg,
        )


def pr_curve(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    threshold_rule: str = "ge",
    soft_labels: bool = False,
) -> PRCurve:
    """Compute the empirical precision-recall curve.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels: {0, 1}, {-1, 1}, booleans, or any two labels with ``pos_label``.
    y_score : array-like of shape (n,)
        Finite scores; larger means more likely positive.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights, free of scale (multiplying them all by a constant changes no
        result).  **A row of zero weight is dropped as if absent**: a score whose rows all have
        zero weight is not an operating point, and does not label one under either threshold
        rule.  The same rule holds in :func:`roc_curve`, :func:`auc_pr`,
        :func:`evaluate_thresholds`, the PRG curve and every bootstrap.
    pos_label : optional
        The label of the positive class.
    threshold_rule : {"ge", "gt"}
        Label the points by the rule ``score >= t`` (default) or ``score > t`` (PR*).  Either
        way, ``evaluate_thresholds(y_true, y_score, curve.thresholds,
        threshold_rule=curve.threshold_rule)`` gives back the curve's own points.
    soft_labels : bool
        With True, ``y_true`` holds for each instance the probability ``p`` in [0, 1] that it
        is positive (PRROC's weighted curves, Keilwagen, Grosse & Grau 2014): an instance of
        weight ``w`` adds ``p·w`` to the positives and ``(1 − p)·w`` to the negatives of its
        score, so ``tp``, ``fp``, ``n_pos`` and ``n_neg`` are float masses.  The curve equals
        that of the hard-labelled data in which each instance is split into a positive of weight
        ``p·w`` and a negative of weight ``(1 − p)·w``, so every method of :class:`PRCurve`
        keeps its weighted-data meaning.  Labels that are all 0 or 1 give the ordinary curve
        exactly.  ``pos_label`` does not apply.

    Returns
    -------
    PRCurve

    Notes
    -----
    Ties in the scores form one operating point.  Counts come from one sort of the scores (see
    the engine in ``prcurve._core._counts``); unweighted counts are exact integers at any size.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import pr_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.1
    >>> s = rng.normal(size=1000) + 1.5 * y
    >>> curve = pr_curve(y, s)
    >>> float(curve.recall[-1]), bool(np.isclose(curve.precision[-1], y.mean()))
    (1.0, True)

    Soft labels: the second instance is positive with probability 0.25.

    >>> soft = pr_curve([1.0, 0.25, 0.0], [0.9, 0.5, 0.1], soft_labels=True)
    >>> soft.tp.tolist(), soft.fp.tolist(), soft.n_pos
    ([1.0, 1.25, 1.25], [0.0, 0.75, 1.75], 1.25)
    """
    counts = binary_counts(
        y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
        soft_labels=soft_labels,
    )  # fmt: skip
    return PRCurve.from_counts(counts, threshold_rule=threshold_rule)


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    soft_labels: bool = False,
) -> ROCCurve:
    """Compute the empirical ROC curve (same engine and arguments as :func:`pr_curve`).

    With ``soft_labels=True`` (see :func:`pr_curve`) the area is PRROC's ROC area for
    soft-labelled data: trapezoids through the (FP/n₋, TP/n₊) mass points.

    Examples
    --------
    >>> from prcurve import roc_curve
    >>> roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).auc()
    0.75
    """
    counts = binary_counts(
        y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
        soft_labels=soft_labels,
    )  # fmt: skip
    return ROCCurve.from_counts(counts)


def auc_pr(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "average_precision",
    sample_weight: Any = None,
    pos_label: Any = None,
    recall_range: tuple[float, float] | None = None,
    normalize: bool = False,
    prevalence: float | None = None,
    soft_labels: bool = False,
) -> float:
    """Area under the precision-recall curve.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, soft_labels
        As in :func:`pr_curve`.  With soft labels every method is the same estimator on the
        curve of positive and negative masses, i.e. on the weighted data that split each
        instance into its positive and negative parts; ``"davis_goadrich"`` is then PRROC's
        ``auc.integral`` (Keilwagen et al. 2014: interpolation in count space stays valid for
        weighted counts).  PRROC's ``auc.davis.goadrich`` (integer TP steps) has no meaning for
        fractional counts, and PRROC does not compute it for them.
    method : str
        ``"average_precision"`` (default)
            ``Σ_k (R_k − R_{k−1}) P_k`` with ``R_0 = 0``: a step function read at the right end of
            each recall step; equal to scikit-learn's ``average_precision_score``.
        ``"davis_goadrich"``
            Exact integral of the Davis–Goadrich interpolated curve, starting from
            ``TP = FP = 0`` (so the first segment has the constant precision of the first point).
        ``"trapezoid"``
            Straight lines between consecutive points in PR space, starting at
            ``(0, P_1)``; not achievable (Davis & Goadrich 2006, section 4), offered for
            comparison only.  Between consecutive points A, B with ``TP_B > TP_A`` the
            Davis–Goadrich precision ``(a + x)/(d + c x)`` is convex in recall when precision
            falls (``P_B < P_A``) and concave when it rises, so the straight line lies above
            the achievable curve on falling segments and below it on rising ones (equal where
            ``P_A = P_B``; the first segment, from recall 0, is the same flat piece in both).
            The trapezoid therefore overestimates the ``"davis_goadrich"`` area whenever
            precision never rises from one operating point to the next, the usual shape, but
            not in general: after negatives ranked first precision rises from 0 (see the
            examples).
        ``"lower_trapezoid"``
            Boyd et al. (2013): points ``(0, 1)`` then one per threshold; for each distinct recall
            the minimum and maximum precision; ``Σ_i (r_i − r_{i−1})(p_{i−1}^min + p_i^max)/2``.
            Despite the name it is not a lower bound: the segment from the assumed start
            ``(0, 1)`` to the first point ``(r_1, p_1)`` adds ``r_1 (1 + p_1)/2``, which is most
            of the value when the first operating point has a high recall (few distinct or
            heavily tied scores): a constant score gives ``(1 + π₊)/2`` (0.61 at prevalence
            0.21) while its average precision is ``π₊``.  The report says so in a note.
        ``"interpolated_median"``
            Boyd et al. (2013): the median precision at each distinct recall, joined by
            Davis–Goadrich interpolation; from recall 0 a rectangle at the next median.
    recall_range : (a, b), optional
        Partial area between recalls ``0 <= a < b <= 1``: the estimator's curve integrated
        exactly over that range (Davis–Goadrich segments are cut in count space, where the cut
        piece is again a segment with a closed-form area; steps and straight lines are cut
        where they cross ``a`` and ``b``).  Offered for ``average_precision``,
        ``davis_goadrich``, ``trapezoid`` and ``lower_trapezoid``; not for
        ``interpolated_median``, whose medians of tied groups have no meaning on part of a group.
    normalize : bool
        With ``recall_range``, divide by ``b − a``: the mean precision over the range (1 for a
        perfect ranking, about the prevalence for a random one).
    prevalence : float, optional
        Deployment prevalence π in (0, 1): the area of the curve at π (see
        :meth:`PRCurve.at_prevalence`), the same as weighting every negative by
        ``n₊(1 − π)/(π n₋)``.

    Returns
    -------
    float

    Examples
    --------
    >>> from prcurve import auc_pr
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> round(auc_pr(y, s), 4), round(auc_pr(y, s, method="davis_goadrich"), 4)
    (0.8333, 0.7973)

    A negative ranked first: precision rises from 0, and the straight line lies below the
    achievable curve.

    >>> [round(auc_pr([0, 1], [2, 1], method=m), 4) for m in ("trapezoid", "davis_goadrich")]
    [0.25, 0.3069]
    """
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    counts = binary_counts(
        y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
        soft_labels=soft_labels,
    )  # fmt: skip
    if recall_range is not None or normalize or prevalence is not None:
        return area_with_options(
            counts.tp, counts.fp, counts.n_pos, counts.n_neg, method,
            recall_range=recall_range, normalize=normalize, prevalence=prevalence,
        )  # fmt: skip
    return area_from_counts(counts.tp, counts.fp, counts.n_pos, method)


def achievable_pr_curve(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    soft_labels: bool = False,
) -> PRCurve:
    """The achievable PR curve of a scorer (see :meth:`PRCurve.achievable`); arguments as in
    :func:`pr_curve`."""
    return pr_curve(
        y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
        soft_labels=soft_labels,
    ).achievable()  # fmt: skip


def dominates(curve_a: PRCurve | ROCCurve, curve_b: PRCurve | ROCCurve) -> bool:
    """Whether curve A dominates curve B (nowhere below it), for curves on the same data.

    Notes
    -----
    Davis & Goadrich (2006) Theorem 3.2: with fixed n₊ and n₋, a curve dominates in ROC space
    if and only if it dominates in PR space, so the check is made on the ROC polylines (both
    taken through the origin), at every breakpoint of either curve and on both sides of jumps.
    """
    for name, c in (("curve_a", curve_a), ("curve_b", curve_b)):
        if not isinstance(c, PRCurve | ROCCurve):
            raise TypeError(f"{name}: expected a PRCurve or ROCCurve, got {type(c).__name__}")
    if not (np.isclose(curve_a.n_pos, curve_b.n_pos) and np.isclose(curve_a.n_neg, curve_b.n_neg)):
        raise ValueError(
            "curve_a, curve_b: expected curves on the same data (equal n_pos and n_neg), got "
            f"({curve_a.n_pos}, {curve_a.n_neg}) and ({curve_b.n_pos}, {curve_b.n_neg})"
        )
    ra = curve_a.to_roc() if isinstance(curve_a, PRCurve) else curve_a
    rb = curve_b.to_roc() if isinstance(curve_b, PRCurve) else curve_b
    return envelope_dominates(ra.fpr, ra.tpr, rb.fpr, rb.tpr)


def evaluate_thresholds(
    y_true: Any,
    y_score: Any,
    thresholds: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    threshold_rule: str = "ge",
    soft_labels: bool = False,
) -> PRCurve:
    """PR points of (test) data at thresholds chosen elsewhere (e.g. on tuning data).

    Davis & Goadrich (2006, section 5) choose the ROC-hull thresholds on tuning data and apply
    them to test data; this gives the test points, predicting positive when ``score >= t``.

    Parameters
    ----------
    thresholds : array-like
        Thresholds; duplicates are merged and they are returned in decreasing order, in their
        own dtype.  They are compared with the scores exactly, whatever the two dtypes (an int64
        score above 2**53 is not rounded to a double first).  Thresholds
        above every score predict nothing positive, have no precision, and are dropped with a
        :class:`ThresholdsDroppedWarning`.
    threshold_rule : {"ge", "gt"}
        Predict positive when ``score >= t`` (default) or ``score > t``; use the rule of the
        curve the thresholds came from (``curve.threshold_rule``).
    soft_labels : bool
        ``y_true`` holds probabilities of being positive, as in :func:`pr_curve`.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import pr_curve, evaluate_thresholds
    >>> rng = np.random.default_rng(1)
    >>> y = rng.random(400) < 0.2; s = rng.normal(size=400) + y
    >>> hull = pr_curve(y[:200], s[:200]).achievable()          # tuning half
    >>> test = evaluate_thresholds(y[200:], s[200:], hull.thresholds)
    >>> test.thresholds.shape == np.unique(hull.thresholds).shape
    True
    """
    check_choice(threshold_rule, "threshold_rule", THRESHOLD_RULES)
    y, s, w = check_binary_problem(
        y_true, y_score, sample_weight, pos_label, soft_labels=soft_labels
    )
    t = np.asarray(thresholds)
    if t.ndim != 1 or t.shape[0] == 0 or t.dtype.kind not in "biuf":
        raise ValueError(f"thresholds: expected a non-empty 1-D array of numbers, got {t!r}")
    counts = count_sorted(y, s, w)
    t = np.unique(t)[::-1]
    ascending = counts.thresholds[::-1]
    # counts at t: those of the lowest distinct score >= t (rule "ge") or > t (rule "gt"),
    # compared exactly whatever the dtypes (see prcurve._core._thresholds)
    k = ascending.shape[0] - 1 - count_index(ascending, t, threshold_rule)
    valid = k >= 0
    if not valid.any():
        raise ValueError(
            f"thresholds: expected at least one threshold at or below the highest score "
            f"{ascending[-1]!r}, got all above it (lowest {t[-1]!r})"
        )
    if not valid.all():
        warnings.warn(
            f"{int((~valid).sum())} threshold(s) above every score predict no positive and "
            "were dropped",
            ThresholdsDroppedWarning,
            stacklevel=2,
        )
    t, k = t[valid], k[valid]
    tp, fp = counts.tp[k], counts.fp[k]
    return PRCurve(
        thresholds=t,
        tp=tp,
        fp=fp,
        precision=tp / (tp + fp),
        recall=tp / counts.n_pos,
        n_pos=counts.n_pos,
        n_neg=counts.n_neg,
        threshold_rule=threshold_rule,
    )
