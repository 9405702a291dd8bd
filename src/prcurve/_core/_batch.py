"""The functional estimator PR̂(β), defined once, for one curve or many replicates at once.

Two representations reach it:

* cumulative counts ``tp``, ``fp`` at decreasing thresholds (one curve from the engine, or the
  rows of a bootstrap block, where a repeated point is a threshold no instance reached); and
* class-sorted samples: each row's positive and negative scores ascending, padded with +inf
  (Monte Carlo studies and the smoothed bootstrap, which draw new scores and must sort them).

Both use one rule for Ĝ⁻¹(1 − β) (Clémençon & Vayatis 2009 eq. 3; Hughes-Oliver section 3.1):
it is the ``j``-th largest positive score with ``j = ⌊n₊β⌋ + 1`` (at most n₊), i.e. the lowest
positive score z with at most n₊β positives strictly above it.  A relative tolerance of 8 ulp
on n₊β makes β = k/n₊ land on its step despite rounding.  Then PR̂(β) = n₊β / (n₊β + N) with
N read in one of two ways (:data:`TIES`):

* ``"strict"`` — the papers' estimator: N = the negatives strictly above z.
* ``"interpolate"`` — N = N₍>z₎ + (n₊β − P₍>z₎) · N₍=z₎ / P₍=z₎: the tie group of z is put in
  uniformly random order and cut where the *expected* positives above the cut reach n₊β; N is
  the expected negatives above that cut.  This is the Davis–Goadrich interpolation across the
  tie group of z, i.e. the drawn curve at recall β.  At β = k/n₊ exactly it reads the point
  reached by the k-th positive (z is then the ⌈n₊β⌉-th positive, not the (k+1)-th), i.e. the
  top of a vertical drop, as :meth:`prcurve.PRCurve.interpolate` does: left-continuous in β.
  Without ties both give the same number, bit for bit, except at β = k/n₊ exactly, where
  ``"strict"`` reads the bottom of a vertical drop and ``"interpolate"`` its top.
"""

from __future__ import annotations

import numpy as np

from ._disk import search_sorted

__all__ = [
    "TIES",
    "batch_counts",
    "functional_precision",
    "functional_precision_sorted",
    "quantile_group",
    "row_searchsorted",
    "strict_quantile_rank",
]

_TOL = 1 + 8 * np.finfo(np.float64).eps

#: How the functional estimator reads a tie group (see the module docstring).
TIES = ("interpolate", "strict")


def _negatives_above(
    target: np.ndarray,
    tp_prev: np.ndarray,
    fp_prev: np.ndarray,
    tp_group: np.ndarray,
    fp_group: np.ndarray,
    ties: str,
) -> np.ndarray:
    """N(β): negatives above the (n₊β)-th positive, given the counts before / through its group."""
    if ties == "strict":
        return fp_prev.astype(np.float64)
    tp_prev = tp_prev.astype(np.float64)
    fp_prev = fp_prev.astype(np.float64)
    dtp = tp_group - tp_prev
    dfp = np.asarray(fp_group - fp_prev, dtype=np.float64)
    share = np.clip(target - tp_prev, 0.0, None) / np.where(dtp > 0, dtp, 1.0)
    # without ties dfp is exactly 0, so the result is fp_prev bit for bit
    return fp_prev + np.minimum(share, 1.0) * dfp


def row_searchsorted(a: np.ndarray, v: np.ndarray, *, side: str = "left") -> np.ndarray:
    """Row-wise ``np.searchsorted``: ``a`` (b, k) ascending rows, ``v`` (b, m) → (b, m).

    A vectorised bisection: ``ceil(log2(k + 1))`` passes over (b, m) arrays, no Python loop
    per row.
    """
    k = a.shape[1]
    lo = np.zeros(v.shape, dtype=np.intp)
    hi = np.full(v.shape, k, dtype=np.intp)
    if k == 0:
        return lo
    for _ in range(int(k).bit_length() + 1):
        mid = (lo + hi) >> 1
        val = np.take_along_axis(a, np.minimum(mid, k - 1), axis=1)
        go_right = (val <= v) if side == "right" else (val < v)
        go_right &= mid < hi
        lo = np.where(go_right, mid + 1, lo)
        hi = np.where(go_right, hi, mid)
    return lo


