"""The asymptotic variance of the functional PR estimator, in one place.

Used by population models (known densities) and by the empirical normal-approximation intervals
(kernel-estimated densities), so the corrected formula is written exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import stats

from .._core._results import compact_repr
from .._core._validation import check_level, check_positive_int, check_unit_interval_array

if TYPE_CHECKING:
    from ._model import PopulationModel

__all__ = [
    "NormalApproximation",
    "asymptotic_variance",
    "normal_approximation",
    "pr_asymptotic_variance",
]


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
    if not (np.isfinite(skew) and skew > 0):
        raise ValueError(
            f"prevalence: expected a prevalence whose skew π₋/π₊ is a positive finite number, "
            f"got skew {skew!r} (the prevalence is too close to 0 or 1)"
        )
    p = np.asarray(precision, dtype=np.float64)
    x = np.asarray(recall, dtype=np.float64)
    a = np.asarray(alpha, dtype=np.float64)
    k = np.asarray(density_ratio, dtype=np.float64)
    bracket = a**2 * (1 + skew) + k**2 * x * (1 - x) * skew + a * (1 - a)
    return p**4 / x**2 * skew * (1 + skew) * bracket


@compact_repr
@dataclass(frozen=True)
class NormalApproximation:
    """The normal approximation ``PR̂(x) ≈ N(PR(x), σ²(x)/n)`` at a set of recall levels.

    Attributes
    ----------
    recall : ndarray, shape (m,)
        Recall levels x in (0, 1).
    mean : ndarray, shape (m,)
        PR(x), the population precision.
    sd : ndarray, shape (m,)
        ``sqrt(σ²(x)/n)``; zero where the limit law is a point mass (e.g. no negative above
        ``F₊⁻¹(1 − x)``).
    n : int
        Total sample size n = n₊ + n₋.
    """

    recall: np.ndarray
    mean: np.ndarray
    sd: np.ndarray
    n: int

    @property
    def degenerate(self) -> np.ndarray:
        """Boolean mask, shape (m,): the approximation is a point mass (sd = 0)."""
        return self.sd <= 0

    def density(self, values: Any) -> np.ndarray:
        """Normal densities at ``values`` (shape (g,)), one row per recall level: shape (m, g).

        Rows of degenerate (point-mass) approximations have no density and are all zeros; see
        :attr:`degenerate`.
        """
        v = np.asarray(values, dtype=np.float64).reshape(1, -1)
        sd = np.where(self.degenerate, 1.0, self.sd)[:, None]
        dens = stats.norm.pdf(v, loc=self.mean[:, None], scale=sd)
        return np.where(self.degenerate[:, None], 0.0, dens)

    def interval(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Central ``level`` probability interval of each normal law, clipped to [0, 1]."""
        level = check_level(level)
        z = stats.norm.isf((1.0 - level) / 2.0)
        return np.clip(self.mean - z * self.sd, 0, 1), np.clip(self.mean + z * self.sd, 0, 1)


def asymptotic_variance(model: PopulationModel, recall: Any) -> np.ndarray | float:
    """σ²(x), the asymptotic variance of √n (PR̂(x) − PR(x)) under a population model.

    Parameters
    ----------
    model : PopulationModel
        With continuous score laws (the functional estimator is not asymptotically normal, not
        even consistent, at jumps of a discrete law).
    recall : float or array-like of shape (m,)
        Recall levels x in (0, 1).

    Returns
    -------
    float or ndarray of shape (m,)

    Raises
    ------
    ValueError
        For discrete laws, recall outside (0, 1), or where the positives' density vanishes.

    Notes
    -----
    Hughes-Oliver, Theorem 1 and eq. (1) (corrected form of Clémençon & Vayatis 2009 eq. 9):
    ``σ²(x) = PR(x)⁴/x² · skew(1+skew) · {α²(1+skew) + (f₋/f₊)² x(1−x) skew + α(1−α)}`` with
    ``t = F₊⁻¹(1−x)``, ``α = 1 − F₋(t)``, the densities at t, and ``skew = π₋/π₊``; evaluated by
    :func:`pr_asymptotic_variance`.

    Examples
    --------
    >>> from prcurve import asymptotic_variance, cases
    >>> [round(float(v), 4) for v in asymptotic_variance(cases.A(1 / 11), [0.2, 0.5, 0.8])]
    [13.9762, 4.6861, 1.3385]
    """
    x = check_unit_interval_array(recall, "recall", low_open=True, high_open=True)
    if not hasattr(model, "_density_ratio"):
        raise TypeError(f"model: expected a PopulationModel, got {type(model).__name__}")
    ratio = model._density_ratio(x)
    value = pr_asymptotic_variance(model._precision(x), x, model._alpha(x), ratio, model.skew)
    return float(value) if np.ndim(value) == 0 else value


def normal_approximation(model: PopulationModel, recall: Any, n: int) -> NormalApproximation:
    """The normal law ``N(PR(x), σ²(x)/n)`` that Theorem 1 gives for PR̂(x) with n observations.

    Parameters
    ----------
    model : PopulationModel
    recall : array-like, shape (m,)
        Recall levels in (0, 1).
    n : int
        Total sample size.

    Examples
    --------
    >>> from prcurve import cases, normal_approximation
    >>> approx = normal_approximation(cases.A(0.5), [0.5], n=1000)
    >>> round(float(approx.mean[0]), 4), round(float(approx.sd[0]), 4)
    (0.8609, 0.0232)
    """
    n = check_positive_int(n, "n")
    x = np.atleast_1d(check_unit_interval_array(recall, "recall", low_open=True, high_open=True))
    var = np.atleast_1d(asymptotic_variance(model, x))
    mean = np.atleast_1d(model._precision(x))
    return NormalApproximation(recall=x, mean=mean, sd=np.sqrt(var / n), n=n)
