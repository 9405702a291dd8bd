"""Cumulative gain and lift curves: what the top share of the ranking captures.

Gain at a depth is the recall of the rows flagged, lift the precision of those rows over the
prevalence (how many times better than flagging at random).  Both are read off the one sorted
count table; between two thresholds (inside a group of tied scores) they are the expectation
under a uniformly random order of the tied rows, the linear interpolation of the counts against
the number of rows (proved in :mod:`prcurve._decision._depth`).  Depth counts rows of positive
weight; sample weights weight what the rows hold.

The charts are those of direct marketing and credit scoring (cumulative gains and lift charts;
e.g. Ling & Li 1998, "Data mining for direct marketing: problems and solutions", KDD-98);
top-decile lift is the lift of the top 10 % of the rows.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._counts import BinaryCounts
from .._core._results import UndefinedMetricWarning, compact_repr
from .._core._validation import check_unit_interval_array
from ._depth import Ranking, ranking

__all__ = ["GainCurve", "LiftCurve", "gain_curve", "lift_curve"]


@dataclass(frozen=True)
class _DepthCurve:
    """Fields and readings shared by the gain and the lift curve (one point per threshold)."""

    thresholds: np.ndarray
    depth: np.ndarray
    fraction: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_pos: float
    n_neg: float

    @property
    def n_rows(self) -> int:
        """Number of rows ranked (rows of positive weight)."""
        return int(self.depth[-1])

    @property
    def prevalence(self) -> float:
        """Positive share of the weight, π = n₊ / (n₊ + n₋)."""
        return float(self.n_pos / (self.n_pos + self.n_neg))

    def _expected(self, fraction: Any, *, low_open: bool) -> tuple[Any, Any, np.ndarray]:
        x = check_unit_interval_array(fraction, "fraction", low_open=low_open, high_open=False)
        rank = Ranking(_counts_view(self), self.depth)
        tp, fp = rank.expected(x * self.n_rows)
        return tp, fp, x

    def gain_at(self, fraction: Any) -> np.ndarray | float:
        """Expected recall when the top ``fraction`` of the rows is flagged (fraction in [0, 1]).

        Ties in random order; between whole rows the straddling row counts by its share.

        Examples
        --------
        >>> from prcurve import gain_curve
        >>> c = gain_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
        >>> c.gain_at([0.25, 0.5, 0.75])  # the tie at 0.5 holds one positive in two rows
        array([0.5 , 0.75, 1.  ])
        """
        tp, _, x = self._expected(fraction, low_open=False)
        return _scalar_or_array(np.divide(tp, self.n_pos), x)

    def lift_at(self, fraction: Any) -> np.ndarray | float:
        """Lift of the top ``fraction`` of the rows (fraction in (0, 1]): precision over π.

        ``E[TP]/E[W]`` over random orders of tied rows (``W`` the weight flagged), divided by
        the prevalence; 1 means no better than flagging at random.

        Examples
        --------
        >>> from prcurve import lift_curve
        >>> c = lift_curve([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
        >>> c.lift_at([0.25, 0.5, 1.0])
        array([2. , 1.5, 1. ])
        """
        tp, fp, x = self._expected(fraction, low_open=True)
        return _scalar_or_array(_lift(tp, fp, self.n_pos, self.n_neg, stacklevel=2), x)

    @property
    def top_decile_lift(self) -> float:
        """Lift of the top 10 % of the rows, ``lift_at(0.1)``."""
        tp, fp, _ = self._expected(0.1, low_open=True)
        return float(_lift(tp, fp, self.n_pos, self.n_neg, stacklevel=2))


@compact_repr
@dataclass(frozen=True)
class GainCurve(_DepthCurve):
    """Cumulative gain curve: recall against the share of rows flagged, one point per threshold.

    Attributes
    ----------
    thresholds : ndarray, shape (G,)
        Distinct scores, decreasing; point ``i`` flags the rows with ``score >= thresholds[i]``.
    depth : ndarray of int64, shape (G,)
        Number of rows flagged.
    fraction : ndarray, shape (G,)
        ``depth / n``, the share of rows flagged (the x axis).
    tp, fp : ndarray, shape (G,)
        Cumulative positives and negatives flagged (total weights when weighted).
    n_pos, n_neg : int or float
    gain : ndarray, shape (G,)
        ``tp / n_pos``: the recall at each point (the y axis).  The curve starts from the
        origin, not stored; between points it is the straight line of :meth:`gain_at`.
    """

    gain: np.ndarray


@compact_repr
@dataclass(frozen=True)
class LiftCurve(_DepthCurve):
    """Lift curve: precision over prevalence against the share of rows flagged.

    Attributes
    ----------
    thresholds, depth, fraction, tp, fp, n_pos, n_neg
        As for :class:`GainCurve`.
    lift : ndarray, shape (G,)
        ``precision / prevalence`` at each point, precision ``tp / (tp + fp)``; the last point
        (every row flagged) has lift 1.  Between points read :meth:`lift_at`, which is not a
        straight line (a ratio of two interpolated counts).
    """

    lift: np.ndarray


def gain_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> GainCurve:
    """Cumulative gain curve (recall against the share of rows flagged).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (1 / True positive).
    y_score : array-like of shape (n,)
        Scores, larger = more positive.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights; the x axis still counts rows (of positive weight).

    Returns
    -------
    GainCurve

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import gain_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.2
    >>> s = rng.normal(size=1000) + 1.5 * y
    >>> c = gain_curve(y, s)
    >>> round(float(c.gain_at(0.2)), 3)  # share of positives in the top 20 %
    0.606
    """
    rank = ranking(y_true, y_score, sample_weight=sample_weight)
    fields = _fields(rank)
    return GainCurve(**fields, gain=np.divide(rank.counts.tp, rank.counts.n_pos, dtype=float))


def lift_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> LiftCurve:
    """Lift curve (precision over prevalence against the share of rows flagged).

    Parameters are those of :func:`gain_curve`.

    Returns
    -------
    LiftCurve
        With :meth:`~LiftCurve.lift_at` and :attr:`~LiftCurve.top_decile_lift`.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import lift_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(1000) < 0.2
    >>> s = rng.normal(size=1000) + 1.5 * y
    >>> round(lift_curve(y, s).top_decile_lift, 2)
    3.73
    """
    rank = ranking(y_true, y_score, sample_weight=sample_weight)
    fields = _fields(rank)
    c = rank.counts
    return LiftCurve(**fields, lift=_lift(c.tp, c.fp, c.n_pos, c.n_neg, stacklevel=2))


def _lift(tp: Any, fp: Any, n_pos: float, n_neg: float, *, stacklevel: int) -> Any:
    """``precision / π = (TP/n₊)·(N/W)`` (``W`` the weight flagged, ``N = n₊ + n₋``), computed
    on mantissas and exponents apart.

    Weights may span up to about 2**1500 (see ``_moderate_scale``), so any of ``TP/n₊``,
    ``W/N``, precision or π can underflow on its own while the lift is an ordinary number
    (e.g. a light positive ranked first among heavy positives: recall ≈ 1e-400, lift 1).  With
    ``np.frexp`` each of the four totals is a mantissa in [0.5, 1) and a power of two; the lift
    is the product of the mantissa ratios (in [0.25, 4]) scaled by the summed exponents, so it
    is 0 or ``inf`` only when the lift itself is outside float64's range (about 3 roundings).
    ``inf`` comes with an :class:`UndefinedMetricWarning`; 0 means no positive flagged.
    """
    tp = np.asarray(tp, dtype=np.float64)
    flagged = tp + np.asarray(fp, dtype=np.float64)
    m_tp, e_tp = np.frexp(tp)
    m_w, e_w = np.frexp(flagged)
    m_pos, e_pos = np.frexp(float(n_pos))
    m_all, e_all = np.frexp(float(n_pos) + float(n_neg))
    with np.errstate(over="ignore", under="ignore"):
        lift = np.ldexp((m_tp / m_pos) * (m_all / m_w), e_tp - e_pos + e_all - e_w)
    if np.isinf(lift).any():
        warnings.warn(
            "lift: the positives flagged first are so light against all the weight (weights "
            "spread over more than float64's range) that the lift there exceeds float64's "
            "range; it is returned as inf",
            UndefinedMetricWarning,
            stacklevel=stacklevel + 1,
        )
    return lift


def _fields(rank: Ranking) -> dict[str, Any]:
    c = rank.counts
    return dict(
        thresholds=c.thresholds,
        depth=rank.rows,
        fraction=rank.rows / rank.rows[-1],
        tp=c.tp,
        fp=c.fp,
        n_pos=c.n_pos,
        n_neg=c.n_neg,
    )


def _counts_view(curve: _DepthCurve) -> BinaryCounts:
    return BinaryCounts(curve.thresholds, curve.tp, curve.fp, curve.n_pos, curve.n_neg)


def _scalar_or_array(value: Any, x: np.ndarray) -> np.ndarray | float:
    return float(value) if np.ndim(x) == 0 else np.asarray(value).reshape(np.shape(x))
