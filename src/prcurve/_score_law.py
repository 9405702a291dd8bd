"""Validated univariate score laws: the few operations population curves need.

A score law is a frozen univariate scipy.stats distribution (continuous or discrete), or a
shape-free ``rv_continuous`` / ``rv_discrete`` instance such as ``rv_discrete(values=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from ._results import compact_repr

__all__ = ["ScoreLaw", "as_score_law"]

# Tolerance used when inverting a discrete distribution function: 1 - x is lowered by this much
# so that a recall such as 0.4 = 1 - F(z) lands on the atom z despite rounding in F.
_DISCRETE_TOL = 1e-12
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
            p = 1.0 - x[mid] - _DISCRETE_TOL
            low = p <= 0
            q = np.empty(p.shape)
            q[low] = self.lower
            q[~low] = self.dist.ppf(p[~low])
            out[mid] = q
        else:
            out[mid] = self.dist.isf(x[mid])
        return out

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
