"""What a bin of merged scores leaves unknown: bounds on AP, the DG area and precision.

A *bin* holds the positive mass ``p`` and the negative mass ``q`` of every score in a range,
but not their order inside it.  With ``a`` and ``F_A`` the positive and negative mass above the
bin (at higher scores) and ``F_B = F_A + q``, the exact curve enters the bin at the operating
point ``(a, F_A)`` and leaves it at ``(a + p, F_B)``: both are operating points of the data,
because a distinct score never straddles two bins.  In between it is some monotone path in the
rectangle ``[a, a + p] × [F_A, F_B]`` of count space, and every bound here follows from
``t / (t + F_B) <= precision <= t / (t + F_A)`` at ``TP = t`` on such a path.

All functions work on arrays of bins and return values in TP units (divide by ``n₊`` for
recall units).  The proof that these are bounds is in
:class:`prcurve._core._bounded.BoundedPRAccumulator` (Notes).
"""

from __future__ import annotations

import numpy as np

from ._interpolation import dg_segment_areas

__all__ = ["ap_terms", "dg_terms", "merge_costs", "precision_gap_sup", "ratio_integral"]


def ratio_integral(a: np.ndarray, p: np.ndarray, f: np.ndarray) -> np.ndarray:
    """``∫_a^{a+p} t / (t + f) dt`` for arrays of ``a, p, f >= 0``.

    Evaluated as ``a·x + f·(x − ln(1 + x))`` with ``x = p / (a + f)``: two non-negative terms,
    so no cancellation between them; ``x − ln(1 + x)`` uses its series below ``x = 1e-4``.
    When ``a + f = 0`` precision is 1 all the way and the integral is ``p``.
    """
    a, p, f = (np.asarray(v, dtype=np.float64) for v in (a, p, f))
    d = a + f
    has_d = d > 0
    x = p / np.where(has_d, d, 1.0)
    small = x < 1e-4
    xs = np.where(small, x, 0.0)
    series = xs * xs * (0.5 - xs * (1.0 / 3.0 - 0.25 * xs))
    gap = np.where(small, series, x - np.log1p(np.where(small, 0.0, x)))
    return np.where(has_d, a * x + f * gap, p)


def ap_terms(
    a: np.ndarray, fa: np.ndarray, p: np.ndarray, q: np.ndarray, exact: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest possible ``Σ ΔTP_k · P_k`` over the operating points inside each bin.

    An exact bin (one distinct score) is one operating point: ``p · (a + p) / (a + p + F_B)``.
    A merged bin: at most ``p · (a + p) / (a + p + F_A)`` (its positives first, tied) and at
    least ``∫_a^{a+p} t / (t + F_B) dt`` (its negatives first, then positives one by one).
    """
    top = a + p
    tie = p * top / np.maximum(top + fa + q, np.finfo(np.float64).tiny)
    high = p * top / np.maximum(top + fa, np.finfo(np.float64).tiny)
    low = ratio_integral(a, p, fa + q)
    return np.where(exact, tie, low), np.where(exact, tie, high)


def dg_terms(
    a: np.ndarray, fa: np.ndarray, p: np.ndarray, q: np.ndarray, exact: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest possible Davis–Goadrich area ``∫ precision dTP`` inside each bin.

    Exact bins: the area of their one DG segment.  Merged bins: between
    ``∫ t / (t + F_B) dt`` and ``∫ t / (t + F_A) dt`` over ``t ∈ [a, a + p]``.
    """
    seg = dg_segment_areas(a, fa, a + p, fa + q)
    low = ratio_integral(a, p, fa + q)
    high = ratio_integral(a, p, fa)
    return np.where(exact, seg, low), np.where(exact, seg, high)


def ap_width(a: np.ndarray, fa: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Width of the AP interval of a merged bin (what merging costs the bound)."""
    low, high = ap_terms(a, fa, p, q, np.zeros(np.shape(p), dtype=bool))
    return np.maximum(high - low, 0.0)


def merge_costs(pos: np.ndarray, neg: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """Growth of the AP bound (TP units) when bins ``i`` and ``i + 1`` are merged.

    Bins are in increasing score order; the merged bin starts where bin ``i + 1`` starts (it
    holds the higher scores).  A merge changes no other bin's interval, so the cost is local:
    the merged width minus the two widths.  Two bins of negatives only cost 0.  Computed in
    blocks of :data:`BLOCK` pairs, so that the temporaries stay small beside the bins.
    """
    pos = np.asarray(pos, dtype=np.float64)
    neg = np.asarray(neg, dtype=np.float64)
    a = np.cumsum(pos[::-1])[::-1]
    a -= pos  # positive mass above each bin
    fa = np.cumsum(neg[::-1])[::-1]
    fa -= neg
    cost = np.empty(max(pos.shape[0] - 1, 0))
    for lo in range(0, cost.shape[0], BLOCK):
        hi = min(lo + BLOCK, cost.shape[0])
        b = slice(lo, hi + 1)  # the bins of pairs lo .. hi - 1
        width = np.where(exact[b], 0.0, ap_width(a[b], fa[b], pos[b], neg[b]))
        merged = ap_width(
            a[lo + 1 : hi + 1], fa[lo + 1 : hi + 1], pos[lo:hi] + pos[lo + 1 : hi + 1],
            neg[lo:hi] + neg[lo + 1 : hi + 1],
        )  # fmt: skip
        cost[lo:hi] = merged - width[:-1] - width[1:]
    return cost


#: Pairs per block in :func:`merge_costs`.
BLOCK = 1 << 16


def precision_gap_sup(a: np.ndarray, fa: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``sup_t [t/(t + F_A) − t/(t + F_B)]`` over ``t ∈ (a, a + p]``, per merged bin.

    The gap is ``g(t) = q t / ((t + F_A)(t + F_B))``, increasing up to ``t = √(F_A F_B)`` and
    decreasing after, so its supremum on the interval is at that point clipped into it.  A bin
    starting at the origin (``a = F_A = 0``) with negatives has supremum 1 (``t → 0``).
    """
    a, fa, p, q = (np.asarray(v, dtype=np.float64) for v in (a, fa, p, q))
    t = np.clip(np.sqrt(fa * (fa + q)), a, a + p)
    den = (t + fa) * (t + fa + q)
    origin = den == 0
    gap = q * t / np.where(origin, 1.0, den)
    return np.where(p > 0, np.where(origin, np.where(q > 0, 1.0, 0.0), gap), 0.0)
