"""The asymptotic variance of the functional PR estimator, in one place.

Used by population models (known densities) and by the empirical normal-approximation intervals
(kernel-estimated densities), so the corrected formula is written exactly once.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pr_asymptotic_variance"]


def pr_asymptotic_variance(
    precision: np.ndarray,
    recall: np.ndarray,
    alpha: np.ndarray,
    density_ratio: np.ndarray,
    skew: float,
) -> np.ndarray:
    """σ²(x), the variance of √n (PR̂(x) − PR(x)) with n = n₊ + n₋ (broadcasting).

    Parameters
    ----------
    precision : PR(x), the population precision at recall x.
    recall : x in (0, 1).
    alpha : 1 − F₋(t), the false positive rate at the threshold t = F₊⁻¹(1 − x).
    density_ratio : f₋(t) / f₊(t).
    skew : π₋ / π₊.

    Notes
    -----
    Hughes-Oliver, corrected form of Clémençon & Vayatis (2009) eq. (9):
    ``σ²(x) = PR⁴/x² · skew(1+skew) · {α²(1+skew) + (f₋/f₊)² x(1−x) skew + α(1−α)}``.
    """
    p = np.asarray(precision, dtype=np.float64)
    x = np.asarray(recall, dtype=np.float64)
    a = np.asarray(alpha, dtype=np.float64)
    k = np.asarray(density_ratio, dtype=np.float64)
    bracket = a**2 * (1 + skew) + k**2 * x * (1 - x) * skew + a * (1 - a)
    return p**4 / x**2 * skew * (1 + skew) * bracket
