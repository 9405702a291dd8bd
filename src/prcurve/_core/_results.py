"""Result types shared by every part of prcurve, and its warning classes."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "ConfidenceInterval",
    "PRCurveWarning",
    "UndefinedMetricWarning",
    "compact_repr",
]


_T = TypeVar("_T")


def _short(value: Any) -> str:
    if isinstance(value, np.ndarray) and value.size > 6:
        flat = value.ravel()
        head = ", ".join(
            np.format_float_positional(v, precision=4, trim="0")
            if flat.dtype.kind == "f"
            else repr(v.item())
            for v in flat[:3]
        )
        return f"array([{head}, ...], shape={value.shape}, dtype={value.dtype})"
    if isinstance(value, float | np.floating):
        return repr(float(value))
    return repr(value)


def _compact_repr(self: Any) -> str:
    parts = [
        f"{f.name}={_short(getattr(self, f.name))}" for f in dataclasses.fields(self) if f.repr
    ]
    return f"{type(self).__name__}({', '.join(parts)})"


def compact_repr(cls: type[_T]) -> type[_T]:
    """Class decorator (put above ``@dataclass``): a repr that summarises long arrays.

    Results hold arrays of thousands of points; the default dataclass repr would print them all.
    """
    cls.__repr__ = _compact_repr  # type: ignore[method-assign, assignment]
    return cls


class PRCurveWarning(UserWarning):
    """Base class of every warning prcurve emits."""


class UndefinedMetricWarning(PRCurveWarning):
    """A quantity is undefined for the given data and a documented convention was used."""


@compact_repr
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