def quantile_group(
    tp: np.ndarray, n_pos: float, recall: np.ndarray, *, ties: str = "strict"
) -> np.ndarray:
    """Index of the threshold group the estimator reads at recall β, one curve, shape (m,).

    ``"strict"``: the group of Ĝ⁻¹(1 − β), the first threshold whose cumulative TP exceeds
    n₊β (at most the first that reaches n₊).  ``"interpolate"``: the first threshold whose
    cumulative TP reaches n₊β, so that at β = k/n₊ the point *before* a vertical drop is read
    (the drawn curve's value there, left-continuous in β).
    """
    target = float(n_pos) * np.asarray(recall, dtype=np.float64)
    if ties == "interpolate":
        first = search_sorted(tp, target / _TOL, side="left")
    else:
        first = search_sorted(tp, target * _TOL, side="right")
    return np.minimum(first, search_sorted(tp, n_pos, side="left"))


def functional_precision(
    tp: np.ndarray,
    fp: np.ndarray,
    n_pos: np.ndarray | float,
    recall: np.ndarray,
    *,
    fp_prev: np.ndarray | None = None,
    tp_prev: np.ndarray | None = None,
    ties: str = "interpolate",
) -> np.ndarray:
    """PR̂(β) from cumulative counts (weights allowed).

    Parameters
    ----------
    tp, fp : ndarray, shape (k,) or (b, k)
        Cumulative counts (or total weights) at decreasing thresholds; repeated points allowed.
    n_pos : float or ndarray of shape (b,)
    recall : ndarray, shape (m,), values in (0, 1]
    fp_prev, tp_prev : ndarray, shape like ``fp``, optional
        FP and TP at the threshold just before each column.  By default the previous column;
        pass them when the columns are a subset holding every threshold where TP can grow
        (bootstrap blocks keep only those).  ``tp_prev`` is needed by ``ties="interpolate"``.
    ties : {"interpolate", "strict"}
        How a tie group is read (module docstring).

    Returns
    -------
    ndarray, shape (m,) or (b, m)

    Notes
    -----
    The lowest positive score with at most ``t = n₊β`` positive weight strictly above it is the
    first threshold whose cumulative TP exceeds ``t`` (at most the first that reaches n₊), and the
    negatives strictly above it are the FP of the threshold before.
    """
    one = np.ndim(tp) == 1
    tp2 = np.atleast_2d(tp)
    fp2 = np.atleast_2d(fp)
    npos = np.atleast_1d(np.asarray(n_pos, dtype=np.float64))
    target = npos[:, None] * np.asarray(recall, dtype=np.float64)[None, :]
    if one:
        first = quantile_group(tp2[0], npos[0], recall, ties=ties)[None, :]
    else:
        if ties == "interpolate":
            first = row_searchsorted(tp2, target / _TOL, side="left")
        else:
            first = row_searchsorted(tp2, target * _TOL, side="right")
        first = np.minimum(first, row_searchsorted(tp2, npos[:, None], side="left"))
    if fp_prev is not None:
        fpp = np.take_along_axis(np.atleast_2d(fp_prev), first, axis=1)
        if ties == "interpolate":
            if tp_prev is None:
                raise ValueError("tp_prev: required with fp_prev when ties='interpolate'")
            tpp = np.take_along_axis(np.atleast_2d(tp_prev), first, axis=1)
    else:
        before = np.maximum(first - 1, 0)
        fpp = np.where(first > 0, np.take_along_axis(fp2, before, axis=1), 0)
        tpp = np.where(first > 0, np.take_along_axis(tp2, before, axis=1), 0)
    if ties == "strict":
        above = fpp.astype(np.float64)
    else:
        tpg = np.take_along_axis(tp2, first, axis=1)
        fpg = np.take_along_axis(fp2, first, axis=1)
        above = _negatives_above(target, tpp, fpp, tpg, fpg, ties)
    value = target / (target + above)
    return value[0] if one else value


