"""Precision-recall-gain at the level of points: gains, F-gain, expected F-gain, iso-F lines.

A *gain* rescales a quantity ``x`` in (0, 1] (precision, recall or F_β) against the always-positive
classifier, whose precision and F_1 equal the prevalence π: ``gain(x) = (x − π) / ((1 − π) x)``.
Gain 1 is perfect, gain 0 is the baseline, and gains below the baseline are negative, tending to
−∞ as ``x`` tends to 0.  The curves built from these points live in :mod:`prcurve._prg._curve`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._results import compact_repr
from .._core._validation import check_fraction, check_unit_interval_array

__all__ = [
    "IsoFLine",
    "PRGPoints",
    "expected_f_gain",
    "f_gain",
    "gains_from_counts",
    "iso_f_gain_line",
    "pr_to_prg",
    "precision_gain",
    "recall_gain",
    "roc_to_prg",
]

ArrayOrFloat = float | np.ndarray


def _out(value: np.ndarray) -> ArrayOrFloat:
    return float(value) if np.ndim(value) == 0 else value


def _check_real(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r}")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"{name}: expected a finite number, got {value!r}")
    return v


def check_beta(beta: Any) -> float:
    """β of F_β: a finite number > 0."""
    b = _check_real(beta, "beta")
    if b <= 0:
        raise ValueError(f"beta: expected a number > 0, got {beta!r}")
    return b


def _prevalence(prevalence: Any) -> np.ndarray:
    return check_unit_interval_array(prevalence, "prevalence", low_open=True, high_open=True)


def _broadcast(names: str, *arrays: np.ndarray) -> list[np.ndarray]:
    try:
        return list(np.broadcast_arrays(*arrays))
    except ValueError:
        shapes = " and ".join(str(a.shape) for a in arrays)
        raise ValueError(
            f"{names}: expected shapes that broadcast together, got {shapes}"
        ) from None


def _gain(x: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """(x − π) / ((1 − π) x), written as (1 − π/x)/(1 − π) so that x = 0 gives −inf, not NaN."""
    with np.errstate(divide="ignore"):
        inv = np.divide(1.0, x)
    return (1.0 - pi * inv) / (1.0 - pi)


def _ungain(g: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """Inverse of :func:`_gain` on [−inf, 1]: x = π / (π + (1 − π)(1 − g)); exact 1 at g = 1."""
    return pi / (pi + (1.0 - pi) * (1.0 - g))


def precision_gain(precision: Any, prevalence: Any) -> ArrayOrFloat:
    """Precision gain ``precG = (prec − π) / ((1 − π) prec)``.

    Parameters
    ----------
    precision : float or array-like, values in [0, 1]
    prevalence : float or array-like, values in (0, 1)
        π, the fraction of positives; broadcast against ``precision``.

    Returns
    -------
    float or ndarray
        At most 1 (precision 1); 0 at the baseline ``precision = π``; negative below it and
        ``-inf`` at precision 0 (the limit, as in Flach & Kull's reference implementation).

    Notes
    -----
    Flach & Kull (2015), section 3 and the supplement's proof of Theorem 1:
    ``precG = 1 − π/(1 − π) · FP/TP``.

    Examples
    --------
    >>> from prcurve import precision_gain
    >>> precision_gain([1.0, 0.5, 0.2, 0.0], 0.2)
    array([1.  , 0.75, 0.  , -inf])
    """
    p = check_unit_interval_array(precision, "precision", low_open=False, high_open=False)
    p, pi = _broadcast("precision, prevalence", p, _prevalence(prevalence))
    return _out(_gain(p, pi))


def recall_gain(recall: Any, prevalence: Any) -> ArrayOrFloat:
    """Recall gain ``recG = (rec − π) / ((1 − π) rec)``.

    Parameters
    ----------
    recall : float or array-like, values in [0, 1]
    prevalence : float or array-like, values in (0, 1)

    Returns
    -------
    float or ndarray
        1 at recall 1, 0 at recall π, negative below and ``-inf`` at recall 0.

    Notes
    -----
    Flach & Kull (2015), section 3: ``recG = 1 − π/(1 − π) · FN/TP``.  Recall gain is an
    increasing function of recall alone, so it orders operating points as recall does.

    Examples
    --------
    >>> from prcurve import recall_gain
    >>> recall_gain([1.0, 0.5, 0.25], 0.2)
    array([1.  , 0.75, 0.25])
    """
    r = check_unit_interval_array(recall, "recall", low_open=False, high_open=False)
    r, pi = _broadcast("recall, prevalence", r, _prevalence(prevalence))
    return _out(_gain(r, pi))


def f_gain(precision: Any, recall: Any, prevalence: Any, *, beta: float = 1) -> ArrayOrFloat:
    """F_β-gain ``FG_β = (F_β − π) / ((1 − π) F_β)``.

    Parameters
    ----------
    precision, recall : float or array-like, values in [0, 1]
    prevalence : float or array-like, values in (0, 1)
    beta : float > 0
        Weight of recall: ``1/F_β = (1/prec + β²/rec) / (1 + β²)``.

    Returns
    -------
    float or ndarray
        ``-inf`` where precision or recall is 0 (there F_β is 0, or its limit).

    Notes
    -----
    Flach & Kull (2015), supplement Theorem 2: ``precG + β² recG = (1 + β²) FG_β``, i.e. the
    F-gain is the weighted arithmetic mean of the gains, as F_β is the weighted harmonic mean of
    precision and recall.  It is computed from the harmonic form, which gives ``-inf`` (never NaN)
    at precision or recall 0.

    Examples
    --------
    >>> from prcurve import f_gain, precision_gain, recall_gain
    >>> fg = f_gain(0.5, 0.8, 0.2, beta=2)
    >>> bool(abs(5 * fg - (precision_gain(0.5, 0.2) + 4 * recall_gain(0.8, 0.2))) < 1e-12)
    True
    """
    b2 = check_beta(beta) ** 2
    p = check_unit_interval_array(precision, "precision", low_open=False, high_open=False)
    r = check_unit_interval_array(recall, "recall", low_open=False, high_open=False)
    p, r, pi = _broadcast("precision, recall, prevalence", p, r, _prevalence(prevalence))
    with np.errstate(divide="ignore"):
        inv_f = (np.divide(1.0, p) + b2 * np.divide(1.0, r)) / (1.0 + b2)
    return _out((1.0 - pi * inv_f) / (1.0 - pi))


@compact_repr
@dataclass(frozen=True)
class PRGPoints:
    """Points in precision-recall-gain space, with conversions to PR and ROC space.

    Attributes
    ----------
    precision_gain, recall_gain : ndarray, shape (m,) (or any common shape)
        Gains in [−inf, 1]; ``-inf`` stands for precision (recall) 0.
    prevalence : ndarray, broadcast to the same shape
        π of each point.
    """

    precision_gain: np.ndarray
    recall_gain: np.ndarray
    prevalence: np.ndarray

    def __post_init__(self) -> None:
        arrays = []
        for name in ("precision_gain", "recall_gain"):
            g = np.asarray(getattr(self, name), dtype=np.float64)
            bad_mask = np.isnan(g) | (g > 1)
            if bad_mask.any():
                bad = float(g[bad_mask].ravel()[0])
                raise ValueError(f"{name}: expected values in [-inf, 1], got {bad!r}")
            arrays.append(g)
        pi = _prevalence(self.prevalence)
        pg, rg, pi = _broadcast("precision_gain, recall_gain, prevalence", *arrays, pi)
        object.__setattr__(self, "precision_gain", pg)
        object.__setattr__(self, "recall_gain", rg)
        object.__setattr__(self, "prevalence", pi)

    def f_gain(self, beta: float = 1) -> np.ndarray:
        """``FG_β = (precG + β² recG) / (1 + β²)`` (Theorem 2); ``-inf`` if either gain is."""
        b2 = check_beta(beta) ** 2
        return (self.precision_gain + b2 * self.recall_gain) / (1.0 + b2)

    def to_pr(self) -> tuple[np.ndarray, np.ndarray]:
        """``(precision, recall)``: the inverse gain ``x = π / (π + (1 − π)(1 − g))``."""
        return (
            _ungain(self.precision_gain, self.prevalence),
            _ungain(self.recall_gain, self.prevalence),
        )

    def to_roc(self) -> tuple[np.ndarray, np.ndarray]:
        """``(fpr, tpr)``, using ``precG = 1 − FPR/TPR`` and ``TPR = recall``.

        Raises
        ------
        ValueError
            Where the recall gain is ``-inf`` (recall 0: the false positive rate is not
            determined by the gains), or where the point is not attainable (FPR > 1).
        """
        if np.isneginf(self.recall_gain).any():
            raise ValueError(
                "recall_gain: expected finite values to map to ROC space, got -inf (recall 0 "
                "leaves the false positive rate undetermined)"
            )
        tpr = _ungain(self.recall_gain, self.prevalence)
        fpr = tpr * (1.0 - self.precision_gain)
        if (fpr > 1 + 1e-12).any():
            raise ValueError(
                "precision_gain: expected points attainable in ROC space (FPR <= 1), got FPR "
                f"{float(fpr[fpr > 1 + 1e-12].ravel()[0])!r}"
            )
        return np.minimum(fpr, 1.0), tpr


def pr_to_prg(precision: Any, recall: Any, prevalence: Any) -> PRGPoints:
    """PR points ``(precision, recall)`` mapped to PRG space.

    Examples
    --------
    >>> from prcurve import pr_to_prg
    >>> pts = pr_to_prg([1.0, 0.5], [0.5, 1.0], 0.2)
    >>> pts.precision_gain.round(12).tolist(), pts.recall_gain.round(12).tolist()
    ([1.0, 0.75], [0.75, 1.0])
    >>> [x.round(12).tolist() for x in pts.to_pr()]
    [[1.0, 0.5], [0.5, 1.0]]
    """
    p = check_unit_interval_array(precision, "precision", low_open=False, high_open=False)
    r = check_unit_interval_array(recall, "recall", low_open=False, high_open=False)
    p, r, pi = _broadcast("precision, recall, prevalence", p, r, _prevalence(prevalence))
    return PRGPoints(_gain(p, pi), _gain(r, pi), pi)


def roc_to_prg(fpr: Any, tpr: Any, prevalence: Any) -> PRGPoints:
    """ROC points ``(fpr, tpr)`` mapped to PRG space.

    ``precG = 1 − FPR/TPR`` (independent of π) and ``recG = gain(TPR)``; ``TPR = 0`` gives
    ``-inf`` for both gains.

    Examples
    --------
    >>> from prcurve import roc_to_prg
    >>> pts = roc_to_prg([0.0, 0.5], [0.5, 1.0], 0.5)
    >>> pts.precision_gain.tolist(), pts.recall_gain.tolist()
    ([1.0, 0.5], [0.0, 1.0])
    """
    f = check_unit_interval_array(fpr, "fpr", low_open=False, high_open=False)
    t = check_unit_interval_array(tpr, "tpr", low_open=False, high_open=False)
    f, t, pi = _broadcast("fpr, tpr, prevalence", f, t, _prevalence(prevalence))
    with np.errstate(divide="ignore", invalid="ignore"):
        pg = np.where(t > 0, 1.0 - f / np.where(t > 0, t, 1.0), -np.inf)
    return PRGPoints(pg, _gain(t, pi), pi)


def gains_from_counts(tp: Any, fp: Any, fn: Any, tn: Any) -> PRGPoints:
    """Precision and recall gain of contingency tables (counts or total weights).

    Parameters
    ----------
    tp, fp, fn, tn : array-like, broadcast together
        Non-negative; each table needs positives (``tp + fn > 0``), negatives (``fp + tn > 0``)
        and a positive prediction (``tp + fp > 0``: precision is undefined otherwise).

    Notes
    -----
    Flach & Kull (2015), supplement Theorems 1-2: ``precG = 1 − (n₊ FP) / (n₋ TP)`` and
    ``recG = 1 − (n₊ FN) / (n₋ TP)``; ``TP = 0`` gives ``-inf``.

    Examples
    --------
    >>> from prcurve import gains_from_counts
    >>> g = gains_from_counts(tp=[2, 3], fp=[1, 3], fn=[1, 0], tn=[2, 0])
    >>> g.precision_gain.tolist(), g.recall_gain.tolist(), g.f_gain().tolist()
    ([0.5, 0.0], [0.5, 1.0], [0.5, 0.5])
    """
    names = ("tp", "fp", "fn", "tn")
    arrays = []
    for name, value in zip(names, (tp, fp, fn, tn), strict=True):
        a = np.asarray(value)
        if a.dtype.kind not in "biuf":
            raise TypeError(f"{name}: expected counts (numbers), got {value!r}")
        a = a.astype(np.float64)
        bad = ~np.isfinite(a) | (a < 0)
        if bad.any():
            raise ValueError(
                f"{name}: expected finite counts >= 0, got {float(a[bad].ravel()[0])!r}"
            )
        arrays.append(a)
    tp_, fp_, fn_, tn_ = _broadcast("tp, fp, fn, tn", *arrays)
    n_pos, n_neg = tp_ + fn_, fp_ + tn_
    for what, bad in (
        ("positives (tp + fn > 0)", n_pos <= 0),
        ("negatives (fp + tn > 0)", n_neg <= 0),
        ("a positive prediction (tp + fp > 0; precision is undefined otherwise)", tp_ + fp_ <= 0),
    ):
        if bad.any():
            at = np.argwhere(bad)[0]
            where = f" at index {tuple(int(i) for i in at)}" if at.size else ""
            raise ValueError(f"tp, fp, fn, tn: expected tables with {what}, got none{where}")
    pg, rg = count_gains(tp_, fp_, fn_, n_pos, n_neg)
    return PRGPoints(pg, rg, n_pos / (n_pos + n_neg))


def count_gains(
    tp: np.ndarray, fp: np.ndarray, fn: np.ndarray, n_pos: Any, n_neg: Any
) -> tuple[np.ndarray, np.ndarray]:
    """``(precG, recG)`` of validated counts; ``-inf`` (never NaN) where ``tp == 0``.

    Written as ``1 − (n₊ FP) / (n₋ TP)`` so that the all-positive table gives exactly 0 and 1.
    """
    return count_gain(fp, tp, n_pos, n_neg), count_gain(fn, tp, n_pos, n_neg)


def count_gain(count: Any, tp: Any, n_pos: Any, n_neg: Any) -> np.ndarray:
    """One gain of :func:`count_gains`: ``1 − (n₊ count) / (n₋ TP)`` (``count`` the FP for the
    precision gain, the FN for the recall gain); ``-inf`` where ``tp == 0``.

    Where the products of extreme weights under- or overflow, the same ratio in rate units,
    ``(count / n₋) / (TP / n₊)``, and ``+inf`` loss where ``TP / n₊`` is below the doubles.
    With scalar totals that repair is computed only at the (rare) points that need it: the
    same values, in about a third of the time of computing it everywhere.
    """
    tp = np.asarray(tp, dtype=np.float64)
    count = np.asarray(count, dtype=np.float64)
    has = tp > 0
    n_pos = np.asarray(n_pos, dtype=np.float64)
    n_neg = np.asarray(n_neg, dtype=np.float64)
    if n_pos.ndim or n_neg.ndim or tp.ndim == 0 or tp.shape != count.shape:  # broadcast: all
        with np.errstate(all="ignore"):
            loss = (n_pos * count) / (n_neg * np.where(has, tp, 1.0))
            safe = _rate_loss(count, tp, has, n_pos, n_neg)
        bad = ~np.isfinite(loss) | ((loss == 0) & (count > 0))
        return np.where(has, 1.0 - np.where(bad, safe, loss), -np.inf)
    with np.errstate(all="ignore"):
        loss = (n_pos * count) / (n_neg * np.where(has, tp, 1.0))
    bad = ~np.isfinite(loss)
    bad |= (loss == 0) & (count > 0)
    bad &= has
    if bad.any():
        with np.errstate(all="ignore"):
            loss[bad] = _rate_loss(count[bad], tp[bad], has[bad], n_pos, n_neg)
    out = np.subtract(1.0, loss, out=loss)
    out[~has] = -np.inf
    return out


def _rate_loss(
    count: np.ndarray, tp: np.ndarray, has: np.ndarray, n_pos: np.ndarray, n_neg: np.ndarray
) -> np.ndarray:
    """``(count / n₋) / (TP / n₊)`` (0 where ``count`` is 0, ``+inf`` where ``TP / n₊`` is)."""
    recall = np.where(has, tp, 1.0) / n_pos
    rate = count / n_neg
    safe = np.where(rate > 0, rate / np.where(recall > 0, recall, 1.0), 0.0)
    return np.where((rate > 0) & (recall <= 0), np.inf, safe)


def expected_f_gain(
    auprg: float,
    prevalence: float,
    *,
    beta: float = 1,
    y0: float = 1.0,
    gamma: float | None = None,
) -> float:
    """Expected F_β-gain of a PRG curve when Δ_γ is uniform (Flach & Kull, Theorem 3).

    Parameters
    ----------
    auprg : float
        Area under the PRG curve (at most 1; may be negative).
    prevalence : float in (0, 1)
    beta : float > 0
    y0 : float <= 1
        Precision gain where the curve starts, at recall gain 0 (:attr:`PRGCurve.y0`).  The
        default 1 is the curve of a scorer whose top-ranked instances are positive.
    gamma : float, optional
        γ >= 1 − π of ``Δ_γ = recG/π − precG/γ``; default ``1 − π`` (the corollary).

    Returns
    -------
    float
        ``E[FG_β] = ((αγ + (1−α)π) AUPRG + απ y0²/2 + (1−α)γ/2) / (γ + π y0)``,
        ``α = 1/(1 + β²)``.

    Notes
    -----
    Flach & Kull (2015), supplement Theorem 3: choose operating points along the curve so that
    ``Δ_γ`` is uniform on ``[−y0/γ, 1/π]``.  The last line of the printed proof factors the
    result as ``(αγ + (1−α)π)(AUPRG + ...)``, which is a misprint: equation (1) and the line
    before it give the formula above.  With γ = 1 − π and β = 1 it is the corollary
    ``(AUPRG/2 + 1/4 − π(1 − y0²)/4) / (1 − π(1 − y0))``, and with y0 = 1 it is
    ``AUPRG/2 + 1/4`` whatever π.

    Examples
    --------
    >>> from prcurve import expected_f_gain
    >>> expected_f_gain(0.6, 0.1)
    0.55
    >>> round(expected_f_gain(0.6, 0.1, y0=0.5, beta=2, gamma=0.95), 6)
    0.5445
    """
    area = _check_real(auprg, "auprg")
    if area > 1:
        raise ValueError(f"auprg: expected a number <= 1, got {auprg!r}")
    pi = check_fraction(prevalence, "prevalence")
    b2 = check_beta(beta) ** 2
    start = _check_real(y0, "y0")
    if start > 1:
        raise ValueError(f"y0: expected a number <= 1, got {y0!r}")
    g = 1.0 - pi if gamma is None else _check_real(gamma, "gamma")
    if g < 1.0 - pi:
        raise ValueError(
            f"gamma: expected a number >= 1 - prevalence = {1.0 - pi!r}, got {gamma!r}"
        )
    if g + pi * start <= 0:
        raise ValueError(
            f"y0: expected gamma + prevalence * y0 > 0 (a non-empty range of Delta), got y0={y0!r}"
        )
    a = 1.0 / (1.0 + b2)
    num = (a * g + (1 - a) * pi) * area + a * pi * start**2 / 2 + (1 - a) * g / 2
    return float(num / (g + pi * start))


@compact_repr
@dataclass(frozen=True)
class IsoFLine:
    """An iso-F_β line in PRG space, ``precG = intercept + slope · recG``, cut to the unit square.

    Attributes
    ----------
    f_gain : float or ndarray, shape (m,)
        The F_β-gain shared by every point of the line.
    beta : float
    slope : float
        ``−β²`` (Theorem 4).
    intercept : float or ndarray
        ``(1 + β²) FG_β``.
    recall_gain, precision_gain : ndarray, shape (2,) or (m, 2)
        End points of the segment inside [0, 1]², ready to draw.
    """

    f_gain: float | np.ndarray
    beta: float
    slope: float
    intercept: float | np.ndarray
    recall_gain: np.ndarray
    precision_gain: np.ndarray

    def f_beta(self, prevalence: float) -> float | np.ndarray:
        """The F_β score of the line's points for a given prevalence (inverse gain)."""
        pi = check_fraction(prevalence, "prevalence")
        return _out(_ungain(np.asarray(self.f_gain), np.asarray(pi)))


def iso_f_gain_line(f_gain: Any, *, beta: float = 1) -> IsoFLine:
    """The line of constant F_β-gain in PRG space, as a segment inside the unit square.

    Parameters
    ----------
    f_gain : float or array-like, values in [0, 1]
        Outside [0, 1] the line misses the unit square.  To draw the line of an F_β *score* f at
        prevalence π, pass its gain ``(f − π) / ((1 − π) f)`` (e.g. ``precision_gain(f, π)``:
        it is the same transform).
    beta : float > 0

    Notes
    -----
    Flach & Kull (2015), supplement Theorems 2 and 4: ``precG + β² recG = (1 + β²) FG_β``, so
    points of equal F_β lie on a straight line of slope ``−β²``.

    Examples
    --------
    >>> from prcurve import iso_f_gain_line
    >>> line = iso_f_gain_line(0.5, beta=2)
    >>> line.slope, line.recall_gain.tolist(), line.precision_gain.tolist()
    (-4.0, [0.375, 0.625], [1.0, 0.0])
    """
    b = check_beta(beta)
    b2 = b * b
    fg = check_unit_interval_array(f_gain, "f_gain", low_open=False, high_open=False)
    c = (1.0 + b2) * fg
    x_lo = np.maximum(0.0, (c - 1.0) / b2)
    x_hi = np.minimum(1.0, c / b2)
    x = np.stack([x_lo, x_hi], axis=-1)
    y = c[..., None] - b2 * x
    return IsoFLine(
        f_gain=_out(fg),
        beta=b,
        slope=-b2,
        intercept=_out(c),
        recall_gain=x,
        precision_gain=np.clip(y, 0.0, 1.0),
    )
