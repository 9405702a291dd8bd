"""Precision-recall-gain curves: AUPRG, convex hull, F_β-optimal threshold, expected F-gain.

A :class:`PRGCurve` holds the same operating points as :class:`~prcurve.PRCurve` (it is built
from the same counting engine, or from a computed PR or ROC curve without sorting again), mapped
to (recall gain, precision gain).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._area import CHUNK
from .._core._columns import counts_column
from .._core._counts import BinaryCounts, binary_counts
from .._core._disk import (
    block_sum,
    derived_columns,
    first_index,
    is_on_disk,
    release_all,
    release_rows,
)
from .._core._empirical import PRCurve, ROCCurve
from .._core._frame import data_frame
from .._core._hull import upper_hull_indices
from .._core._results import compact_repr
from ._gain import check_beta, count_gain, count_gains, expected_f_gain

__all__ = ["FBetaOptimum", "PRGCurve", "prg_curve"]


@compact_repr
@dataclass(frozen=True)
class FBetaOptimum:
    """The operating point of maximal F_β, read off the PRG convex hull.

    Attributes
    ----------
    threshold : float
        Predict positive when ``score >= threshold`` (or ``>`` with ``threshold_rule="gt"``).
    f_beta, f_gain : float
        The maximal F_β and its gain ``(F_β − π) / ((1 − π) F_β)``.
    precision, recall, precision_gain, recall_gain : float
        Of that operating point.
    tp, fp : float
        Its true and false positives (counts or total weights).
    beta : float
    """

    threshold: float
    f_beta: float
    f_gain: float
    precision: float
    recall: float
    precision_gain: float
    recall_gain: float
    tp: float
    fp: float
    beta: float


@compact_repr
@dataclass(frozen=True)
class PRGCurve:
    """An empirical precision-recall-gain curve: one row per operating point.

    All arrays have one length ``k`` (the number of distinct scores) and are ordered by
    decreasing threshold, i.e. increasing recall gain: the same rows as :class:`PRCurve`.

    Attributes
    ----------
    thresholds : ndarray, shape (k,)
        As in :class:`PRCurve` (see its ``threshold_rule``).
    tp, fp : ndarray, shape (k,)
        Cumulative true / false positives (int64, or float64 total weights).
    precision_gain, recall_gain : ndarray, shape (k,)
        ``1 − (n₊ FP)/(n₋ TP)`` and ``1 − (n₊ FN)/(n₋ TP)``, at most 1.  Points with ``TP = 0``
        (only negatives above the threshold) have precision and recall 0: both gains are
        ``-inf`` there (never NaN).  Points with recall below π have negative recall gain and
        lie left of the PRG plot.
    n_pos, n_neg : int or float
        Number (weight) of positives and negatives.
    threshold_rule : {"ge", "gt"}

    Notes
    -----
    Flach & Kull (2015).  Interpolating contingency tables is linear interpolation in PRG space
    (supplement Theorem 1), so the curve is the polyline through its points, and its upper
    convex hull is the curve of achievable operating points.  See :meth:`auc`, :attr:`y0`,
    :meth:`convex_hull`, :meth:`best_f_threshold` and :meth:`expected_f_gain`.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import PRGCurve, pr_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> pr = pr_curve(y, rng.normal(size=400) + y)       # one sort ...
    >>> prg = PRGCurve.from_pr(pr)                        # ... reused for the PRG curve
    >>> hull = prg.convex_hull()
    >>> bool(hull.auc() >= prg.auc()), bool(prg.y0 <= 1)
    (True, True)
    >>> np.array_equal(prg.to_pr().precision, pr.precision)
    True
    """

    thresholds: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    precision_gain: np.ndarray
    recall_gain: np.ndarray
    n_pos: float
    n_neg: float
    threshold_rule: str = "ge"

    # --- construction and conversion -------------------------------------------------------

    @classmethod
    def from_counts(cls, counts: BinaryCounts, *, threshold_rule: str = "ge") -> PRGCurve:
        """Build the curve from the engine's counts."""
        return cls.from_pr(PRCurve.from_counts(counts, threshold_rule=threshold_rule))

    @classmethod
    def from_pr(cls, curve: PRCurve) -> PRGCurve:
        """The operating points of a computed PR curve, in PRG space (no new sort)."""
        if not isinstance(curve, PRCurve):
            raise TypeError(f"curve: expected a PRCurve, got {type(curve).__name__}")
        tp, fp, n_pos, n_neg = curve.tp, curve.fp, curve.n_pos, curve.n_neg
        pg: Any
        rg: Any
        if is_on_disk(tp):  # computed from the counts where read (never written)
            pg = counts_column(lambda f, t: count_gain(f, t, n_pos, n_neg), fp, tp)
            rg = counts_column(lambda t: count_gain(n_pos - t, t, n_pos, n_neg), tp)
        else:  # in pieces: few temporaries of millions of points
            pg, rg = derived_columns(
                tp,
                lambda part: count_gains(tp[part], fp[part], n_pos - tp[part], n_pos, n_neg),
                (np.float64, np.float64),
                block=CHUNK,
            )
        return cls(
            thresholds=curve.thresholds,
            tp=curve.tp,
            fp=curve.fp,
            precision_gain=pg,
            recall_gain=rg,
            n_pos=curve.n_pos,
            n_neg=curve.n_neg,
            threshold_rule=curve.threshold_rule,
        )

    @classmethod
    def from_roc(cls, curve: ROCCurve) -> PRGCurve:
        """The operating points of a computed ROC curve, in PRG space.

        Points predicting no instance positive (``TP = FP = 0``) have no precision and are left
        out, as in :meth:`ROCCurve.to_pr`.
        """
        if not isinstance(curve, ROCCurve):
            raise TypeError(f"curve: expected a ROCCurve, got {type(curve).__name__}")
        return cls.from_pr(curve.to_pr())

    def to_pr(self) -> PRCurve:
        """The same operating points in PR space."""
        return PRCurve(
            thresholds=self.thresholds,
            tp=self.tp,
            fp=self.fp,
            precision=self.precision,
            recall=self.recall,
            n_pos=self.n_pos,
            n_neg=self.n_neg,
            threshold_rule=self.threshold_rule,
        )

    def to_roc(self) -> ROCCurve:
        """The same operating points in ROC space."""
        return self.to_pr().to_roc()

    def to_frame(self) -> Any:
        """The operating points as a tidy pandas DataFrame (one row each; pandas needed).

        Columns ``threshold``, ``tp``, ``fp``, ``precision_gain``, ``recall_gain``.
        """
        return data_frame(
            {
                "threshold": self.thresholds,
                "tp": self.tp,
                "fp": self.fp,
                "precision_gain": self.precision_gain,
                "recall_gain": self.recall_gain,
            }
        )

    # --- per-point quantities ----------------------------------------------------------------

    @property
    def prevalence(self) -> float:
        """π = n₊ / (n₊ + n₋)."""
        return float(self.n_pos / (self.n_pos + self.n_neg))

    @property
    def precision(self) -> np.ndarray:
        """``tp / (tp + fp)`` at every operating point."""
        return self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> np.ndarray:
        """``tp / n_pos`` at every operating point."""
        return self.tp / self.n_pos

    @property
    def in_unit_square(self) -> np.ndarray:
        """Boolean mask of the operating points with both gains in [0, 1]."""
        return (self.recall_gain >= 0) & (self.precision_gain >= 0)

    def f_gain(self, beta: float = 1) -> np.ndarray:
        """``FG_β = (precG + β² recG)/(1 + β²)`` at every operating point (``-inf`` if TP = 0)."""
        b2 = check_beta(beta) ** 2
        return (self.precision_gain + b2 * self.recall_gain) / (1.0 + b2)

    # --- the curve over recall gain [0, 1] ---------------------------------------------------

    def _start(self) -> tuple[int, float]:
        """Index of the first point with recall gain >= 0, and the precision gain y0 at 0."""
        rg = self.recall_gain  # (the last point of a whole curve has recall gain 1)
        j = first_index(rg.shape[0], lambda b: rg[b] >= 0, rg)
        if j == rg.shape[0]:  # none (a curve of some thresholds only): the first, as argmax
            j = 0
        if self.recall_gain[j] == 0:
            return j, float(self.precision_gain[j])
        # in recall / false-positive-rate units (products of two weights may under- or overflow)
        n_pos, n_neg, pi = float(self.n_pos), float(self.n_neg), float(self.prevalence)
        r_a = float(self.tp[j - 1]) / n_pos if j > 0 else 0.0
        f_a = float(self.fp[j - 1]) / n_neg if j > 0 else 0.0
        r_b, f_b = float(self.tp[j]) / n_pos, float(self.fp[j]) / n_neg
        if pi <= 0.0 or r_b <= r_a:  # a prevalence below the doubles: the crossing is point j
            return j, float(self.precision_gain[j])
        alpha = (pi - r_a) / (r_b - r_a)  # interpolate to TP = n₊π, i.e. recall gain 0
        f_star = f_a + alpha * (f_b - f_a)
        return j, float(1.0 - f_star / pi)

    @property
    def y0(self) -> float:
        """Precision gain where the curve crosses recall gain 0 (its start point ``(0, y0)``).

        The contingency tables of the two operating points around recall π are interpolated to
        ``TP = n₊π`` (Flach & Kull's crossing point; by Theorem 1 this is the straight line in
        PRG space).  Before the first point the table is interpolated with the empty
        prediction, which keeps the first point's precision.

        With a prevalence below the smallest normal double (weights spanning more than about
        10³⁰⁸) this gain is below ``-1.8e308`` and is returned as ``-inf`` (then also
        :meth:`auc`): the true value is not representable, and no NaN is produced.
        """
        return self._start()[1]

    def path(self, *, from_zero: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """The polyline of the curve, for drawing and integrating.

        Parameters
        ----------
        from_zero : bool
            True (default): start at ``(0, y0)`` and keep the operating points with recall gain
            >= 0, ending at ``(1, 0)``, the always-positive classifier.  False: every operating
            point with finite gains (``TP > 0``), including those left of recall gain 0.

        Returns
        -------
        recall_gain, precision_gain : ndarray, shape (m,)
        """
        if not from_zero:
            keep = self.tp > 0
            return self.recall_gain[keep], self.precision_gain[keep]
        j, y0 = self._start()
        x, y = self.recall_gain[j:], self.precision_gain[j:]
        if x[0] > 0:
            x, y = np.concatenate([[0.0], x]), np.concatenate([[y0], y])
        return x, y

    def auc(self) -> float:
        """AUPRG: the area under the PRG curve over recall gain in [0, 1].

        Notes
        -----
        As Flach & Kull (2015) define it and their reference implementation computes it: the
        polyline of :meth:`path` (straight lines are exact in PRG space by Theorem 1), starting
        at the crossing of recall gain 0 (:attr:`y0`), integrated by trapezoids.  Parts of the
        curve below precision gain 0 count as negative area, so AUPRG may be negative; a random
        scorer has about 0 and a perfect one 1.

        Examples
        --------
        >>> from prcurve import prg_curve
        >>> round(prg_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2]).auc(), 6)
        0.708333
        """
        return self._auc_in_blocks()

    def _auc_in_blocks(self) -> float:
        """:meth:`auc`: the trapezoids over :meth:`path`, summed block by block (a block's
        temporaries, and the same value for a curve in memory and on disk)."""
        j, y0 = self._start()
        rg, pg = self.recall_gain, self.precision_gain
        k = rg.shape[0]

        def term(b: slice) -> np.ndarray:
            lo = j + b.start
            x, y = rg[max(lo - 1, j) : j + b.stop], pg[max(lo - 1, j) : j + b.stop]
            if b.start == 0 and x[0] > 0:
                x, y = np.concatenate([[0.0], x]), np.concatenate([[y0], y])
            out = np.diff(x) * (y[1:] + y[:-1])
            release_rows(rg, slice(lo, j + b.stop))
            release_rows(pg, slice(lo, j + b.stop))
            return out

        return block_sum(k - j, term) / 2 + 0.0  # no -0.0

    def convex_hull(self) -> PRGCurve:
        """The operating points that are vertices of the upper convex hull in PRG space.

        Notes
        -----
        Flach & Kull (2015) Theorem 1: interpolating contingency tables moves along straight
        lines in PRG space, so the hull is the set of achievable operating points.  The map from
        ROC counts ``(FP, TP)`` to PRG is projective (division by TP), which keeps lines and
        convexity, so the hull's vertices are those of the ROC convex hull (with the origin,
        whose interpolations give a horizontal ray to the left of the first vertex); vertices
        with ``TP = 0`` never occur.  As in ROC space the last operating point (everything
        predicted positive, at ``(1, 0)``) is always kept, so the hull ends where every PRG curve
        ends (after a vertical drop when another point has recall 1).  Its :meth:`auc` is the
        AUPRG of the hull.
        """
        keep = upper_hull_indices(self.fp, self.tp)
        keep = keep[self.tp[keep] > 0]
        hull = PRGCurve(
            thresholds=self.thresholds[keep],
            tp=self.tp[keep],
            fp=self.fp[keep],
            precision_gain=self.precision_gain[keep],
            recall_gain=self.recall_gain[keep],
            n_pos=self.n_pos,
            n_neg=self.n_neg,
            threshold_rule=self.threshold_rule,
        )
        if is_on_disk(self.tp):
            release_all()  # the pages the scattered reads mapped go back
        return hull

    def best_f_threshold(self, beta: float = 1) -> FBetaOptimum:
        """The threshold of maximal F_β, read off the convex hull.

        Notes
        -----
        F_β-gain is linear in PRG space, ``FG_β = (precG + β² recG)/(1 + β²)``, and its level
        lines have slope −β² (Flach & Kull 2015, Theorems 2 and 4), so its maximum over the
        curve is at a hull vertex; F_β increases with FG_β.  When two hull vertices tie (a hull
        edge of slope −β²) the one with the higher threshold is returned.

        Examples
        --------
        >>> from prcurve import prg_curve
        >>> best = prg_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2]).best_f_threshold()
        >>> best.threshold, best.f_beta
        (0.8, 0.8)
        """
        b = check_beta(beta)
        b2 = b * b
        hull = self.convex_hull()
        tp = hull.tp.astype(np.float64)
        f = (1 + b2) * tp / ((1 + b2) * tp + b2 * (self.n_pos - tp) + hull.fp)
        i = int(np.argmax(f))
        pi = self.prevalence
        return FBetaOptimum(
            threshold=float(hull.thresholds[i]),
            f_beta=float(f[i]),
            f_gain=float((1.0 - pi / f[i]) / (1.0 - pi)),
            precision=float(hull.precision[i]),
            recall=float(hull.recall[i]),
            precision_gain=float(hull.precision_gain[i]),
            recall_gain=float(hull.recall_gain[i]),
            tp=float(hull.tp[i]),
            fp=float(hull.fp[i]),
            beta=b,
        )

    def expected_f_gain(self, beta: float = 1, *, gamma: float | None = None) -> float:
        """Expected F_β-gain under uniform Δ_γ (Theorem 3), from this curve's AUPRG and y0.

        See :func:`prcurve.expected_f_gain`.
        """
        return expected_f_gain(self.auc(), self.prevalence, beta=beta, y0=self.y0, gamma=gamma)


def prg_curve(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    threshold_rule: str = "ge",
) -> PRGCurve:
    """Compute the empirical precision-recall-gain curve.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, threshold_rule
        As in :func:`prcurve.pr_curve` (the same counting engine and operating points).  To get
        both curves from one sort, use ``PRGCurve.from_pr(pr_curve(...))``.

    Returns
    -------
    PRGCurve

    Notes
    -----
    Flach & Kull (2015), "Precision-Recall-Gain Curves: PR Analysis Done Right", NIPS.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import prg_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.2
    >>> s = rng.normal(size=500) + 1.5 * y
    >>> curve = prg_curve(y, s)
    >>> float(curve.recall_gain[-1]), float(curve.precision_gain[-1])
    (1.0, 0.0)
    >>> 0 < curve.auc() <= curve.convex_hull().auc() <= 1
    True
    """
    counts = binary_counts(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    return PRGCurve.from_counts(counts, threshold_rule=threshold_rule)