def strict_quantile_rank(n_pos: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """``j = min(⌊n₊β⌋ + 1, n₊)``: Ĝ⁻¹(1 − β) is the j-th largest positive (module docstring).

    Shape (len(n_pos), len(recall)); the rule of ``ties="strict"``, shared with the smoothed
    bootstrap, which draws only these order statistics.
    """
    npos = np.asarray(n_pos)
    target = npos[:, None] * np.asarray(recall, dtype=np.float64)[None, :]
    return np.minimum(np.floor(target * _TOL).astype(np.intp) + 1, npos[:, None])


def functional_precision_sorted(
    pos: np.ndarray,
    neg: np.ndarray,
    n_pos: np.ndarray,
    recall: np.ndarray,
    *,
    ties: str = "interpolate",
) -> np.ndarray:
    """PR̂(β) for rows of class-sorted samples.

    Parameters
    ----------
    pos, neg : ndarray, shape (b, w₊) and (b, w₋)
        Each row's positive / negative scores ascending in its first ``n_pos[i]`` /
        ``n_neg[i]`` entries, then +inf padding.
    n_pos : ndarray of int, shape (b,)
    recall : ndarray, shape (m,), values in (0, 1]
    ties : {"interpolate", "strict"}
        How a tie group is read (module docstring).  For continuous draws (no ties) both give
        the same values; ``"strict"`` then saves two bisections.

    Returns
    -------
    ndarray, shape (b, m)
    """
    npos = np.asarray(n_pos)
    target = npos[:, None] * np.asarray(recall, dtype=np.float64)[None, :]
    if ties == "interpolate":  # the ⌈n₊β⌉-th largest positive: left-continuous reading
        j = np.clip(np.ceil(target / _TOL).astype(np.intp), 1, npos[:, None])
    else:
        j = strict_quantile_rank(npos, recall)
    z = np.take_along_axis(pos, npos[:, None] - j, axis=1)  # the j-th largest positive
    n_neg = np.count_nonzero(neg < np.inf, axis=1)[:, None]
    neg_gt = n_neg - row_searchsorted(neg, z, side="right")
    if ties == "strict":
        above = neg_gt.astype(np.float64)
    else:
        pos_gt = npos[:, None] - row_searchsorted(pos, z, side="right")
        pos_ge = npos[:, None] - row_searchsorted(pos, z, side="left")
        neg_ge = n_neg - row_searchsorted(neg, z, side="left")
        above = _negatives_above(target, pos_gt, neg_gt, pos_ge, neg_ge, ties)
    return target / (target + above)


def batch_counts(y: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cumulative counts of many labelled samples at once (rows), for the row-wise estimators.

    Parameters
    ----------
    y : ndarray of bool, shape (R, n) or (n,)
        Labels (shared by all rows when 1-D).
    score : ndarray, shape (R, n)

    Returns
    -------
    tp, fp : ndarray of int64, shape (R, n)
        At the ``j``-th highest score of each row, the counts of that score's whole tie group
        (so tied positions repeat one operating point, which the estimators drop).
    """
    rows, n = score.shape
    order = np.argsort(score, axis=1)[:, ::-1]
    s = np.take_along_axis(score, order, axis=1)
    lab = np.take_along_axis(np.broadcast_to(y, (rows, n)), order, axis=1)
    tp = np.cumsum(lab, axis=1, dtype=np.int64)
    fp = np.arange(1, n + 1, dtype=np.int64)[None, :] - tp
    last = np.ones((rows, n), dtype=bool)
    np.not_equal(s[:, 1:], s[:, :-1], out=last[:, :-1])
    if not last.all():  # ties: every position takes its group's end counts
        end = np.minimum.accumulate(np.where(last, np.arange(n), n)[:, ::-1], axis=1)[:, ::-1]
        tp = np.take_along_axis(tp, end, axis=1)
        fp = np.take_along_axis(fp, end, axis=1)
    return tp, fp
