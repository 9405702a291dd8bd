"""Precision against a target, decided on the counts: rounded once, never by a chain of roundings.

An operating-point rule such as "precision >= 0.9" reads the precision the way a person does:
the exact ratio of the counts, rounded to the nearest float64, compared with the target.  So a
precision of exactly 9/10 meets ``min_precision=0.9`` (the float nearest 9/10), and at a
deployment prevalence π the precision of a single tie group, which is exactly π, meets
``min_precision=π``.  Computing it instead from reweighted false positives ``FP · n₊(1 − π)/(π n₋)``
rounds several times, and a tie with the target is then decided by rounding, differently at
different π.

The precision at π of a point with counts (TP, FP) among n₊ positives and n₋ negatives is

    P_π = TP·π·n₋ / (TP·π·n₋ + FP·n₊·(1 − π)),

(TP / (TP + FP) when π is the data's own prevalence, i.e. without π).  The float evaluation is
within a few units in the last place of P_π, so it decides every comparison with a target that
is farther than :data:`MARGIN` (relative) from it; the few left (ties, in practice) are
recomputed with Python's exact rationals, :class:`fractions.Fraction`, whose conversion to float
is correctly rounded.  Counts are taken as the exact numbers they hold (integers, or the float64
totals of weights).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["MARGIN", "exact_precision", "precision_at_least"]

#: Relative distance from the target within which the float evaluation (at most about ten
#: roundings of relative size 2**-53, plus int64 counts above 2**53 rounded to float64) is not
#: trusted to decide: a wide margin costs only a few exact evaluations more.
MARGIN = 2.0**-40


def _fraction(value: Any) -> Fraction:
    return Fraction(value.item() if isinstance(value, np.generic) else value)


def exact_precision(
    tp: Any, fp: Any, n_pos: Any = None, n_neg: Any = None, prevalence: Any = None
) -> float:
    """``P_π`` (or ``TP/(TP + FP)`` when ``prevalence`` is None) rounded once to float64.

    ``TP + FP`` must be positive.
    """
    t, f = _fraction(tp), _fraction(fp)
    if prevalence is None:
        return float(t / (t + f))
    pi = _fraction(prevalence)
    a = t * pi * _fraction(n_neg)
    return float(a / (a + f * _fraction(n_pos) * (1 - pi)))


def precision_at_least(
    tp: Any,
    fp: Any,
    target: float,
    *,
    n_pos: Any = None,
    n_neg: Any = None,
    prevalence: Any = None,
) -> np.ndarray:
    """Whether the precision, rounded once (see the module), is ``>= target``; elementwise.

    Parameters
    ----------
    tp, fp : array-like
        Counts of the data (not reweighted), broadcast together; entries with ``TP + FP = 0``
        predict nothing and give False.
    target : float
        In (0, 1].
    n_pos, n_neg, prevalence : array-like, optional
        With ``prevalence`` π (broadcast against ``tp``, e.g. one per bootstrap row, shape
        (b, 1)), the precision at π with totals ``n_pos``, ``n_neg``; without, the plain one.
    """
    tp_a, fp_a = np.broadcast_arrays(np.asarray(tp), np.asarray(fp))
    t = tp_a.astype(np.float64)
    f = fp_a.astype(np.float64)
    valid = (t + f) > 0
    if prevalence is None:
        d = t + f
        approx = t / np.where(valid, d, 1.0)
        extras: tuple[np.ndarray, ...] = ()
        if tp_a.dtype.kind in "iu" and fp_a.dtype.kind in "iu" and (d < 2.0**53).all():
            # integers exactly held, one rounding (the division): already the exact decision
            return valid & (approx >= target)
    else:
        pi, npos, nneg = np.broadcast_arrays(
            np.asarray(prevalence, dtype=np.float64), np.asarray(n_pos), np.asarray(n_neg)
        )
        factor = (npos.astype(np.float64) / nneg.astype(np.float64)) * ((1.0 - pi) / pi)
        with np.errstate(over="ignore", invalid="ignore", under="ignore"):
            scaled = np.where(f > 0, f * factor, 0.0)  # an infinite factor only times FP > 0
            d = t + scaled
            approx = t / np.where(valid, d, 1.0)
        # a reweighted FP below the smallest normal double lost its relative precision (tiny
        # weights): decided exactly whatever the distance to the target
        lossy = (f > 0) & (scaled < np.finfo(np.float64).tiny)
        extras = (npos, nneg, pi)
    out = valid & (approx >= target)
    unsure = valid & (np.abs(approx - target) <= MARGIN * target)
    if prevalence is not None:
        unsure |= valid & lossy
    if unsure.any():
        where = np.nonzero(unsure)
        shape = unsure.shape
        columns = [np.broadcast_to(a, shape)[where] for a in (tp_a, fp_a, *extras)]
        out[where] = [exact_precision(*row) >= target for row in zip(*columns, strict=True)]
    return out
