"""Average precision of many simulated studies at once, and its influence-function variance.

A study has fixed class counts n₊ and n₋; R replicate studies are R rows.  Each class is sorted
along axis 1 (``np.sort``) and every positive's threshold counts come from one row-wise binary
search, so AP of all rows is computed without a Python loop per replicate:
``AP = (1/n₊) Σ_i TP_i / (TP_i + FP_i)`` with TP_i, FP_i the positives and negatives scoring at
least the i-th positive's score (tied positives share their group's precision, as in
scikit-learn's definition).

For paired comparisons the per-instance influence values of AP (the empirical plug-in of
:mod:`prcurve._population._ap_variance`) give a variance estimate of each study's AP difference
— the AP analogue of DeLong's placement values — so a Wald test can be run on every replicate.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import special

from .._core._batch import row_searchsorted

__all__ = [
    "CHUNK_ELEMENTS",
    "ap_with_influence",
    "batch_average_precision",
    "draw_class_scores",
    "draw_paired_scores",
]

#: Score-matrix elements handled at once (bounds memory to some tens of MB per array).
CHUNK_ELEMENTS = 2_000_000


def draw_class_scores(
    model: Any, n_pos: int, n_neg: int, rows: int, gen: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Independent scores: (rows, n₊) from the positives' law and (rows, n₋) from the negatives'."""
    pos = np.asarray(model.positive.rvs(size=(rows, n_pos), random_state=gen), dtype=np.float64)
    neg = np.asarray(model.negative.rvs(size=(rows, n_neg), random_state=gen), dtype=np.float64)
    return pos, neg


def _from_normal(law: Any, z: np.ndarray) -> np.ndarray:
    """``F⁻¹(Φ(z))``, through the upper tail where z > 0 so that no precision is lost there."""
    if getattr(getattr(law, "dist", None), "name", None) == "norm":  # exactly loc + scale·z
        return np.asarray(law.mean() + law.std() * z, dtype=np.float64)
    upper = z > 0
    out = np.empty(z.shape)
    out[upper] = law.isf(special.ndtr(-z[upper]))
    out[~upper] = law.ppf(special.ndtr(z[~upper]))
    return out


def draw_paired_scores(
    model_a: Any,
    model_b: Any,
    correlation: float,
    n: int,
    rows: int,
    gen: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Scores of two scorers on the same ``rows × n`` instances of one class.

    ``model_a`` and ``model_b`` are the score laws of that class.  The two scores of an instance
    are joined by a Gaussian copula with correlation ρ: (Z_a, Z_b) bivariate standard normal,
    score = F⁻¹(Φ(Z)).  For normal laws this is the bivariate binormal model.
    """
    za = gen.standard_normal((rows, n))
    zb = correlation * za + np.sqrt(1.0 - correlation**2) * gen.standard_normal((rows, n))
    return _from_normal(model_a, za), _from_normal(model_b, zb)


def batch_average_precision(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """AP of each row: positives ``pos`` (R, n₊) against negatives ``neg`` (R, n₋); shape (R,)."""
    ps = np.sort(pos, axis=1)
    ns = np.sort(neg, axis=1)
    tp = pos.shape[1] - row_searchsorted(ps, ps, side="left")  # ties: the whole group counts
    fp = neg.shape[1] - row_searchsorted(ns, ps, side="left")
    return np.asarray((tp / (tp + fp)).mean(axis=1))


def ap_with_influence(
    pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """AP of each row and the influence value of every instance (continuous scores, no ties).

    Returns
    -------
    ap : ndarray, shape (R,)
    phi_pos : ndarray, shape (R, n₊)
        ``p̂(s_i) + Σ_{positives j, s_j ≤ s_i} FP_j / (TP_j + FP_j)²``, in the order of ``pos``.
    phi_neg : ndarray, shape (R, n₋)
        ``−(n₋/n₊) Σ_{positives j, s_j ≤ u} TP_j / (TP_j + FP_j)²``, in the order of ``neg``.

    Notes
    -----
    Up to constants (which do not change variances) these are the empirical versions of φ₊ and
    φ₋ of :mod:`prcurve._population._ap_variance`, so
    ``Var(AP̂) ≈ var(phi_pos)/n₊ + var(phi_neg)/n₋`` within a row; for two scorers on the same
    instances the differences of their influence values give the variance of the AP difference.
    One ascending sort of each row's instances gives every count as a cumulative sum; the
    values are put back in instance order with the same permutation.
    """
    n_pos, n_neg = pos.shape[1], neg.shape[1]
    order = np.argsort(np.concatenate([pos, neg], axis=1), axis=1)
    is_pos = order < n_pos
    pos_le = np.cumsum(is_pos, axis=1)  # positives scoring at most this instance
    tp = (n_pos + 1 - pos_le).astype(np.float64)  # at a positive: positives at or above it
    fp = (n_neg - (np.arange(1, n_pos + n_neg + 1) - pos_le)).astype(np.float64)
    tot = tp + fp
    precision = np.where(is_pos, tp / tot, 0.0)
    ap = precision.sum(axis=1) / n_pos
    below_pos = np.cumsum(np.where(is_pos, fp / tot**2, 0.0), axis=1)
    below_neg = np.cumsum(np.where(is_pos, tp / tot**2, 0.0), axis=1)
    phi_sorted = np.where(is_pos, precision + below_pos, -(n_neg / n_pos) * below_neg)
    phi = np.empty_like(phi_sorted)
    np.put_along_axis(phi, order, phi_sorted, axis=1)
    return ap, phi[:, :n_pos], phi[:, n_pos:]
