"""Shared construction of the Displays that draw a curve together with its convex hull."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from ._estimator import EstimatorMixin, score_name

__all__ = ["HullCurveDisplay"]

_D = TypeVar("_D", bound="HullCurveDisplay")


class HullCurveDisplay(EstimatorMixin):
    """Base of the ROC and PRG Displays: a computed curve, a name and an optional hull.

    Subclasses set ``_curve_type`` (the result class they draw) and ``_compute`` (the prcurve
    function that computes it from predictions), and implement ``plot``.
    """

    _curve_type: ClassVar[type]
    _compute: ClassVar[Callable[..., Any]]
    curve: Any
    hull: Any
    name: str | None
    plot: Callable[..., Any]  # each subclass draws its own curve type

    def __init__(self, curve: Any, *, name: str | None = None, hull: Any = None) -> None:
        kind = self._curve_type.__name__
        if not isinstance(curve, self._curve_type):
            raise TypeError(f"curve: expected a {kind}, got {type(curve).__name__}")
        if hull is not None and not isinstance(hull, self._curve_type):
            raise TypeError(f"hull: expected a {kind}, got {type(hull).__name__}")
        self.curve, self.name, self.hull = curve, name, hull

    @classmethod
    def from_curve(
        cls: type[_D], curve: Any, *, name: str | None = None, hull: bool = True, **kwargs: Any
    ) -> _D:
        """Display of a computed curve (with its convex hull unless ``hull=False``), plotted."""
        return cls(curve, name=name, hull=curve.convex_hull() if hull else None).plot(**kwargs)

    @classmethod
    def from_predictions(
        cls: type[_D],
        y_true: Any,
        y_score: Any,
        *,
        sample_weight: Any = None,
        pos_label: Any = None,
        name: str | None = None,
        hull: bool = True,
        **kwargs: Any,
    ) -> _D:
        """Compute the curve from labels and scores, then plot it (and its hull).

        A pandas Series of scores names the curve when ``name`` is not given.
        """
        curve = cls._compute(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
        name = name if name is not None else score_name(y_score)
        return cls.from_curve(curve, name=name, hull=hull, **kwargs)
