"""Result types shared by every part of prcurve, and its warning classes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "ConfidenceInterval",
    "PRCurveWarning",
    "UndefinedMetricWarning",
]


class PRCurveWarning(UserWarning):
    """Base class of every warning prcurve emits."""


class UndefinedMetricWarning(PRCurveWarning):
    """A quantity is undefined for the given data and a documented convention was used."""


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval (scalar ends) or a pointwise/simultaneous band (array ends).

    Attributes
    ----------
    low, high : float or ndarray
        Lower and upper ends; arrays of one shape for bands.
    level : float
        Nominal coverage, e.g. 0.95.
    """

    low: float | np.ndarray
    high: float | np.ndarray
    level: float = 0.95

    def __iter__(self):  # lets users write ``lo, hi = ci``
        yield self.low
        yield self.high

    @property
    def width(self) -> float | np.ndarray:
        """``high - low``."""
        return np.subtract(self.high, self.low)

    def contains(self, value: float | np.ndarray) -> bool | np.ndarray:
        """Whether ``value`` lies inside (ends included), elementwise for bands."""
        inside = np.logical_and(np.less_equal(self.low, value), np.less_equal(value, self.high))
        return bool(inside) if np.ndim(inside) == 0 else inside
