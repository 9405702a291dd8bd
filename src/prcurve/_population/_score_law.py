"""Validated univariate score laws: the few operations population curves need.

A score law is a frozen univariate scipy.stats distribution (continuous or discrete), or a
shape-free ``rv_continuous`` / ``rv_discrete`` instance such as ``rv_discrete(values=...)``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._core._results import compact_repr

__all__ = ["ScoreLaw", "as_score_law"]

# Tolerance used when inverting a discrete distribution function: 1 - x is lowered by this much
# so that a recall such as 0.4 = 1 - F(z) lands on the atom z despite rounding in F.
_DISCRETE_TOL = 1e-9  # relative, on tail probabilities
# Relative miss of sf(isf(x)) against x beyond which a continuous law's isf is taken to have
# failed.  A correct isf misses by (ulp of t)·t·hazard(t): ~1e-13 for scipy's laws, 4e-9 for a
# normal located at 1e6; a generic isf via cdf at 1 − x misses by ~1e-16/x.  A false alarm only
# costs the bisection, which returns the same float inverse.
_ISF_CHECK = 1e-10
# Largest number of atoms enumerated for a discrete law on the integers.
_MAX_ATOMS = 1_000_000


@compact_repr
@dataclass(frozen=True)
class ScoreLaw:
    """A validated univariate score law with the few operations the curves need."""

    dist: Any
    discrete: bool
    lower: float
    upper: float

    def sf(self, t: np.ndarray) -> np.ndarray:
        """P(S > t)."""
        return np.asarray(self.dist.sf(t), dtype=np.float64)

    def ge(self, t: np.ndarray) -> np.ndarray:
        """P(S >= t)."""
        if self.discrete:
            return np.minimum(self.sf(t) + self.mass(t), 1.0)
        return self.sf(t)

    def mass(self, t: np.ndarray) -> np.ndarray:
        """P(S = t) (zero for continuous laws)."""
        if self.discrete:
            return np.asarray(self.dist.pmf(t), dtype=np.float64)
        return np.zeros(np.shape(t))

    def density(self, t: np.ndarray) -> np.ndarray:
        """The density (continuous) or probability mass function (discrete) at t."""
        if self.discrete:
            return self.mass(t)
        return np.asarray(self.dist.pdf(t), dtype=np.float64)

    def upper_quantile(self, x: np.ndarray) -> np.ndarray:
        """``F⁻¹(1 − x)`` for x in [0, 1]; x = 0 gives the upper end, x = 1 the lower end.

        The value at x = 1 is the limit ``lim_{p↓0} F⁻¹(p) = m`` (the lower end of the support),
        not ``F⁻¹(0) = −∞``, so that curves are continuous at their end points.
        """
        x = np.asarray(x, dtype=np.float64)
        out = np.empty(x.shape)
        top, bottom = x <= 0, x >= 1
        mid = ~(top | bottom)
        out[top] = self.upper
        out[bottom] = self.lower
        if self.discrete:
            # smallest atom with P(S > z) <= x, via isf (exact for tiny x, unlike ppf(1 - x));
            # a relative tolerance lets x equal to an atom's tail probability find that atom
            target = np.minimum(x[mid] * (1 + _DISCRETE_TOL), 1.0)
            q = np.array(self.dist.isf(target), dtype=np.float64, ndmin=1)
            lost = np.isnan(q)  # scipy's discrete isf gives up deep in the tail
            if lost.any():
                q[lost] = self._tail_atom(target[lost])
            out[mid] = np.maximum(q, self.lower)
        else:
            xm = x[mid]
            with warnings.catch_warnings():
                # scipy 1.10's boost-based isf (e.g. beta) warns when its root finder gives up
                # deep in a tail; the value is checked against sf below
                warnings.simplefilter("ignore", RuntimeWarning)
                q = np.array(self.dist.isf(xm), dtype=np.float64, ndmin=1)
            # in the upper tail the quantile solves sf(q) = x.  scipy 1.10's lognorm isf
            # overflows to inf once 1 - x rounds to 1, and a generic rv_continuous inverts
            # cdf at 1 - x, losing the digits of a small x: where sf(q) misses x, bisect on sf
            tail = xm < 0.5
            with np.errstate(invalid="ignore"):
                missed = tail & ~(np.abs(self.sf(q) - xm) <= _ISF_CHECK * xm)
            if missed.any():
                q[missed] = self._upper_tail_point(xm[missed])
            # scipy may give NaN deep in a lower tail: there the quantile is the support's end
            out[mid] = np.where(np.isnan(q), np.where(xm < 0.5, self.upper, self.lower), q)
        return out

    def _upper_tail_point(self, x: np.ndarray) -> np.ndarray:
        """Smallest float t with P(S > t) <= x, for x in (0, 0.5), by bisection on ``sf``.

        For a continuous law whose ``isf`` failed.  The bracket starts at the median (where
        sf = ½ > x) and ends at the upper end of the support, or, on an unbounded support,
        where doubling steps first reach sf <= x (at most ~1100 steps to the largest float);
        it is then halved until its ends are adjacent floats.  Vectorised over ``x``.
        """
        median = float(self.dist.isf(0.5))
        lo = np.full(x.shape, median)
        if np.isfinite(self.upper):
            hi = np.full(x.shape, self.upper)
        else:
            step = np.full(x.shape, max(abs(median), 1.0))
            hi = lo + step
            for _ in range(1100):
                short = self.sf(hi) > x
                if not short.any():
                    break
                lo = np.where(short, hi, lo)
                step = np.where(short, 2 * step, step)
                hi = np.where(short, hi + step, hi)
        for _ in range(2200):  # invariant: sf(lo) > x >= sf(hi)
            mid = lo + (hi - lo) / 2
            open_ = (mid > lo) & (mid < hi)
            if not open_.any():
                break
            ok = self.sf(mid) <= x
            hi = np.where(open_ & ok, mid, hi)
            lo = np.where(open_ & ~ok, mid, lo)
        return hi

    def _tail_atom(self, x: np.ndarray) -> np.ndarray:
        """Smallest support point z with P(S > z) <= x, by integer bisection on ``sf``.

        For tails beyond scipy's discrete ``isf`` (about 1e-15); vectorised over ``x``.  scipy's
        discrete laws live on integers shifted by ``loc``.
        """
        start = self.dist.isf(1e-15)
        lo = np.full(x.shape, start if np.isfinite(start) else self.lower)
        step = np.ones(x.shape)
        hi = lo + step
        for _ in range(1100):  # doubling: sf(hi) <= x is reached within ~log2(range) steps
            short = self.dist.sf(hi) > x
            if not short.any():
                break
            lo = np.where(short, hi, lo)
            step = np.where(short, 2 * step, step)
            hi = np.where(short, hi + step, hi)
        while np.any(hi - lo > 1):  # invariant: sf(lo) > x >= sf(hi)
            mid = np.floor((lo + hi) / 2)
            ok = self.dist.sf(mid) <= x
            hi = np.where(ok, mid, hi)
            lo = np.where(ok, lo, mid)
        return np.minimum(hi, self.upper)

    def atoms(self) -> np.ndarray:
        """The support points of a discrete law, increasing (tails beyond 1e-15 ignored)."""
        base = getattr(self.dist, "dist", self.dist)
        xk = getattr(base, "xk", None)
        if xk is not None:
            shift = self.lower - float(np.min(xk))
            pts = np.asarray(xk, dtype=np.float64) + shift
        else:
            lo = self.lower if np.isfinite(self.lower) else float(self.dist.ppf(1e-15))
            hi = self.upper if np.isfinite(self.upper) else float(self.dist.isf(1e-15))
            if hi - lo > _MAX_ATOMS:
                raise ValueError(
                    f"discrete score law: expected at most {_MAX_ATOMS} support points, "
                    f"got a range [{lo}, {hi}]"
                )
            pts = np.arange(np.ceil(lo), np.floor(hi) + 1.0)
        pts = np.unique(pts)
        return pts[self.mass(pts) > 0]


def as_score_law(dist: Any, name: str) -> ScoreLaw:
    """Check that ``dist`` is a univariate scipy distribution without free shape parameters."""
    base = getattr(dist, "dist", None)
    if isinstance(base, stats.rv_continuous | stats.rv_discrete) and hasattr(dist, "kwds"):
        discrete = isinstance(base, stats.rv_discrete)
    elif isinstance(dist, stats.rv_continuous | stats.rv_discrete) and dist.numargs == 0:
        discrete = isinstance(dist, stats.rv_discrete)
    else:
        raise TypeError(
            f"{name}: expected a frozen univariate scipy.stats distribution "
            f"(e.g. scipy.stats.norm(0, 1)), got {type(dist).__name__} {dist!r}"
        )
    lower, upper = (float(v) for v in dist.support())
    if np.isnan(lower) or np.isnan(upper):
        raise ValueError(f"{name}: the distribution has invalid parameters (support is NaN)")
    return ScoreLaw(dist=dist, discrete=discrete, lower=lower, upper=upper)
