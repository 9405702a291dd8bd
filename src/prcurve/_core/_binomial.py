"""Binomial class counts conditioned on both classes being present.

Every bootstrap that resamples instances (not classes) draws its number of positives n₊* from
Binomial(n, p̂) given that both classes occur; so do the simulation studies.  The draws are
exact inverse-survival samples of the truncated law, computed with the regularized incomplete
beta function of :mod:`scipy.special` (``P(K > k) = I_p(k + 1, n − k)``), so this module needs
neither ``scipy.stats`` (half a second to import) nor a rejection loop.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["binomial_sf", "conditional_binomial"]


def binomial_sf(k: np.ndarray, n: int, p: float) -> np.ndarray:
    """``P(K > k)`` for K ~ Binomial(n, p), elementwise (k any real; 1 below 0, 0 from n on).

    >>> binomial_sf(np.array([-1.0, 0.0, 1.0, 2.0]), 2, 0.5).tolist()
    [1.0, 0.75, 0.25, 0.0]
    """
    k = np.floor(np.asarray(k, dtype=np.float64))
    inside = (k >= 0) & (k < n)
    kk = np.where(inside, k, 0.0)
    sf = special.betainc(kk + 1.0, n - kk, p)
    return np.where(inside, sf, np.where(k < 0, 1.0, 0.0))


def _binomial_isf(u: np.ndarray, n: int, p: float) -> np.ndarray:
    """Smallest integer ``k`` in [0, n] with ``P(K > k) <= u``, for each ``u`` in (0, 1).

    Bisection on the non-increasing survival function, all draws at once.  It starts from a
    bracket of :data:`_WINDOW` integers either side of the Cornish–Fisher approximation of the
    quantile (:func:`_bracket`) where that bracket holds — checked exactly with two survival
    values, so about 6 rounds of one vectorised ``betainc`` call instead of log₂ n — and from
    [−1, n] elsewhere.  Either bracket holds the same answer, so the draws do not depend on it.
    """
    lo, hi = _bracket(u, n, p)
    while True:
        open_ = hi - lo > 1.0
        if not open_.any():
            return hi
        mid = np.floor((lo + hi) / 2.0)
        above = binomial_sf(mid, n, p) > u
        lo = np.where(open_ & above, mid, lo)
        hi = np.where(open_ & ~above, mid, hi)


#: Half-width of the bracket around the approximate quantile (in counts).
_WINDOW = 8.0


def _bracket(u: np.ndarray, n: int, p: float) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` with ``P(K > lo) > u >= P(K > hi)``: near the quantile when checked, else
    the whole range [−1, n]."""
    lo = np.full(u.shape, -1.0)  # P(K > -1) = 1 > u
    hi = np.full(u.shape, float(n))  # P(K > n) = 0 <= u
    sd = float(np.sqrt(n * p * (1.0 - p)))
    if not (sd >= 3.0 and n > 16 * _WINDOW):  # a poor guess, or a few rounds anyway
        return lo, hi
    z = np.clip(special.ndtri(1.0 - u), -40.0, 40.0)  # u = 1 gives ndtri(0) = -inf
    guess = np.floor(n * p + sd * (z + (1.0 - 2.0 * p) / sd * (z * z - 1.0) / 6.0))
    a = np.clip(guess - _WINDOW, -1.0, float(n))
    b = np.clip(guess + _WINDOW, -1.0, float(n))
    ok = (binomial_sf(a, n, p) > u) & (binomial_sf(b, n, p) <= u)
    return np.where(ok, a, lo), np.where(ok, b, hi)


def conditional_binomial(
    gen: np.random.Generator, n: int, p: float, size: int, *, min_each: int
) -> np.ndarray:
    """Binomial(n, p) draws conditioned on ``min_each <= k <= n - min_each`` (both classes).

    Exact inverse-survival sampling of the truncated law, vectorised: no rejection loop, so a
    tiny or huge ``p`` cannot make it spin.  Raises a clear error when the condition has
    probability zero in floating point.

    >>> conditional_binomial(np.random.default_rng(0), 10, 1e-12, 3, min_each=1).tolist()
    [1, 1, 1]
    """
    if n < 2 * min_each:
        raise ValueError(f"n: expected at least {2 * min_each} instances, got {n}")
    lower = float(binomial_sf(np.array(n - min_each), n, p))  # P(K > n - min_each)
    upper = float(binomial_sf(np.array(min_each - 1), n, p))  # P(K >= min_each)
    if not upper > lower:
        raise ValueError(
            f"prevalence: with prevalence {p!r} a sample of n = {n} has no chance (in floating "
            f"point) of holding at least {min_each} instance(s) of each class"
        )
    u = lower + (upper - lower) * (1.0 - gen.random(size))  # uniform on (lower, upper]
    k = _binomial_isf(u, n, p).astype(np.int64)
    return np.clip(k, min_each, n - min_each)
